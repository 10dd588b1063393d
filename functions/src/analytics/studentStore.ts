import { AggregateField } from 'firebase-admin/firestore';
import { type StoredAttempt, versionOf } from '../attempts';
import { buildQuery, fetchPage, paths } from '../firestore';
import { isDocumentId, type PageInfo, type PageRequest } from '../shared';
import { studentAttemptsSpec, studentBestSpec, studentPendingSpec, studentRowsSpec } from './analyticsQuery';

// Firestore access for a student's analytics in one organization
// (clients/{c}/attempts where student_id = the student). Nothing here reads
// every attempt: the figures are index aggregations (count, average) and one
// one-document query, and the rows are one page. Every read is independent of
// the others, so the service runs them side by side: one round trip.

/** The student's figures in the organization, before rounding. */
export interface StudentFigures {
  /** Attempts started (in progress, pending and complete). */
  total: number;
  /** Attempts submitted with a final score (every essay graded). */
  completed: number;
  /** Attempts submitted whose essays are not all graded yet. */
  pending: number;
  /** Means over the complete attempts; null when there is none. */
  averageScore: number | null;
  averagePercentage: number | null;
  /** The highest stored percentage of a complete attempt; null when there is none. */
  bestPercentage: number | null;
}

/** Whether the organization has a user profile for `uid` (a Student or Client Admin of it). */
export async function hasProfile(clientId: string, uid: string): Promise<boolean> {
  if (!isDocumentId(uid)) return false; // a uid no document can have (a '/', say) has no profile
  return (await paths.clientUser(clientId, uid).get()).exists;
}

/**
 * Aggregation-priced queries in parallel: the count of all; the count and sums of the submitted, and
 * of those of them still waiting for an essay grade (the complete ones are the difference, so a pending
 * score is never averaged as final); the best one (a pending attempt has no percentage: it sorts last).
 * Firestore sums by scanning an index holding the summed field, so each sum has its own query and its
 * own index (studentAverageSpec, studentPendingSpec).
 */
export async function studentFigures(clientId: string, studentId: string): Promise<StudentFigures> {
  const attempts = paths.clientAttempts(clientId);
  const submitted = buildQuery(attempts, studentAttemptsSpec(studentId, 'submitted'));
  const waiting = buildQuery(attempts, { ...studentPendingSpec(studentId, 'score'), orderBy: [] });
  const [all, scores, percentages, pendingScores, pendingPercentages, best] = await Promise.all([
    buildQuery(attempts, studentAttemptsSpec(studentId)).count().get(),
    submitted.aggregate({ submitted: AggregateField.count(), sum: AggregateField.sum('score') }).get(), // studentAverageSpec(…, 'score')
    submitted.aggregate({ sum: AggregateField.sum('percentage') }).get(), // studentAverageSpec(…, 'percentage')
    waiting.aggregate({ pending: AggregateField.count(), sum: AggregateField.sum('score') }).get(), // studentPendingSpec(…, 'score')
    waiting.aggregate({ sum: AggregateField.sum('percentage') }).get(), // studentPendingSpec(…, 'percentage')
    buildQuery(attempts, studentBestSpec(studentId)).limit(1).select('percentage').get(),
  ]);
  const pendingCount = pendingScores.data().pending;
  const completed = Math.max(0, scores.data().submitted - pendingCount);
  const mean = (sum: number | null, minus: number | null) =>
    completed > 0 ? ((sum ?? 0) - (minus ?? 0)) / completed : null;
  return {
    total: all.data().count,
    completed,
    pending: pendingCount,
    averageScore: mean(scores.data().sum, pendingScores.data().sum),
    averagePercentage: mean(percentages.data().sum, pendingPercentages.data().sum),
    bestPercentage: best.empty ? null : ((best.docs[0].get('percentage') as number | null | undefined) ?? null),
  };
}

/** A submitted attempt as a row needs it, with the test's name (read from the frozen version when an older attempt lacks it). */
export type SubmittedAttempt = Pick<
  StoredAttempt,
  | 'id'
  | 'test_id'
  | 'version'
  | 'score'
  | 'total_marks'
  | 'percentage'
  | 'submitted_at'
  | 'auto_submitted'
  | 'grading'
  | 'pending_marks'
> & { test_name: string };

/** One page of the student's submitted attempts, newest submission first. */
export async function studentAttemptsPage(
  clientId: string,
  studentId: string,
  page: PageRequest,
): Promise<{ attempts: SubmittedAttempt[]; pagination: PageInfo }> {
  const { docs, pagination } = await fetchPage(paths.clientAttempts(clientId), studentRowsSpec(studentId), page);
  const stored = docs as StoredAttempt[];
  // Attempts started before test_name was kept on them: their frozen versions (cached per instance), read together.
  const names = await Promise.all(
    stored.map(async (a) => a.test_name ?? (await versionOf(clientId, a.test_id, a.version))?.test.test_name ?? ''),
  );
  return { attempts: stored.map((a, i) => ({ ...a, test_name: names[i] })), pagination };
}
