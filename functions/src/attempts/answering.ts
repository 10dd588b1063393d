import { FieldPath } from 'firebase-admin/firestore';
import { type ContentionRetry, db, paths, retryOnContention } from '../firestore';
import { ApiError, badRequest, conflict } from '../shared';
import { requireAttemptInTransaction } from './attemptLookup';
import { oneAttemptAtATime } from './attemptGate';
import type { AuditMeta } from '../audit';
import { closeInTransaction } from './closing';
import { judgeAnswers, type IncomingAnswer, type Judged } from './answerMerge';
import { requirePaper } from './frozenReads';
import { answerProblems, ATTEMPT_BUDGET_BYTES, firstOverBudget, isOverdue, stopMessage } from './rules';
import type { StoredAttempt } from './documents';

// Saving answers and submitting, each a transaction on the attempt itself: an
// answer racing the submit is either in the score or refused, and a submit
// scores once.

/**
 * A taker's saves and its submit contend for the one attempt document: the
 * transaction that lost is run again, within the request's budget, so neither
 * answers 503 for the taker's own traffic. Past the budget the loss is a 503
 * with Retry-After, with nothing written.
 */
export const TAKER_CONTENTION: ContentionRetry = { retries: 8, budgetMs: 20_000 };

export type SaveOutcome =
  { closed: false; savedAt: string; judged: Judged[] } | { closed: true; attempt: StoredAttempt };

/** Where a save's problems are named in an error's details: `body.question_id` for one answer, `body.answers.3.question_id` in a batch. */
export type DetailPath = (index: number, field: 'question_id' | 'student_answer') => string;

/**
 * Saves answers (one, or a batch to distinct questions) in one transaction on
 * the attempt: one read, one write, one commit. They land only while the
 * attempt is in progress and before its deadline, each under its own field
 * path (answers.<questionId>), so answers to other questions saved at the same
 * time are kept. They are taken whole or not at all: a question not in the
 * attempt (400), or the storage budget (413), refuses every one. An answer
 * whose client_seq is not above the stored one is stale: judged, not written.
 * An overdue attempt is closed instead ({closed: true}).
 */
export async function saveAnswers(
  attemptId: string,
  authorize: (attempt: StoredAttempt) => void | Promise<void>,
  answers: readonly IncomingAnswer[],
  pathOf: DetailPath,
  meta: AuditMeta,
): Promise<SaveOutcome> {
  return retryOnContention(
    () => oneAttemptAtATime(attemptId, () => saveOnce(attemptId, authorize, answers, pathOf, meta)),
    TAKER_CONTENTION,
  );
}

async function saveOnce(
  attemptId: string,
  authorize: (attempt: StoredAttempt) => void | Promise<void>,
  answers: readonly IncomingAnswer[],
  pathOf: DetailPath,
  meta: AuditMeta,
): Promise<SaveOutcome> {
  return db.runTransaction(async (tx) => {
    const found = await requireAttemptInTransaction(tx, attemptId);
    await authorize(found.attempt);
    if (found.attempt.status !== 'in_progress')
      throw conflict('This attempt has been submitted; no more answers are taken');
    const nowMs = Date.now();
    if (isOverdue(found.attempt, nowMs))
      return {
        closed: true,
        attempt: await closeInTransaction(tx, found, { nowMs, automatic: true, meta, actorId: null }),
      };
    const stopped = stopMessage(found.attempt);
    if (stopped) throw conflict(stopped);
    const inAttempt = new Set(found.attempt.question_order);
    const foreign = answers.flatMap((answer, i) =>
      inAttempt.has(answer.question_id)
        ? []
        : [{ path: pathOf(i, 'question_id'), message: 'Not a question of this attempt' }],
    );
    if (foreign.length > 0)
      throw badRequest(
        foreign.length === 1 && answers.length === 1
          ? 'This question is not part of the attempt'
          : 'Some questions are not part of the attempt; nothing was saved',
        foreign,
      );
    // The paper (cached per instance) says each question's type: an essay takes longer answers, within its max_words.
    const problems = answerProblems(await requirePaper(found.attempt), answers);
    if (problems.length > 0) {
      throw badRequest(
        problems.length === 1 && answers.length === 1
          ? problems[0].message
          : 'Some answers are too long for their questions; nothing was saved',
        problems.map((p) => ({ path: pathOf(p.index, 'student_answer'), message: p.message })),
      );
    }
    const savedAt = new Date(nowMs).toISOString();
    const judged = judgeAnswers(found.attempt.answers, answers, savedAt);
    const applied = judged.flatMap((j) => (j.applied ? [j] : []));
    // Measured on the attempt this transaction read: no extra round trip.
    const over = firstOverBudget(found.ref.path, found.attempt, applied);
    if (over >= 0) {
      const index = judged.indexOf(applied[over]);
      throw new ApiError(
        'PAYLOAD_TOO_LARGE',
        `This answer would take the attempt past its ${ATTEMPT_BUDGET_BYTES} bytes of storage; shorten it or other answers`,
        [
          {
            path: pathOf(index, 'student_answer'),
            message: 'Too large for what is left of the attempt’s storage; nothing was saved',
          },
        ],
      );
    }
    // One write for the whole batch; a batch of stale answers only writes nothing.
    if (applied.length > 0) {
      const [head, ...more] = applied;
      tx.update(
        found.ref,
        new FieldPath('answers', head.questionId),
        head.answer,
        ...more.flatMap((j) => [new FieldPath('answers', j.questionId), j.answer]),
      );
    }
    return { closed: false, savedAt, judged };
  });
}

/** Scores and submits, exactly once: a second submit (or one that lost the race) finds it submitted → 409. */
export async function submitAttempt(
  attemptId: string,
  authorize: (attempt: StoredAttempt) => void | Promise<void>,
  actorOf: (attempt: StoredAttempt) => {
    submitter: 'taker' | 'admin';
    actorId: string | null;
    actorRole: string | null;
  },
  meta: AuditMeta,
): Promise<StoredAttempt> {
  return retryOnContention(
    () =>
      oneAttemptAtATime(attemptId, () =>
        db.runTransaction(async (tx) => {
          // The attempt's integrity summary is read with it (nothing more to wait for): an events batch
          // committed before this read was received before submitted_at, taken after it; one committing
          // after it conflicts with this submit, and finds the slot it frees (integrity/store.ts).
          const found = await requireAttemptInTransaction(tx, attemptId, (clientId, id) => [
            paths.integritySummary(clientId, id),
          ]);
          await authorize(found.attempt);
          if (found.attempt.status !== 'in_progress') throw conflict('This attempt has already been submitted');
          const nowMs = Date.now();
          const { submitter, actorId, actorRole } = actorOf(found.attempt);
          // Submitting after the deadline is the automatic close, with the answers saved in time.
          return closeInTransaction(tx, found, {
            nowMs,
            automatic: isOverdue(found.attempt, nowMs),
            meta,
            actorId,
            actorRole,
            submitter,
          });
        }),
      ),
    TAKER_CONTENTION,
  );
}
