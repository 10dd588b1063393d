import { randomBytes, randomInt } from 'node:crypto';
import { FieldPath, type CollectionReference, type DocumentReference, type DocumentSnapshot, type Transaction } from 'firebase-admin/firestore';
import { factsOf, recordSubmission } from '../analytics/store';
import type { AuditEventType } from '../audit/schemas';
import { eventRecord, type RequestMeta } from '../audit/service';
import { newAuditRef } from '../audit/store';
import { db } from '../firestore/db';
import { fetchPage } from '../firestore/pagedQuery';
import { paths } from '../firestore/paths';
import { hasStatus, NOT_FOUND } from '../firestore/statusCodes';
import { isDocumentId } from '../shared/ids';
import { ApiError, badRequest, conflict, notFound, serviceUnavailable } from '../shared/errors';
import { isBackendFault } from '../platform/backendFaults';
import { errorText, log } from '../platform/log';
import { refusedCredential, TestMissing } from './refusals';
import type { PageRequest } from '../shared/pagination';
import type { StoredShareCode, StoredTest, TestVersion } from '../exams/documents';
import { attemptQuerySpec } from './attemptQuery';
import {
  answerOverBudget,
  ATTEMPT_BUDGET_BYTES,
  expiresAt,
  fitsInOneDocument,
  GRACE_MS,
  isOverdue,
  organizationOfAttemptId,
  questionOrder,
  stopMessage,
  submission,
  type AttemptSlot,
  type StoredAttempt,
  type VersionForAttempt,
} from './rules';
import type { AttemptStatus } from './schemas';
import { hashAttemptToken, newAttemptToken } from './tokens';

// Firestore access for attempts. Every change of an attempt is one
// transaction that reads what it decides on and writes the change with its
// audit record, so a decision is never made on a stale read:
// - start: the test, the (test, student) slot and, for a Guest, the share code
//   and one seat shard, read together (one round trip) → max_attempts, resume,
//   max_uses and "published" hold exactly under parallel starts;
// - save answer, submit, close: the attempt itself → an answer racing the
//   submit is either in the score or refused, and a submit scores once.

// ---------------------------------------------------------------- audit

/** Where a change came from: the request's address, agent and id, or the scheduler. */
export type AuditMeta = RequestMeta;

export const SCHEDULER_META: AuditMeta = { ip_address: '', user_agent: 'scheduler', request_id: 'close-overdue-attempts' };

function addAudit(
  tx: Transaction,
  meta: AuditMeta,
  event: { type: AuditEventType; userId: string; clientId: string; actorId: string | null; details: Record<string, unknown> },
): void {
  const ref = newAuditRef();
  tx.create(ref, eventRecord(ref.id, event, meta));
}

// ---------------------------------------------------------------- immutable documents, read once per instance

const MAX_CACHED = 500;

function boundedCache<T>() {
  const entries = new Map<string, Promise<T>>();
  return (key: string, read: () => Promise<T>): Promise<T> => {
    let pending = entries.get(key);
    if (!pending) {
      if (entries.size >= MAX_CACHED) entries.delete(entries.keys().next().value as string);
      pending = read();
      entries.set(key, pending);
      pending.then((value) => value === undefined && entries.delete(key), () => entries.delete(key));
    }
    return pending;
  };
}

const versions = boundedCache<VersionForAttempt | undefined>();

/**
 * A frozen version: nothing ever edits one after publishing, so each instance
 * reads it once. Starting and submitting then cost the same with 5 questions or 500.
 */
export function versionOf(clientId: string, testId: string, version: number): Promise<VersionForAttempt | undefined> {
  const ref = paths.testVersion(clientId, testId, version);
  return versions(ref.path, async () => {
    const snap = await ref.get();
    return snap.exists ? (snap.data() as TestVersion) : undefined;
  });
}

/** Versions are never deleted: one missing is the backend's data gone wrong, not the caller's (503, logged with its path). */
export function versionMissing(clientId: string, testId: string, version: number): ApiError {
  log.error('A frozen version an attempt was taken on is missing', { path: paths.testVersion(clientId, testId, version).path });
  return serviceUnavailable('The test version this attempt was taken on cannot be read; retry later');
}

