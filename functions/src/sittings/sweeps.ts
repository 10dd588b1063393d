import {
  FieldPath,
  FieldValue,
  type DocumentReference,
  type DocumentSnapshot,
  type Timestamp,
  type Transaction,
} from 'firebase-admin/firestore';
import { randomUUID } from 'node:crypto';
import type { StoredTest } from '../exams';
import { db, paths, retryOnContention } from '../firestore';
import { errorText, isBackendFault, log } from '../platform';
import { activeEquals, conflict } from '../shared';
import {
  type Accommodation,
  classOverridesFor,
  effectiveOverride,
  expiresAtMs,
  extensionMinutes,
  type OverrideValues,
} from '../sittingRules';
import type { StoredAccommodation, StoredOverride, StoredSweep, SweepReason } from './documents';
import { MAX_EXTENSIONS_PER_ATTEMPT } from './schemas';
import { extensionReach } from './extensionReach';
import {
  type AttemptSlot,
  closeInTransaction,
  type FoundAttempt,
  isOverdue,
  oneAttemptAtATime,
  openAttemptsOfSpec,
  PENDING_SWEEPS_QUERY,
  requireAttemptInTransaction,
  requireVersion,
  type StoredAttempt,
} from '../attempts';
import { addAudit, type AuditMeta } from '../audit';

// An attempt's deadline follows the settings in force while it runs: a moved
// closes_at, an override, an accommodation, an extension. Each attempt is
// brought in line in a transaction on itself that reads those settings, so
// saves and submits landing at the same moment are serialized with it, and
// applying a change twice (a sweep resumed after a crash) changes nothing.
// Save and submit read no deadline source: the attempt's expires_at is already the deadline.

/** The settings an attempt's deadline depends on, as one transaction read them. */
export interface DeadlineSources {
  closesAt: string | null;
  /** The student's own override on the test. */
  override: OverrideValues | undefined;
  /** The test's class overrides: those of the classes the attempt started in (its class_ids) apply where the student's own does not. */
  classOverrides: Record<string, OverrideValues> | undefined;
  accommodation: Accommodation | undefined;
  slot: AttemptSlot | undefined;
}

/** Where those settings live for (test, student): the test, the override, the accommodation, the slot. */
export const sourceRefs = (clientId: string, testId: string, studentId: string): DocumentReference[] => [
  paths.clientTest(clientId, testId),
  paths.testOverride(clientId, testId, studentId),
  paths.accommodation(clientId, studentId),
  paths.attemptSlot(clientId, testId, studentId),
];

export function sourcesFrom([test, override, accommodation, slot]: DocumentSnapshot[]): DeadlineSources {
  const stored = test.data() as StoredTest | undefined;
  return {
    closesAt: stored?.closes_at ?? null,
    classOverrides: stored?.class_overrides,
    override: override.exists ? (override.data() as StoredOverride) : undefined,
    accommodation: accommodation.exists ? (accommodation.data() as StoredAccommodation) : undefined,
    slot: slot.exists ? (slot.data() as AttemptSlot) : undefined,
  };
}

export interface DeadlineChange {
  outcome: 'not_in_progress' | 'unchanged' | 'changed' | 'closed';
  /** Whether the extension asked for was added by this call (false: none asked, already there, or the attempt closed). */
  extended: boolean;
  attempt: StoredAttempt;
}

export interface ApplyOptions {
  nowMs: number;
  meta: AuditMeta;
  /** Extra minutes under an id: added once, whatever how many times this runs. */
  extension?: { id: string; minutes: number };
}

/**
 * Brings `found`'s expires_at in line with `sources` (and the extension), in
 * `tx`. An attempt past its old deadline is closed as any meeting would close
 * it. One whose new deadline has already passed is cut short now: closed with
 * every answer saved so far, none of which was taken after its deadline at the
 * time (its expires_at becomes now). Writes nothing when nothing moved.
 */
