import { AggregateField } from 'firebase-admin/firestore';
import type { StoredAttempt } from '../attempts/documents';
import { versionOf } from '../attempts/frozenReads';
import { buildQuery, fetchPage } from '../firestore/pagedQuery';
import { paths } from '../firestore/paths';
import { isDocumentId } from '../shared/ids';
import type { PageInfo, PageRequest } from '../shared/pagination';
import { studentAttemptsSpec, studentBestSpec, studentRowsSpec } from './analyticsQuery';

// Firestore access for a student's analytics in one organization
// (clients/{c}/attempts where student_id = the student). Nothing here reads
// every attempt: the figures are index aggregations (count, average) and one
// one-document query, and the rows are one page. Every read is independent of
// the others, so the service runs them side by side: one round trip.

/** The student's figures in the organization, before rounding. */
export interface StudentFigures {
  /** Attempts started (in progress and submitted). */
  total: number;
  /** Attempts submitted. */
  completed: number;
  /** Means over the submitted attempts; null when there is none. */
  averageScore: number | null;
  averagePercentage: number | null;
  /** The highest stored percentage of a submitted attempt; null when there is none. */
  bestPercentage: number | null;
}

/** Whether the organization has a user profile for `uid` (a Student or Client Admin of it). */
export async function hasProfile(clientId: string, uid: string): Promise<boolean> {
  if (!isDocumentId(uid)) return false; // a uid no document can have (a '/', say) has no profile
  return (await paths.clientUser(clientId, uid).get()).exists;
}

/**
 * Four aggregation-priced queries in parallel: the count of all; the count and
 * average score of the submitted; their average percentage; the best one.
 * Firestore's average() scans an index holding the averaged field, so each
 * average has its own query and its own index (studentAverageSpec).
 */
export async function studentFigures(clientId: string, studentId: string): Promise<StudentFigures> {
  const attempts = paths.clientAttempts(clientId);
  const submitted = buildQuery(attempts, studentAttemptsSpec(studentId, 'submitted'));
  const [all, scores, percentages, best] = await Promise.all([
    buildQuery(attempts, studentAttemptsSpec(studentId)).count().get(),
    submitted.aggregate({ completed: AggregateField.count(), average: AggregateField.average('score') }).get(), // studentAverageSpec(…, 'score')
    submitted.aggregate({ average: AggregateField.average('percentage') }).get(), // studentAverageSpec(…, 'percentage')
    buildQuery(attempts, studentBestSpec(studentId)).limit(1).select('percentage').get(),
  ]);
  const completed = scores.data().completed;
  return {
    total: all.data().count,
    completed,
    averageScore: completed > 0 ? (scores.data().average ?? null) : null,
    averagePercentage: completed > 0 ? (percentages.data().average ?? null) : null,
    bestPercentage: best.empty ? null : ((best.docs[0].get('percentage') as number | null | undefined) ?? null),
  };
}

/** A submitted attempt as a row needs it, with the test's name (read from the frozen version when an older attempt lacks it). */
export type SubmittedAttempt = Pick<
  StoredAttempt,
  'id' | 'test_id' | 'version' | 'score' | 'total_marks' | 'percentage' | 'submitted_at' | 'auto_submitted'
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
