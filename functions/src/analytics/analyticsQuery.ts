import { inClass } from '../attempts';
import type { QuerySpec } from '../shared';

// Pure: the shapes of the analytics queries on clients/{c}/attempts. The index
// test checks each against firestore.indexes.json (the emulator serves any query;
// production refuses one without its index).

/** A version, and optionally one class: its attempts only (those whose class_ids at start hold it). */
export interface VersionFilter {
  testId: string;
  version: number;
  classId?: string;
}

/**
 * A version's (or one class's) attempts with a final score, by it: the highest (desc) and the lowest (asc), one document each.
 * An attempt waiting for an essay grade has no final_score, so it is in neither.
 */
export const scoreExtremeSpec = (at: VersionFilter, direction: 'asc' | 'desc'): QuerySpec => ({
  collectionId: 'attempts',
  equals: { test_id: at.testId, version: at.version, status: 'submitted' },
  ...inClass(at.classId),
  orderBy: [{ field: 'final_score', direction }],
});

/** The same by score, for a version whose attempts were all submitted before final_score was kept (see the repair). */
export const legacyScoreExtremeSpec = (
  at: { testId: string; version: number },
  direction: 'asc' | 'desc',
): QuerySpec => ({
  collectionId: 'attempts',
  equals: { test_id: at.testId, version: at.version, status: 'submitted' },
  orderBy: [{ field: 'score', direction }],
});

/** A version's attempts in progress (counted: total_attempts = completed + these). */
export const openAttemptsSpec = (at: VersionFilter): QuerySpec => ({
  collectionId: 'attempts',
  equals: { test_id: at.testId, version: at.version, status: 'in_progress' },
  ...inClass(at.classId),
  orderBy: [],
});

/** A version's submitted attempts, oldest submission first (the results export), ties by id. */
export const resultsExportSpec = (at: VersionFilter): QuerySpec => ({
  collectionId: 'attempts',
  equals: { test_id: at.testId, version: at.version, status: 'submitted' },
  ...inClass(at.classId),
  orderBy: [{ field: 'submitted_at', direction: 'asc' }],
});

/** A student's submitted attempts, newest submission first (its analytics rows). */
export const studentRowsSpec = (studentId: string): QuerySpec => ({
  collectionId: 'attempts',
  equals: { student_id: studentId, status: 'submitted' },
  orderBy: [{ field: 'submitted_at', direction: 'desc' }],
});

/** A student's best submitted attempt by percentage. */
export const studentBestSpec = (studentId: string): QuerySpec => ({
  collectionId: 'attempts',
  equals: { student_id: studentId, status: 'submitted' },
  orderBy: [{ field: 'percentage', direction: 'desc' }],
});

/**
 * A student's attempts in an organization, all of them or those of one status,
 * in no order: counted (total_attempts) and aggregated (count, average score and
 * percentage of the submitted ones). Equality filters only: served by merging
 * single-field indexes; the averages scan the entries of `score` and `percentage`.
 */
export const studentAttemptsSpec = (studentId: string, status?: 'submitted'): QuerySpec => ({
  collectionId: 'attempts',
  equals: { student_id: studentId, status },
  orderBy: [],
});

/**
 * A student's submitted attempts averaged over `field` (score or percentage).
 * Firestore computes average() by scanning an index that holds the field, so
 * the shape is written as the sort such an index serves; one aggregation per field.
 */
export const studentAverageSpec = (studentId: string, field: 'score' | 'percentage'): QuerySpec => ({
  collectionId: 'attempts',
  equals: { student_id: studentId, status: 'submitted' },
  orderBy: [{ field, direction: 'asc' }],
});

/**
 * A student's submitted attempts still waiting for an essay grade, summed over `field` (score or
 * percentage): taken away from the submitted ones' count and sums, which leaves the final ones.
 */
export const studentPendingSpec = (studentId: string, field: 'score' | 'percentage'): QuerySpec => ({
  collectionId: 'attempts',
  equals: { student_id: studentId, status: 'submitted', grading: 'pending' },
  orderBy: [{ field, direction: 'asc' }],
});