async function requireVersion(clientId: string, testId: string, version: number): Promise<VersionForAttempt> {
  const found = await versionOf(clientId, testId, version);
  if (!found) throw versionMissing(clientId, testId, version);
  return found;
}

/** What a share code leads to never changes (only `revoked` does, and that is read in the start transaction). */
export interface ShareCodeTarget {
  code: string;
  client_id: string;
  test_id: string;
  seat_shards: number;
}
const shareCodeTargets = boundedCache<ShareCodeTarget | undefined>();

export function shareCodeTarget(code: string): Promise<ShareCodeTarget | undefined> {
  return shareCodeTargets(code, async () => {
    const snap = await paths.shareCode(code).get();
    if (!snap.exists) return undefined;
    const data = snap.data() as StoredShareCode;
    return { code: data.code, client_id: data.client_id, test_id: data.test_id, seat_shards: data.seat_shards };
  });
}

// ---------------------------------------------------------------- errors a handler counts

/** A share code refused (expired, revoked, used up): counted against the caller's address as a refused credential. */
const refusedShareCode = (code: 'FORBIDDEN' | 'CONFLICT', message: string) => refusedCredential(code, message);

// ---------------------------------------------------------------- finding an attempt

/**
 * Where an attempt lives, from its id alone: ids are `<clientId>.<random>`, so
 * a token holder, a Guest or a Super Admin reaches it with one document read,
 * and a transaction reads one document, never a query (a query inside a
 * transaction locks its whole range: fifty students saving at once then time
 * out on each other's locks). An id that names no possible document names no attempt.
 */
function attemptRef(attemptId: string): DocumentReference | undefined {
  const clientId = organizationOfAttemptId(attemptId);
  if (clientId === undefined || !isDocumentId(attemptId)) return undefined;
  return isDocumentId(clientId) ? paths.clientAttempt(clientId, attemptId) : undefined;
}

/** Where an attempt is stored, for a log line. */
export const attemptPath = (attempt: Pick<StoredAttempt, 'client_id' | 'id'>): string => paths.clientAttempt(attempt.client_id, attempt.id).path;

export const newAttemptId = (clientId: string): string => `${clientId}.${randomBytes(16).toString('base64url')}`;

export interface FoundAttempt {
  ref: DocumentReference;
  attempt: StoredAttempt;
}

export async function findAttempt(attemptId: string): Promise<FoundAttempt | undefined> {
  const ref = attemptRef(attemptId);
  if (!ref) return undefined;
  const snap = await ref.get();
  return snap.exists ? { ref, attempt: snap.data() as StoredAttempt } : undefined;
}

async function findAttemptInTransaction(tx: Transaction, attemptId: string): Promise<FoundAttempt> {
  const ref = attemptRef(attemptId);
  const snap = ref ? await tx.get(ref) : undefined;
  if (!ref || !snap?.exists) throw notFound('Attempt not found');
  return { ref, attempt: snap.data() as StoredAttempt };
}

// ---------------------------------------------------------------- closing

/** Submits `attempt` in `tx` (scored, slot freed, audited) and answers the attempt as it now stands. */
async function closeInTransaction(
  tx: Transaction,
  found: FoundAttempt,
  nowMs: number,
  automatic: boolean,
  meta: AuditMeta,
  actorId: string | null,
  freeSlot = true,
): Promise<StoredAttempt> {
  const { ref, attempt } = found;
  const version = await requireVersion(attempt.client_id, attempt.test_id, attempt.version);
  const fields = submission(attempt, version, nowMs, automatic);
  // Measured before writing: Firestore would refuse the whole commit (stored before the budget, or written by hand).
  if (!fitsInOneDocument(ref.path, { ...attempt, ...fields })) {
    throw conflict(
      'This attempt’s saved answers are too large to be scored in one document; while it is in progress, shortening or clearing some answers lets it be submitted',
    );
  }
  tx.update(ref, fields);
  // The version's analytics, in the same transaction: counted exactly once, with the submit.
  // Its facts are read off the submitted attempt exactly as the repair reads them (factsOf).
  recordSubmission(tx, { clientId: attempt.client_id, testId: attempt.test_id, version: attempt.version }, version.questions, factsOf({ ...attempt, ...fields }));
  // The slot's attempt in progress is this one (a new start waits for it to close): free it.
  if (freeSlot) tx.set(paths.attemptSlot(attempt.client_id, attempt.test_id, attempt.student_id), { in_progress: null }, { merge: true });
  addAudit(tx, meta, {
    type: 'attempt_submitted',
    userId: attempt.student_id,
    clientId: attempt.client_id,
    actorId,
    details: { attempt_id: attempt.id, test_id: attempt.test_id, guest: attempt.guest, automatic, score: fields.score, total_marks: fields.total_marks },
  });
  return { ...attempt, ...fields };
}