export async function applyDeadline(
  tx: Transaction,
  found: FoundAttempt,
  sources: DeadlineSources,
  options: ApplyOptions,
): Promise<DeadlineChange> {
  const { attempt, ref } = found;
  const { nowMs, meta, extension } = options;
  if (attempt.status !== 'in_progress') return { outcome: 'not_in_progress', extended: false, attempt };
  if (isOverdue(attempt, nowMs)) {
    return {
      outcome: 'closed',
      extended: false,
      attempt: await closeInTransaction(tx, found, { nowMs, automatic: true, meta, actorId: null }),
    };
  }
  const version = await requireVersion(attempt.client_id, attempt.test_id, attempt.version);
  let extensions = attempt.extensions ?? {};
  const extending = extension !== undefined && extensions[extension.id] === undefined;
  if (extending) {
    if (Object.keys(extensions).length >= MAX_EXTENSIONS_PER_ATTEMPT)
      throw conflict(`An attempt takes at most ${MAX_EXTENSIONS_PER_ATTEMPT} extensions`);
    extensions = { ...extensions, [extension.id]: extension.minutes };
  }
  const next = expiresAtMs({
    startedAtMs: Date.parse(attempt.started_at),
    versionTimer: version.test.timer ?? 0,
    testClosesAt: sources.closesAt,
    // The classes as they were at the attempt's start: a student moved between classes keeps its sitting's terms.
    override: effectiveOverride(sources.override, classOverridesFor(sources.classOverrides, attempt.class_ids)),
    accommodation: sources.accommodation,
    extensionMinutes: extensionMinutes(extensions),
  });
  const expiresAt = new Date(next).toISOString();
  if (expiresAt === attempt.expires_at && !extending) return { outcome: 'unchanged', extended: false, attempt };
  if (next <= nowMs) {
    const now = new Date(nowMs).toISOString();
    const cut: FoundAttempt = { ref, attempt: { ...attempt, expires_at: now, extensions } };
    const closed = await closeInTransaction(tx, cut, {
      nowMs,
      automatic: true,
      meta,
      actorId: null,
      changed: { expires_at: now, extensions },
    });
    return { outcome: 'closed', extended: false, attempt: closed };
  }
  tx.update(ref, { expires_at: expiresAt, extensions });
  // The slot keeps its attempt's deadline for a start's resume-or-close decision.
  if (sources.slot?.in_progress?.attempt_id === attempt.id) {
    tx.update(
      paths.attemptSlot(attempt.client_id, attempt.test_id, attempt.student_id),
      new FieldPath('in_progress', 'expires_at'),
      expiresAt,
    );
  }
  return { outcome: 'changed', extended: extending, attempt: { ...attempt, expires_at: expiresAt, extensions } };
}

// ---------------------------------------------------------------- one attempt

/** Extra minutes for one attempt in progress (an administrator's), with its audit record; 409 once it is submitted or closed. */
export async function extendAttempt(
  attemptId: string,
  authorize: (attempt: StoredAttempt) => void,
  minutes: number,
  actorId: string,
  meta: AuditMeta,
): Promise<DeadlineChange> {
  const extensionId = randomUUID();
  return oneAttemptAtATime(attemptId, () =>
    db.runTransaction(async (tx) => {
      const found = await requireAttemptInTransaction(tx, attemptId);
      authorize(found.attempt);
      if (found.attempt.status !== 'in_progress')
        throw conflict('This attempt has been submitted; there is no time left to extend');
      const { client_id: clientId, test_id: testId, student_id: studentId } = found.attempt;
      const sources = sourcesFrom(await tx.getAll(...sourceRefs(clientId, testId, studentId)));
      const nowMs = Date.now();
      const change = await applyDeadline(tx, found, sources, { nowMs, meta, extension: { id: extensionId, minutes } });
      // Closed (its deadline had passed): committed as is; the caller answers that the extension came too late.
      if (change.outcome === 'closed') return change;
      addAudit(tx, meta, {
        type: 'attempt_extended',
        userId: studentId,
        clientId,
        actorId,
        details: { attempt_id: attemptId, test_id: testId, minutes, expires_at: change.attempt.expires_at },
      });
      return change;
    }),
  );
}

// ---------------------------------------------------------------- sweeps

const PAGE = 300;
const WORKERS = 20;
/** A pending sweep untouched this long is taken to have lost its runner: the scheduled closer resumes it. */
export const STALE_SWEEP_MS = 2 * 60_000;
const SWEEP_KEPT_MS = 30 * 24 * 60 * 60_000;

