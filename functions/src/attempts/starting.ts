import { randomInt } from 'node:crypto';
import type { DocumentReference, DocumentSnapshot, Transaction } from 'firebase-admin/firestore';
import type { StoredClient } from '../clients/documents';
import type { StoredSeat, StoredShareCode, StoredTest } from '../exams/documents';
import { db } from '../firestore/db';
import { paths } from '../firestore/paths';
import { hasStatus, NOT_FOUND } from '../firestore/statusCodes';
import { badRequest, conflict, notFound } from '../shared/errors';
import { newAttemptId, type FoundAttempt } from './attemptLookup';
import { addAudit, type AuditMeta } from '../audit/trail';
import { closeInTransaction } from './closing';
import { drawFromPools } from './draw';
import { paperWith, requirePaper, requireVersion, type ShareCodeTarget } from './frozenReads';
import { keyRevisionOf } from '../exams/lifecycle';
import { refusedCredential, TestMissing } from './refusals';
import { isOverdue, questionOrder, type VersionForAttempt } from './rules';
import { accessCodeMatches } from '../sittingRules/accessCode';
import { cooldownEnds, deadlineMs, effective, startWindow, windowRefusal, type Accommodation, type OverrideValues } from '../sittingRules/deadline';
import type { AttemptSlot, StoredAttempt } from './documents';
import { hashAttemptToken, newAttemptToken } from './tokens';

// Starting an attempt: one transaction reads the test, the (test, student)
// slot and, for a Guest, the share code and one seat shard together (one round
// trip) → max_attempts, resume, max_uses and "published" hold exactly under
// parallel starts.

/** A share code refused (expired, revoked, used up): counted against the caller's address as a refused credential. */
const refusedShareCode = (code: 'FORBIDDEN' | 'CONFLICT', message: string) => refusedCredential(code, message);

export interface StartPlan {
  clientId: string;
  testId: string;
  studentId: string;
  /** Set for a Guest: the code it redeems (its seats are taken here). */
  guest: { target: ShareCodeTarget; name: string | null } | null;
  /** An administrator starts for a student: the student's profile is read and must be a student's. */
  checkStudentProfile: boolean;
  /**
   * The access code the taker sent, checked when the test requires one. Null
   * when an administrator starts for a student: the code keeps strangers out of
   * the room, and the proctor is not one.
   */
  accessCode: string | undefined | null;
  /**
   * Refuses a start from outside the organization's networks when the test is
   * on site only (policy: assertOnSite), answered from memory: no round trip.
   */
  checkOnSite: (sitting: { onSiteOnly: boolean; clientId: string }) => Promise<void>;
  startedBy: string;
  meta: AuditMeta;
  /**
   * Set when nothing before the start checked the organization (a Guest has no organization claim):
   * its document is read in the transaction's first round trip and handed here before anything is written.
   */
  checkOrganization?: (client: StoredClient | undefined) => void;
}

export interface StartOutcome {
  resumed: boolean;
  attemptId: string;
  startedAt: string;
  expiresAt: string;
  token: string;
  version: VersionForAttempt;
}

const hasRoom = (seat: DocumentSnapshot): boolean => {
  if (!seat.exists) return false;
  const { capacity, used } = seat.data() as StoredSeat;
  return capacity === null || used < capacity;
};

/** A seat with room: the shard drawn at random, else the others (read together, only when it is full). Reads only. */
async function findSeat(tx: Transaction, target: ShareCodeTarget, drawn: number, drawnSnap: DocumentSnapshot | undefined): Promise<DocumentSnapshot> {
  let seat: DocumentSnapshot | undefined = drawnSnap && hasRoom(drawnSnap) ? drawnSnap : undefined;
  if (!seat) {
    const others = Array.from({ length: target.seat_shards }, (_, k) => k).filter((k) => k !== drawn);
    const snaps = others.length > 0 ? await tx.getAll(...others.map((k) => paths.shareCodeSeat(target.code, k))) : [];
    seat = snaps.find(hasRoom);
  }
  if (!seat) throw refusedShareCode('CONFLICT', 'This share code has been used as many times as it allows');
  return seat;
}

function checkShareCode(snap: DocumentSnapshot | undefined, nowMs: number): void {
  const code = snap?.data() as StoredShareCode | undefined;
  if (!code) throw refusedShareCode('FORBIDDEN', 'This share code is not valid');
  if (code.revoked) throw refusedShareCode('FORBIDDEN', 'This share code has been revoked');
  if (code.expires_at !== null && Date.parse(code.expires_at) <= nowMs) throw refusedShareCode('FORBIDDEN', 'This share code has expired');
}

/**
 * Starts an attempt, or resumes the one in progress with a fresh token. One
 * transaction: the test (published?), the slot (count, in progress) and, for
 * a Guest, the share code and a seat shard are read in one round trip; the
 * frozen version comes from the instance's cache (one read the first time).
 */
export async function startAttempt(plan: StartPlan): Promise<StartOutcome> {
  try {
    return await startInTransaction(plan, { readRunning: false });
  } catch (err) {
    // The slot names an attempt in progress whose document is gone (deleted in the
    // console), so resuming it failed: read it this time, and start afresh without it.
    if (!hasStatus(err, NOT_FOUND)) throw err;
    return startInTransaction(plan, { readRunning: true });
  }
}

