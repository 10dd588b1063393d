import type { StoredAttempt } from '../attempts/documents';
import type { EventType } from './documents';

// Pure: which event a score written to an attempt makes.

/** A submit makes `attempt.submitted`; the grade that completes its essays `attempt.graded`; a grade that leaves some waiting, none. */
export function eventOfScoreChange(before: StoredAttempt, after: StoredAttempt): EventType | null {
  if (before.status !== 'submitted' && after.status === 'submitted') return 'attempt.submitted';
  if (before.grading === 'pending' && after.grading !== 'pending') return 'attempt.graded';
  return null;
}