export interface SweepTarget {
  clientId: string;
  testId?: string;
  studentId?: string;
  /** A sitting-wide extension: these minutes for every attempt in progress created before the sweep. */
  extensionMinutes?: number;
  /** A class's extension: only the attempts that started in this class. */
  classId?: string;
  reason: SweepReason;
  by: string;
  meta: AuditMeta;
}

/** Records, in the change's own transaction, that the attempts it concerns must be brought in line. Answers the sweep's id. */
export function recordSweep(tx: Transaction, target: SweepTarget, now: string): string {
  const ref = paths.deadlineSweeps().doc();
  const sweep: StoredSweep & { meta: AuditMeta } = {
    client_id: target.clientId,
    test_id: target.testId ?? null,
    student_id: target.studentId ?? null,
    extension_minutes: target.extensionMinutes ?? null,
    ...(target.classId !== undefined ? { class_id: target.classId } : {}),
    reason: target.reason,
    by: target.by,
    pending: true,
    cursor: null,
    created_at: now,
    updated_at: now,
    changed: 0,
    closed: 0,
    expires_at: null,
    meta: target.meta,
  };
  tx.create(ref, sweep);
  return ref.id;
}

export interface SweepResult {
  /** Attempts whose deadline moved (for an extension: that received it). */
  changed: number;
  closed: number;
}

type Outcome = DeadlineChange['outcome'] | 'not_concerned';

// A sweep meets attempts being answered as it goes: a transaction that lost to their saves is run
// again (after a growing pause) rather than failing the whole change, which then waits for the closer.
const CONTENTION_RETRIES = 4;

const sweepOne = (
  doc: DocumentSnapshot,
  sweepId: string,
  sweep: StoredSweep & { meta: AuditMeta },
  sweepCreated: Timestamp,
): Promise<{ outcome: Outcome; extended: boolean }> =>
  retryOnContention(() => oneAttemptAtATime(doc.id, () => sweepOneOnce(doc, sweepId, sweep, sweepCreated)), {
    retries: CONTENTION_RETRIES,
  });

/** One attempt of a sweep, in its own transaction (one read round trip: the attempt and its settings together). */
async function sweepOneOnce(
  doc: DocumentSnapshot,
  sweepId: string,
  sweep: StoredSweep & { meta: AuditMeta },
  sweepCreated: Timestamp,
): Promise<{ outcome: Outcome; extended: boolean }> {
  const testId = doc.get('test_id') as string;
  const studentId = doc.get('student_id') as string;
  return db.runTransaction(async (tx) => {
    const [attemptSnap, ...sourceSnaps] = await tx.getAll(doc.ref, ...sourceRefs(sweep.client_id, testId, studentId));
    if (!attemptSnap.exists) return { outcome: 'not_in_progress', extended: false };
    const found: FoundAttempt = { ref: doc.ref, attempt: attemptSnap.data() as StoredAttempt };
    let extension: ApplyOptions['extension'];
    if (sweep.extension_minutes !== null) {
      const held = found.attempt.extensions ?? {};
      const reach = extensionReach({
        attemptCreatedMs: attemptSnap.createTime!.toMillis(),
        sweepCreatedMs: sweepCreated.toMillis(),
        classId: sweep.class_id ?? null,
        attemptClassIds: found.attempt.class_ids,
        holdsIt: held[sweepId] !== undefined,
        held: Object.keys(held).length,
        max: MAX_EXTENSIONS_PER_ATTEMPT,
      });
      if (reach === 'at_bound')
        log.warn('An attempt at its bound of extensions did not receive a sitting-wide one', {
          path: doc.ref.path,
          sweep: sweepId,
        });
      if (reach !== 'extend') return { outcome: 'not_concerned', extended: false };
      extension = { id: sweepId, minutes: sweep.extension_minutes };
    }
    const change = await applyDeadline(tx, found, sourcesFrom(sourceSnaps), {
      nowMs: Date.now(),
      meta: sweep.meta,
      extension,
    });
    if (change.extended) {
      addAudit(tx, sweep.meta, {
        type: 'attempt_extended',
        userId: studentId,
        clientId: sweep.client_id,
        actorId: sweep.by,
        details: {
          attempt_id: doc.id,
          test_id: testId,
          minutes: sweep.extension_minutes,
          expires_at: change.attempt.expires_at,
          sweep_id: sweepId,
          ...(sweep.class_id ? { class_id: sweep.class_id } : {}),
        },
      });
    }
    return { outcome: change.outcome, extended: change.extended };
  });
}