/** Closes an attempt past its deadline, if it still is; answers it as it stands either way. */
export async function closeIfOverdue(attemptId: string, nowMs: number, meta: AuditMeta): Promise<StoredAttempt> {
  return db.runTransaction(async (tx) => {
    const found = await findAttemptInTransaction(tx, attemptId);
    if (!isOverdue(found.attempt, nowMs)) return found.attempt;
    return closeInTransaction(tx, found, nowMs, true, meta, null);
  });
}

async function closeRefIfOverdue(ref: DocumentReference, nowMs: number): Promise<boolean> {
  return db.runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (!snap.exists) return false;
    const attempt = snap.data() as StoredAttempt;
    if (!isOverdue(attempt, nowMs)) return false;
    await closeInTransaction(tx, { ref, attempt }, nowMs, true, SCHEDULER_META, null);
    return true;
  });
}

export interface OverdueBatch {
  found: number;
  closed: number;
  /** Closes that failed: logged with the attempt's path, left in progress for the next run. */
  failed: number;
  /** The batch's last attempt: the next batch starts after it, so attempts that failed are not found again in this run. */
  last: DocumentSnapshot | undefined;
}

/**
 * Up to `maxCount` attempts in progress whose deadline (expires_at + grace) has
 * passed, oldest first (after `after`, when given), each closed in its own
 * transaction (ten at a time). A close that fails belongs to its attempt
 * (too large, its version missing): logged, skipped, retried on the next run,
 * so one attempt never stops the others. A backend fault (Firestore
 * unavailable) would fail every close alike: no further close starts, and it
 * is thrown once those under way are done.
 */
export async function closeOverdue(nowMs: number, maxCount: number, after?: DocumentSnapshot): Promise<OverdueBatch> {
  const before = new Date(nowMs - GRACE_MS).toISOString();
  let query = paths
    .allAttempts()
    .where('status', '==', 'in_progress')
    .where('expires_at', '<', before)
    .orderBy('expires_at', 'asc');
  if (after) query = query.startAfter(after);
  // expires_at is the one field read: the cursor of the next batch.
  const snap = await query.limit(maxCount).select('expires_at').get();
  const refs = snap.docs.map((d) => d.ref);
  let closed = 0;
  let failed = 0;
  let fault: unknown;
  let next = 0;
  const worker = async () => {
    while (next < refs.length && fault === undefined) {
      const ref = refs[next++];
      try {
        if (await closeRefIfOverdue(ref, nowMs)) closed++;
      } catch (err) {
        failed++;
        log.error('Closing an overdue attempt failed; it stays in progress and is retried on the next run', { path: ref.path, error: errorText(err) });
        if (isBackendFault(err)) fault ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(10, refs.length) }, worker));
  if (fault !== undefined) throw fault;
  return { found: refs.length, closed, failed, last: snap.docs[snap.docs.length - 1] };
}

// ---------------------------------------------------------------- starting

export interface StartPlan {
  clientId: string;
  testId: string;
  studentId: string;
  /** Set for a Guest: the code it redeems (its seats are taken here). */
  guest: { target: ShareCodeTarget; name: string | null } | null;
  /** An administrator starts for a student: the student's profile is read and must be a student's. */
  checkStudentProfile: boolean;
  startedBy: string;
  meta: AuditMeta;
  /** Checks started beside the transaction (the organization's status): awaited before anything is written. */
  gate?: () => Promise<void>;
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
  const { capacity, used } = seat.data() as { capacity: number | null; used: number };
  return capacity === null || used < capacity;
};