async function startInTransaction(plan: StartPlan, { readRunning }: { readRunning: boolean }): Promise<StartOutcome> {
  const testRef = paths.clientTest(plan.clientId, plan.testId);
  const slotRef = paths.attemptSlot(plan.clientId, plan.testId, plan.studentId);
  const drawn = plan.guest ? randomInt(Math.max(1, plan.guest.target.seat_shards)) : 0;
  // One round trip reads all that decides the start; optional documents only when they matter. A Guest is
  // nobody's student, so it has no override or accommodation to read.
  const named: Record<string, DocumentReference | undefined> = {
    organization: plan.checkOrganization ? paths.client(plan.clientId) : undefined,
    profile: plan.checkStudentProfile ? paths.clientUser(plan.clientId, plan.studentId) : undefined,
    override: plan.guest ? undefined : paths.testOverride(plan.clientId, plan.testId, plan.studentId),
    accommodation: plan.guest ? undefined : paths.accommodation(plan.clientId, plan.studentId),
    shareCode: plan.guest ? paths.shareCode(plan.guest.target.code) : undefined,
    drawnSeat: plan.guest ? paths.shareCodeSeat(plan.guest.target.code, drawn) : undefined,
  };
  const wanted = Object.entries(named).filter((e): e is [string, DocumentReference] => e[1] !== undefined);
  return db.runTransaction(async (tx) => {
    // Waiting on nothing else while holding the reads: a class redeeming one code at once contends for its seats.
    const [testSnap, slotSnap, ...snaps] = await tx.getAll(testRef, slotRef, ...wanted.map(([, ref]) => ref));
    const read = Object.fromEntries(wanted.map(([name], i) => [name, snaps[i]])) as Record<string, DocumentSnapshot | undefined>;
    if (plan.checkOrganization) plan.checkOrganization(read.organization?.exists ? (read.organization.data() as StoredClient) : undefined);
    const nowMs = Date.now();
    if (plan.guest) checkShareCode(read.shareCode, nowMs);
    if (!testSnap.exists) throw new TestMissing('NOT_FOUND', 'Test not found');
    const test = testSnap.data() as StoredTest;
    if (test.status !== 'published' || test.version === null) throw conflict(`Attempts are taken on published tests only; this test is ${test.status}`);
    // Resuming is starting too: an on-site-only test is started and resumed on site only.
    const onSiteOnly = test.on_site_only ?? 0;
    await plan.checkOnSite({ onSiteOnly: onSiteOnly === 1, clientId: plan.clientId });
    const profileSnap = read.profile;
    if (profileSnap) {
      if (!profileSnap.exists) throw notFound('No such student in this organization');
      if (profileSnap.get('role') !== 'student') throw badRequest('student_id must name a student', [{ path: 'body.student_id', message: 'Not a student' }]);
    }
    const override = read.override?.exists ? (read.override.data() as OverrideValues) : undefined;
    const accommodation = read.accommodation?.exists ? (read.accommodation.data() as Accommodation) : undefined;
    const drawnSeatSnap = read.drawnSeat;
    const slot: AttemptSlot = slotSnap.exists
      ? (slotSnap.data() as AttemptSlot)
      : { test_id: plan.testId, student_id: plan.studentId, client_id: plan.clientId, count: 0, in_progress: null };

    const token = newAttemptToken();
    const running = slot.in_progress;
    if (running) {
      const attemptRef = paths.clientAttempt(plan.clientId, running.attempt_id);
      const gone = readRunning && !(await tx.get(attemptRef)).exists;
      if (!gone && !isOverdue({ status: 'in_progress', expires_at: running.expires_at }, nowMs)) {
        // Resume: the same attempt, a new token; the old one stops working.
        // The test's on_site_only as it stands now: a resume brings the attempt in line with a change made since its start.
        tx.update(attemptRef, { token_hash: hashAttemptToken(token), on_site_only: onSiteOnly });
        addAudit(tx, plan.meta, {
          type: 'attempt_resumed',
          userId: plan.studentId,
          clientId: plan.clientId,
          actorId: plan.startedBy,
          details: { attempt_id: running.attempt_id, test_id: plan.testId, guest: plan.guest !== null },
        });
        return {
          resumed: true,
          attemptId: running.attempt_id,
          startedAt: running.started_at,
          expiresAt: running.expires_at,
          token,
          version: await requirePaper({
            client_id: plan.clientId,
            test_id: plan.testId,
            version: running.version,
            drawn: running.drawn,
            key_revision: keyRevisionOf(test, running.version),
          }),
        };
      }
    }
    // Left open past its deadline: it closes first (below), with the answers saved in time.
    const overdueSnap = running ? await tx.get(paths.clientAttempt(plan.clientId, running.attempt_id)) : undefined;
    const overdue: FoundAttempt | undefined =
      overdueSnap?.exists && overdueSnap.get('status') === 'in_progress' ? { ref: overdueSnap.ref, attempt: overdueSnap.data() as StoredAttempt } : undefined;

    // A new attempt: inside the student's window, past its cooldown, with the access code, within its attempts.
    const refusal = windowRefusal(startWindow(test, override), nowMs);
    if (refusal) throw conflict(refusal);
    const lastSubmittedAt = overdue ? overdue.attempt.expires_at : slot.last_submitted_at;
    const cooldownEnd = cooldownEnds(lastSubmittedAt, test.attempt_cooldown_minutes ?? 0, nowMs);
    if (cooldownEnd) throw conflict(`The next attempt on this test can start at ${cooldownEnd}, once the cooldown after the last one is over`);
    if (test.access_code_hash && plan.accessCode !== null) {
      if (plan.accessCode === undefined) throw refusedCredential('FORBIDDEN', 'This test requires its access code: send access_code');
      if (!(await accessCodeMatches(test.access_code_hash, plan.accessCode))) throw refusedCredential('FORBIDDEN', 'This access code is not valid for this test');
    }
    const keyRevision = keyRevisionOf(test, test.version);
    const version = await requireVersion(plan.clientId, plan.testId, test.version, keyRevision);
    // The draw: this attempt's own questions from each pool, preferring those the student has not seen.
    const draw = drawFromPools(version.pools ?? [], slot.seen ?? []);
    const paper = await paperWith(version, plan.clientId, draw.drawn);
    const maxAttempts = effective(override, 'max_attempts', version.test.max_attempts ?? null);
    if (maxAttempts !== null && maxAttempts !== undefined && slot.count >= maxAttempts) {
      throw conflict(`All ${maxAttempts} attempts allowed on this test have been used`);
    }
    // Every read comes before the first write (a Firestore transaction's rule).
    const seat = plan.guest ? await findSeat(tx, plan.guest.target, drawn, drawnSeatSnap) : undefined;
    // (The slot is rewritten below, so the close leaves it alone.)
    if (overdue) await closeInTransaction(tx, overdue, { nowMs, automatic: true, meta: plan.meta, actorId: null, freeSlot: false });
    if (seat) tx.update(seat.ref, { used: (seat.get('used') as number) + 1 });

    const attemptId = newAttemptId(plan.clientId);
    const startedAt = new Date(nowMs).toISOString();
    const attempt: StoredAttempt = {
      id: attemptId,
      client_id: plan.clientId,
      test_id: plan.testId,
      test_name: version.test.test_name,
      version: version.version,
      student_id: plan.studentId,
      guest: plan.guest !== null,
      guest_name: plan.guest?.name ?? null,
      share_code: plan.guest?.target.code ?? null,
      started_by: plan.startedBy,
      status: 'in_progress',
      started_at: startedAt,
      expires_at: new Date(
        deadlineMs({
          startedAtMs: nowMs,
          versionTimer: version.test.timer ?? 0,
          testClosesAt: test.closes_at ?? null,
          override,
          accommodation,
          extensionMinutes: 0,
        }),
      ).toISOString(),
      submitted_at: null,
      auto_submitted: false,
      answers: {},
      question_order: questionOrder(attemptId, paper),
      token_hash: hashAttemptToken(token),
      on_site_only: onSiteOnly,
      submitted_by: null,
      score: null,
      total_marks: paper.total_marks,
      results: null,
      ...(draw.drawn.length > 0 ? { drawn: draw.drawn } : {}),
      key_revision: version.revision ?? 0,
    };
    tx.create(paths.clientAttempt(plan.clientId, attemptId), attempt);
    const nextSlot: AttemptSlot = {
      ...slot,
      count: slot.count + 1,
      last_submitted_at: lastSubmittedAt ?? null,
      in_progress: {
        attempt_id: attemptId,
        version: version.version,
        started_at: startedAt,
        expires_at: attempt.expires_at,
        ...(draw.drawn.length > 0 ? { drawn: draw.drawn } : {}),
      },
      ...((version.pools ?? []).length > 0 ? { seen: draw.seen } : {}),
    };
    tx.set(slotRef, nextSlot);
    const details = { attempt_id: attemptId, test_id: plan.testId, version: version.version, guest: plan.guest !== null, expires_at: attempt.expires_at };
    addAudit(tx, plan.meta, { type: 'attempt_started', userId: plan.studentId, clientId: plan.clientId, actorId: plan.startedBy, details });
    if (plan.guest) {
      addAudit(tx, plan.meta, {
        type: 'share_code_redeemed',
        userId: plan.studentId,
        clientId: plan.clientId,
        actorId: plan.startedBy,
        details: { ...details, share_code: plan.guest.target.code, guest_name: attempt.guest_name },
      });
    }
    return { resumed: false, attemptId, startedAt, expiresAt: attempt.expires_at, token, version: paper };
  });
}

/** Whether a test with this id exists in another organization than `clientId` (403 rather than 404). */
export async function testExistsElsewhere(testId: string): Promise<StoredTest | undefined> {
  const snap = await paths.allTests().where('id', '==', testId).limit(1).get();
  return snap.empty ? undefined : (snap.docs[0].data() as StoredTest);
}