/**
 * Carries a recorded change to every attempt in progress it concerns, in pages
 * of PAGE (by document id, from the sweep's cursor), WORKERS transactions at a
 * time. Reads and writes only the attempts concerned, through the index on
 * attempts in progress. A close that fails for its own attempt is logged and
 * the sweep stays pending (the closer retries it whole: every step is
 * idempotent); a backend fault stops it and is thrown.
 */
export async function runSweep(sweepId: string): Promise<SweepResult> {
  const ref = paths.deadlineSweep(sweepId);
  const snap = await ref.get();
  if (!snap.exists) return { changed: 0, closed: 0 };
  const sweep = snap.data() as StoredSweep & { meta: AuditMeta };
  if (!sweep.pending) return { changed: sweep.changed, closed: sweep.closed };
  let query = paths.clientAttempts(sweep.client_id).select('test_id', 'student_id');
  const of = {
    ...(sweep.test_id !== null ? { test_id: sweep.test_id } : {}),
    ...(sweep.student_id !== null ? { student_id: sweep.student_id } : {}),
  };
  for (const [field, value] of activeEquals(openAttemptsOfSpec(of))) query = query.where(field, '==', value);
  query = query.orderBy(FieldPath.documentId()).limit(PAGE);

  const result: SweepResult = { changed: 0, closed: 0 };
  let cursor = sweep.cursor;
  let failed = 0;
  for (;;) {
    const page = await (cursor !== null ? query.startAfter(cursor) : query).get();
    const counted = { changed: 0, closed: 0 };
    let fault: unknown;
    let next = 0;
    const worker = async () => {
      while (next < page.docs.length && fault === undefined) {
        const doc = page.docs[next++];
        try {
          const { outcome, extended } = await sweepOne(doc, sweepId, sweep, snap.createTime!);
          if (outcome === 'closed') counted.closed++;
          else if (sweep.extension_minutes !== null ? extended : outcome === 'changed') counted.changed++;
        } catch (err) {
          if (isBackendFault(err)) fault ??= err;
          else {
            failed++;
            log.error('Bringing an attempt to its new deadline failed; its sweep stays pending and is retried', {
              path: doc.ref.path,
              sweep: sweepId,
              error: errorText(err),
            });
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(WORKERS, page.docs.length) }, worker));
    result.changed += counted.changed;
    result.closed += counted.closed;
    const last = page.docs[page.docs.length - 1];
    const done = page.size < PAGE && fault === undefined;
    const now = new Date();
    await ref.update({
      // A fault stops the workers part way through the page: keep the cursor before it, so a resumed
      // sweep goes over the whole page again (every step is idempotent) and misses none of it.
      cursor: fault !== undefined ? cursor : done && failed > 0 ? null : (last?.id ?? cursor),
      changed: FieldValue.increment(counted.changed),
      closed: FieldValue.increment(counted.closed),
      updated_at: now.toISOString(),
      ...(done && failed === 0 ? { pending: false, expires_at: new Date(now.getTime() + SWEEP_KEPT_MS) } : {}),
    });
    if (fault !== undefined) throw fault;
    if (done) return result;
    cursor = last.id;
  }
}

/** Sweeps left pending by a runner that stopped (a crash, an outage): resumed by the scheduled closer. Answers how many it finished. */
export async function resumeStaleSweeps(nowMs: number, max = 50): Promise<number> {
  let query = paths.deadlineSweeps().limit(max);
  for (const [field, value] of activeEquals(PENDING_SWEEPS_QUERY)) query = query.where(field, '==', value);
  const snap = await query.get();
  const stale = snap.docs.filter((doc) => Date.parse(doc.get('updated_at') as string) < nowMs - STALE_SWEEP_MS);
  let finished = 0;
  for (const doc of stale) {
    try {
      await runSweep(doc.id);
      finished++;
    } catch (err) {
      log.error('Resuming a deadline sweep failed; the next run tries again', { sweep: doc.id, error: errorText(err) });
    }
  }
  return finished;
}
