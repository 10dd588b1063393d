import type { DocumentReference, DocumentSnapshot, Query, Transaction } from 'firebase-admin/firestore';
import { db, paths } from '../firestore';
import { errorText, isBackendFault, log } from '../platform';
import { conflict } from '../shared';
import { OVERDUE_QUERY } from './attemptQuery';
import { requireAttemptInTransaction, type FoundAttempt } from './attemptLookup';
import { oneAttemptAtATime } from './attemptGate';
import { addAudit, type AuditMeta, SCHEDULER_META } from '../audit';
import { requirePaper } from './frozenReads';
import { fitsInOneDocument, GRACE_MS, gradingItems, isOverdue, submission } from './rules';
import type { StoredAttempt } from './documents';
import { submissionEffects } from './submissionEffects';

// Closing an attempt: scored once, in a transaction on the attempt itself, by
// its submit, by the first read or save past its deadline, by a start over it,
// or by the scheduled closer.

export interface CloseOptions {
  nowMs: number;
  /** Closed past its deadline (dated at its expiry, answers saved in time), rather than submitted in time. */
  automatic: boolean;
  meta: AuditMeta;
  /** Who submitted, for the audit record: null for the service (or a token from before its issuer was kept). */
  actorId: string | null;
  /** The submitter's role, recorded in the audit record's details as actor_role when known. */
  actorRole?: string | null;
  /** Who closed it in time (`submitted_by`): its taker, or an administrator of its organization. Ignored when automatic ('deadline'). */
  submitter?: 'taker' | 'admin';
  /** Free the (test, student) slot: false when the caller rewrites the slot itself (a start). Default true. */
  freeSlot?: boolean;
  /** Fields of `found.attempt` changed by the caller before closing it, written with the submission (one write per document). */
  changed?: Partial<StoredAttempt>;
}

/** Submits `attempt` in `tx` (scored, slot freed, audited) and answers the attempt as it now stands. */
export async function closeInTransaction(
  tx: Transaction,
  found: FoundAttempt,
  {
    nowMs,
    automatic,
    meta,
    actorId,
    actorRole = null,
    submitter = 'taker',
    freeSlot = true,
    changed = {},
  }: CloseOptions,
): Promise<StoredAttempt> {
  const { ref, attempt } = found;
  const version = await requirePaper(attempt);
  const fields = { ...changed, ...submission(attempt, version, { nowMs, automatic, submitter }) };
  // Measured before writing: Firestore would refuse the whole commit (stored before the budget, or written by hand).
  if (!fitsInOneDocument(ref.path, { ...attempt, ...fields })) {
    throw conflict(
      'This attempt’s saved answers are too large to be scored in one document; while it is in progress, shortening or clearing some answers lets it be submitted',
    );
  }
  const submitted: StoredAttempt = { ...attempt, ...fields };
  // Looked up before the first write: a missing hook fails the close with nothing written.
  const effects = submissionEffects();
  tx.update(ref, fields);
  // The version's analytics, in the same transaction: counted exactly once, with the submit.
  effects.recordScoreChange(tx, { before: attempt, after: submitted, paper: version });
  // Each answered essay waits in the test's grading queue until a grade takes it out.
  for (const item of gradingItems(submitted, version))
    tx.set(paths.gradingQueueItem(attempt.client_id, attempt.test_id, item.attempt_id, item.question_id), item);
  // The slot's attempt in progress is this one (a new start waits for it to close): free it, and start the cooldown.
  if (freeSlot) {
    tx.set(
      paths.attemptSlot(attempt.client_id, attempt.test_id, attempt.student_id),
      { in_progress: null, last_submitted_at: fields.submitted_at },
      { merge: true },
    );
  }
  addAudit(tx, meta, {
    type: 'attempt_submitted',
    userId: attempt.student_id,
    clientId: attempt.client_id,
    actorId,
    details: {
      attempt_id: attempt.id,
      test_id: attempt.test_id,
      guest: attempt.guest,
      automatic,
      submitted_by: fields.submitted_by,
      ...(actorRole ? { actor_role: actorRole } : {}),
      score: fields.score,
      total_marks: fields.total_marks,
      ...(fields.grading ? { grading: fields.grading, pending_marks: fields.pending_marks } : {}),
    },
  });
  return submitted;
}
/** Closes an attempt past its deadline, if it still is; answers it as it stands either way. */
export async function closeIfOverdue(attemptId: string, nowMs: number, meta: AuditMeta): Promise<StoredAttempt> {
  return oneAttemptAtATime(attemptId, () =>
    db.runTransaction(async (tx) => {
      const found = await requireAttemptInTransaction(tx, attemptId);
      if (!isOverdue(found.attempt, nowMs)) return found.attempt;
      return closeInTransaction(tx, found, { nowMs, automatic: true, meta, actorId: null });
    }),
  );
}

async function closeRefIfOverdue(ref: DocumentReference, nowMs: number): Promise<boolean> {
  return oneAttemptAtATime(ref.id, () =>
    db.runTransaction(async (tx) => {
      const snap = await tx.get(ref);
      if (!snap.exists) return false;
      const attempt = snap.data() as StoredAttempt;
      if (!isOverdue(attempt, nowMs)) return false;
      await closeInTransaction(tx, { ref, attempt }, { nowMs, automatic: true, meta: SCHEDULER_META, actorId: null });
      return true;
    }),
  );
}

/** OVERDUE_QUERY (the shape the index test checks) bounded by `before`: in progress, expired before it, oldest first. */
function overdueQuery(before: string): Query {
  const { equals, range, orderBy } = OVERDUE_QUERY;
  let query: Query = paths.allAttempts();
  for (const [field, value] of Object.entries(equals)) query = query.where(field, '==', value);
  query = query.where(range.field, range.op, before);
  for (const { field, direction } of orderBy) query = query.orderBy(field, direction);
  return query;
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
  let query = overdueQuery(new Date(nowMs - GRACE_MS).toISOString());
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
        log.error('Closing an overdue attempt failed; it stays in progress and is retried on the next run', {
          path: ref.path,
          error: errorText(err),
        });
        if (isBackendFault(err)) fault ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(10, refs.length) }, worker));
  if (fault !== undefined) throw fault;
  return { found: refs.length, closed, failed, last: snap.docs[snap.docs.length - 1] };
}
