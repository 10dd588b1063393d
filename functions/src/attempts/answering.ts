import { FieldPath } from 'firebase-admin/firestore';
import { db } from '../firestore/db';
import { ApiError, badRequest, conflict } from '../shared/errors';
import { requireAttemptInTransaction } from './attemptLookup';
import type { AuditMeta } from './auditTrail';
import { closeInTransaction } from './closing';
import { answerOverBudget, ATTEMPT_BUDGET_BYTES, isOverdue, stopMessage } from './rules';
import type { StoredAttempt } from './documents';

// Saving answers and submitting, each a transaction on the attempt itself: an
// answer racing the submit is either in the score or refused, and a submit
// scores once.

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
    const found = await requireAttemptInTransaction(tx, attemptId);
    await authorize(found.attempt);
    if (found.attempt.status !== 'in_progress') throw conflict('This attempt has been submitted; no more answers are taken');
    const nowMs = Date.now();
    if (isOverdue(found.attempt, nowMs)) return { saved: false, attempt: await closeInTransaction(tx, found, { nowMs, automatic: true, meta, actorId: null }) };
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
  actor: { id: string | null; submitter: (attempt: StoredAttempt) => 'taker' | 'admin' },
  meta: AuditMeta,
): Promise<StoredAttempt> {
  return db.runTransaction(async (tx) => {
    const found = await requireAttemptInTransaction(tx, attemptId);
    await authorize(found.attempt);
    if (found.attempt.status !== 'in_progress') throw conflict('This attempt has already been submitted');
    const nowMs = Date.now();
    // Submitting after the deadline is the automatic close, with the answers saved in time.
    return closeInTransaction(tx, found, {
      nowMs,
      automatic: isOverdue(found.attempt, nowMs),
      meta,
      actorId: actor.id,
      submitter: actor.submitter(found.attempt),
    });
  });
}
