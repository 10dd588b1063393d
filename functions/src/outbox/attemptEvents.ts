import type { EventType } from './events';

// Pure: which event a score written to an attempt makes.

/** What an event needs of an attempt (attempts/documents.ts StoredAttempt has it): outbox reaches into no feature. */
export interface ScoredAttempt {
  id: string;
  client_id: string;
  test_id: string;
  status: string;
  grading?: 'pending' | 'complete' | null;
  revision?: number;
}

/** A submit makes `attempt.submitted`; the grade that completes its essays `attempt.graded`; a grade that leaves some waiting, none. */
export function eventOfScoreChange(before: ScoredAttempt, after: ScoredAttempt): EventType | null {
  if (before.status !== 'submitted' && after.status === 'submitted') return 'attempt.submitted';
  if (before.grading === 'pending' && after.grading !== 'pending') return 'attempt.graded';
  return null;
}
