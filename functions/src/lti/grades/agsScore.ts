import type { StoredAttempt } from '../../attempts';

// Pure: the score an LTI platform's line item receives for an attempt (LTI
// Assignment and Grade Services 2.0, the score publish service), and where it goes.

export const AGS_SCORE_SCOPE = 'https://purl.imsglobal.org/spec/lti-ags/scope/score';
export const AGS_SCORE_MEDIA_TYPE = 'application/vnd.ims.lis.v1.score+json';

/** The score JSON the line item's `/scores` endpoint takes. */
export interface AgsScore {
  userId: string;
  scoreGiven?: number;
  scoreMaximum?: number;
  timestamp: string;
  activityProgress: 'Completed';
  gradingProgress: 'FullyGraded' | 'PendingManual';
}

/** Which attempts a score is posted for: submitted ones (an attempt in progress has no score to give). */
export const hasScore = (attempt: StoredAttempt): boolean => attempt.status !== 'in_progress' && attempt.score !== null;

/**
 * The attempt's score as it stands, for the platform user `userSub`, stamped with the event's
 * time (a platform keeps the newest by timestamp, so a late try of an older event cannot undo
 * a newer score). While essays wait: the marks given so far, `PendingManual`; then the final score.
 */
export function agsScore(attempt: StoredAttempt, userSub: string, timestamp: string): AgsScore {
  const pending = attempt.grading === 'pending';
  const score: AgsScore = {
    userId: userSub,
    timestamp,
    activityProgress: 'Completed',
    gradingProgress: pending ? 'PendingManual' : 'FullyGraded',
  };
  // A platform refuses a scoreMaximum that is not positive: a test worth nothing posts only its progress.
  if (attempt.total_marks > 0) {
    score.scoreGiven = pending ? (attempt.score ?? 0) : (attempt.final_score ?? attempt.score ?? 0);
    score.scoreMaximum = attempt.total_marks;
  }
  return score;
}

/** The line item's scores endpoint: `/scores` appended to its path, before any query string (AGS §3.4). */
export function scoresUrl(lineitem: string): string {
  const url = new URL(lineitem);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/scores`;
  return url.toString();
}
