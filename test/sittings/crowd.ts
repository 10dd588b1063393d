import { randomBytes } from 'node:crypto';
import type { DocumentSnapshot } from 'firebase-admin/firestore';
import type { AttemptSlot, StoredAttempt } from '../../functions/src/attempts/documents';
import { adminDb } from '../support/admin';
import { attemptDoc, slotDoc } from '../attempts/fixtures';
import { versionDoc } from '../exams/fixtures';

// A sitting's crowd, for the sittings tests that need hundreds of attempts in
// progress at once: the attempts and their slots are written straight into
// Firestore in the shapes attempts/documents.ts gives them (StoredAttempt,
// AttemptSlot), as a start would have written them, batched. Their takers are
// made-up student ids, so an administrator of the organization saves and
// submits for them (the bearer path needs no taker account).

const MINUTE = 60_000;

/** `count` attempts in progress on a published test (no closes_at, no override), started `startedMinutesAgo` minutes ago. */
export async function seedAttempts(
  clientId: string,
  test: { id: string; version: number },
  count: number,
  { startedMinutesAgo = 1 }: { startedMinutesAgo?: number } = {},
): Promise<StoredAttempt[]> {
  const version = (await versionDoc(clientId, test.id, test.version).get()).data()!;
  const startedMs = Date.now() - startedMinutesAgo * MINUTE;
  const startedAt = new Date(startedMs).toISOString();
  // The deadline a start computes with no closes_at, override or accommodation: started_at + the version's timer.
  const expiresAt = new Date(startedMs + (version.test.timer as number) * MINUTE).toISOString();
  const attempts: StoredAttempt[] = Array.from({ length: count }, () => {
    const studentId = `seeded-${randomBytes(6).toString('hex')}`;
    return {
      id: `${clientId}.${randomBytes(16).toString('base64url')}`,
      client_id: clientId,
      test_id: test.id,
      test_name: version.test.test_name,
      version: test.version,
      student_id: studentId,
      guest: false,
      guest_name: null,
      share_code: null,
      started_by: studentId,
      status: 'in_progress',
      started_at: startedAt,
      expires_at: expiresAt,
      submitted_at: null,
      auto_submitted: false,
      submitted_by: null,
      answers: {},
      question_order: (version.questions as Array<{ id: string }>).map((q) => q.id),
      token_hash: randomBytes(32).toString('hex'),
      score: null,
      total_marks: version.total_marks,
      results: null,
    };
  });
  // Two writes per attempt (the attempt and its slot): 250 attempts per batch of 500.
  const batches: Array<Promise<unknown>> = [];
  for (let from = 0; from < attempts.length; from += 250) {
    const batch = adminDb.batch();
    for (const attempt of attempts.slice(from, from + 250)) {
      const slot: AttemptSlot = {
        test_id: test.id,
        student_id: attempt.student_id,
        client_id: clientId,
        count: 1,
        in_progress: { attempt_id: attempt.id, version: test.version, started_at: startedAt, expires_at: expiresAt },
        last_submitted_at: null,
      };
      batch.create(attemptDoc(clientId, attempt.id), attempt);
      batch.create(slotDoc(clientId, test.id, attempt.student_id), slot);
    }
    batches.push(batch.commit());
  }
  await Promise.all(batches);
  return attempts;
}

/** Every attempt of a test as stored, by id (read in pages of 300 ids at a time). */
export async function storedAttempts(clientId: string, ids: string[]): Promise<Map<string, DocumentSnapshot>> {
  const found = new Map<string, DocumentSnapshot>();
  for (let from = 0; from < ids.length; from += 300) {
    const snaps = await adminDb.getAll(...ids.slice(from, from + 300).map((id) => attemptDoc(clientId, id)));
    for (const snap of snaps) found.set(snap.id, snap);
  }
  return found;
}

/** Adds minutes to an ISO instant. */
export const plusMinutes = (iso: string, minutes: number): string =>
  new Date(Date.parse(iso) + minutes * MINUTE).toISOString();

/**
 * The commit time of an attempt's submission: its attempt_submitted audit
 * record is written in the submit's own transaction, so both share it. An
 * attempt document updated at exactly that time was not written after it.
 */
export async function submissionCommits(studentId: string, attemptId: string): Promise<DocumentSnapshot[]> {
  const snap = await adminDb
    .collection('audit_logs')
    .where('user_id', '==', studentId)
    .where('event_type', '==', 'attempt_submitted')
    .get();
  return snap.docs.filter((doc) => doc.get('details.attempt_id') === attemptId);
}

/**
 * Sends a request again after a 503 (a lock wait that timed out: the
 * emulator's locks time out after about 2 s where Firestore would let the
 * older transaction win), after a growing, jittered pause, as a client would;
 * counts the retries in `retries`.
 */
export async function untilAnswered<T extends { status: number }>(
  send: () => Promise<T>,
  retries: { count: number },
): Promise<T> {
  for (let tries = 0; ; tries += 1) {
    const res = await send();
    if (res.status !== 503 || tries === 12) return res;
    retries.count += 1;
    const pause = Math.min(250 * 2 ** tries, 8_000);
    await new Promise((resolve) => setTimeout(resolve, pause / 2 + Math.random() * pause));
  }
}