/** A seat with room: the shard drawn at random, else the others (read together, only when it is full). Reads only. */
async function findSeat(tx: Transaction, target: ShareCodeTarget, drawn: number, drawnSnap: DocumentSnapshot): Promise<DocumentSnapshot> {
  let seat: DocumentSnapshot | undefined = hasRoom(drawnSnap) ? drawnSnap : undefined;
  if (!seat) {
    const others = Array.from({ length: target.seat_shards }, (_, k) => k).filter((k) => k !== drawn);
    const snaps = others.length > 0 ? await tx.getAll(...others.map((k) => paths.shareCodeSeat(target.code, k))) : [];
    seat = snaps.find(hasRoom);
  }
  if (!seat) throw refusedShareCode('CONFLICT', 'This share code has been used as many times as it allows');
  return seat;
}

function checkShareCode(snap: DocumentSnapshot, nowMs: number): void {
  const code = snap.data() as StoredShareCode | undefined;
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
  const profileRef = plan.checkStudentProfile ? paths.clientUser(plan.clientId, plan.studentId) : undefined;
  const drawn = plan.guest ? randomInt(Math.max(1, plan.guest.target.seat_shards)) : 0;
  const shareRefs = plan.guest ? [paths.shareCode(plan.guest.target.code), paths.shareCodeSeat(plan.guest.target.code, drawn)] : [];
  return db.runTransaction(async (tx) => {
    const refs = [testRef, slotRef, ...(profileRef ? [profileRef] : []), ...shareRefs];
    const snaps = await tx.getAll(...refs);
    await plan.gate?.();
    const [testSnap, slotSnap] = snaps;
    const nowMs = Date.now();
    if (plan.guest) checkShareCode(snaps[refs.length - 2], nowMs);
    if (!testSnap.exists) throw new TestMissing('NOT_FOUND', 'Test not found');
    const test = testSnap.data() as StoredTest;
    if (test.status !== 'published' || test.version === null) throw conflict(`Attempts are taken on published tests only; this test is ${test.status}`);
    if (profileRef) {
      const profile = snaps[2];
      if (!profile.exists) throw notFound('No such student in this organization');
      if (profile.get('role') !== 'student') throw badRequest('student_id must name a student', [{ path: 'body.student_id', message: 'Not a student' }]);
    }
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
        tx.update(attemptRef, { token_hash: hashAttemptToken(token) });
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
          version: await requireVersion(plan.clientId, plan.testId, running.version),
        };
      }
    }
    // Left open past its deadline: it closes first (below), with the answers saved in time.
    const overdueSnap = running ? await tx.get(paths.clientAttempt(plan.clientId, running.attempt_id)) : undefined;
    const overdue = overdueSnap?.exists && overdueSnap.get('status') === 'in_progress' ? (overdueSnap.data() as StoredAttempt) : undefined;

    const version = await requireVersion(plan.clientId, plan.testId, test.version);
    const maxAttempts = version.test.max_attempts;
    if (maxAttempts !== null && maxAttempts !== undefined && slot.count >= maxAttempts) {
      throw conflict(`All ${maxAttempts} attempts allowed on this test have been used`);
    }
    // Every read comes before the first write (a Firestore transaction's rule).
    const seat = plan.guest ? await findSeat(tx, plan.guest.target, drawn, snaps[refs.length - 1]) : undefined;
    // (The slot is rewritten below, so the close leaves it alone.)
    if (overdue) await closeInTransaction(tx, { ref: overdueSnap!.ref, attempt: overdue }, nowMs, true, plan.meta, null, false);
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
      expires_at: expiresAt(nowMs, version.test.timer ?? 0),
      submitted_at: null,
      auto_submitted: false,
      answers: {},
      question_order: questionOrder(attemptId, version),
      token_hash: hashAttemptToken(token),
      score: null,
      total_marks: version.total_marks,
      results: null,
    };
    tx.create(paths.clientAttempt(plan.clientId, attemptId), attempt);
    const nextSlot: AttemptSlot = {
      ...slot,
      count: slot.count + 1,
      in_progress: { attempt_id: attemptId, version: version.version, started_at: startedAt, expires_at: attempt.expires_at },
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
    return { resumed: false, attemptId, startedAt, expiresAt: attempt.expires_at, token, version };
  });
}

