import type { Transaction } from 'firebase-admin/firestore';
import type { VersionForAttempt } from './rules';
import type { StoredAttempt } from './documents';

/**
 * What submitting an attempt does beyond the attempt itself (the version's
 * analytics), handed to attempts by the composition root (app.ts) so that
 * attempts reaches for no other feature. Every close (a submit, a read or save
 * past the deadline, a start over an overdue attempt, the scheduled closer)
 * calls it inside its own transaction: counted exactly once, with the submit.
 */
export interface SubmissionEffects {
  /**
   * Writes only (no read): the transaction has done its reads. Moves the
   * version's analytics by what the attempt contributes as `after` minus what
   * it contributed as `before` (a submit, a grade, a regrade), on `paper`, the
   * attempt's questions.
   */
  recordScoreChange(
    tx: Transaction,
    change: { before: StoredAttempt; after: StoredAttempt; paper: VersionForAttempt },
  ): void;
  /** Several attempts of one version changed in one transaction: their differences added together, then written once. */
  recordScoreChanges(
    tx: Transaction,
    at: { clientId: string; testId: string; version: number },
    changes: ReadonlyArray<{ before: StoredAttempt; after: StoredAttempt; paper: VersionForAttempt }>,
  ): void;
}

let provided: SubmissionEffects | undefined;

/** Called by the composition root before anything closes an attempt; `undefined` forgets them (a test of the missing hook). */
export function provideSubmissionEffects(effects: SubmissionEffects | undefined): void {
  provided = effects;
}

/**
 * The effects provided. None is a wiring mistake, thrown inside the close's
 * transaction so nothing is written: an attempt submitted without its analytics
 * would leave the kept sums short of the recomputed ones for good.
 */
export function submissionEffects(): SubmissionEffects {
  if (!provided)
    throw new Error(
      'No SubmissionEffects provided: the composition root (provideEffects in app.ts) must run before an attempt is closed',
    );
  return provided;
}