// ---------------------------------------------------------------- answering and submitting

export type SaveOutcome = { saved: true; savedAt: string } | { saved: false; attempt: StoredAttempt };

/**
 * Saves one answer in a transaction on the attempt: the answer lands only while
 * the attempt is in progress and before its deadline, under its own field path
 * (answers.<questionId>), so answers to other questions saved at the same time
 * are kept. An overdue attempt is closed instead ({saved: false}).
 */
export async function saveAnswer(
  attemptId: string,
  authorize: (attempt: StoredAttempt) => void | Promise<void>,
  answer: { question_id: string; student_answer: string },
  meta: AuditMeta,
): Promise<SaveOutcome> {
  return db.runTransaction(async (tx) => {
    const found = await findAttemptInTransaction(tx, attemptId);
    await authorize(found.attempt);
    if (found.attempt.status !== 'in_progress') throw conflict('This attempt has been submitted; no more answers are taken');
    const nowMs = Date.now();
    if (isOverdue(found.attempt, nowMs)) return { saved: false, attempt: await closeInTransaction(tx, found, nowMs, true, meta, null) };
    const stopped = stopMessage(found.attempt);
    if (stopped) throw conflict(stopped);
    if (!found.attempt.question_order.includes(answer.question_id)) {
      throw badRequest('This question is not part of the attempt', [{ path: 'body.question_id', message: 'Not a question of this attempt' }]);
    }
    const savedAt = new Date(nowMs).toISOString();
    const saved = { answer: answer.student_answer, saved_at: savedAt };
    // Measured on the attempt this transaction read: no extra round trip.
    if (answerOverBudget(found.ref.path, found.attempt, answer.question_id, saved)) {
      throw new ApiError('PAYLOAD_TOO_LARGE', `This answer would take the attempt past its ${ATTEMPT_BUDGET_BYTES} bytes of storage; shorten it or other answers`, [
        { path: 'body.student_answer', message: 'Too large for what is left of the attempt’s storage' },
      ]);
    }
    tx.update(found.ref, new FieldPath('answers', answer.question_id), saved);
    return { saved: true, savedAt };
  });
}

/** Scores and submits, exactly once: a second submit (or one that lost the race) finds it submitted → 409. */
export async function submitAttempt(
  attemptId: string,
  authorize: (attempt: StoredAttempt) => void | Promise<void>,
  actorId: string | null,
  meta: AuditMeta,
): Promise<StoredAttempt> {
  return db.runTransaction(async (tx) => {
    const found = await findAttemptInTransaction(tx, attemptId);
    await authorize(found.attempt);
    if (found.attempt.status !== 'in_progress') throw conflict('This attempt has already been submitted');
    const nowMs = Date.now();
    // Submitting after the deadline is the automatic close, with the answers saved in time.
    return closeInTransaction(tx, found, nowMs, isOverdue(found.attempt, nowMs), meta, actorId);
  });
}

// ---------------------------------------------------------------- listing

export type ListTarget = { scope: 'tenant'; clientId: string } | { scope: 'guest' };

export async function listAttempts(
  target: ListTarget,
  filters: { test_id?: string; student_id?: string; status?: AttemptStatus },
  page: PageRequest,
): Promise<{ data: StoredAttempt[]; pagination: Awaited<ReturnType<typeof fetchPage>>['pagination'] }> {
  // A Guest's attempts may sit in several organizations: a collection-group query, always on its own student_id.
  const collection = target.scope === 'tenant' ? paths.clientAttempts(target.clientId) : (paths.allAttempts() as unknown as CollectionReference);
  const { docs, pagination } = await fetchPage(collection, attemptQuerySpec(filters), page);
  return { data: docs as StoredAttempt[], pagination };
}

/** Whether a test with this id exists in another organization than `clientId` (403 rather than 404). */
export async function testExistsElsewhere(testId: string): Promise<StoredTest | undefined> {
  const snap = await paths.allTests().where('id', '==', testId).limit(1).get();
  return snap.empty ? undefined : (snap.docs[0].data() as StoredTest);
}
