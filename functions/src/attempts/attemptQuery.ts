import type { QuerySpec } from '../shared';

// Pure: the shape of the attempt listing, newest first. A tenant's list runs on
// clients/{c}/attempts; a Guest's on every organization's attempts (a
// collection-group query), always with its own student_id.
// With class_id (the live view of one class), a test's attempts whose class_ids at start hold it.
export const attemptQuerySpec = (filters: {
  test_id?: string;
  student_id?: string;
  status?: string;
  class_id?: string;
}): QuerySpec => ({
  collectionId: 'attempts',
  equals: { test_id: filters.test_id, student_id: filters.student_id, status: filters.status },
  ...inClass(filters.class_id),
  orderBy: [{ field: 'started_at', direction: 'desc' }],
});

/**
 * The class filter: `class_ids` (the student's classes when the attempt started) holding the class.
 * Written as array-contains-any of one value (the same match as array-contains, served by the same
 * CONTAINS index entry), so one QuerySpec field serves every array filter.
 */
export const inClass = (classId: string | undefined): Pick<QuerySpec, 'arrayContainsAny'> =>
  classId === undefined ? {} : { arrayContainsAny: { field: 'class_ids', values: [classId] } };

/** The scheduled closer's query (collection group): in progress, expired before `before`, oldest first. */
export const OVERDUE_QUERY = {
  collectionId: 'attempts',
  equals: { status: 'in_progress' },
  range: { field: 'expires_at', op: '<' as const },
  orderBy: [{ field: 'expires_at', direction: 'asc' as const }],
};

/**
 * The scheduled closer's other query: deadline sweeps left pending (top level,
 * across organizations), equality alone, so one automatic single-field index.
 */
export const PENDING_SWEEPS_QUERY: QuerySpec = {
  collectionId: 'deadline_sweeps',
  equals: { pending: true },
  orderBy: [],
};

/**
 * The attempts in progress that archiving a test or revoking a share code
 * stops, and that a change of deadline concerns (a test's, a student's, or
 * one student's on one test): clients/{c}/attempts, equality only. A deadline
 * sweep pages through them by document id, ascending: the order every index
 * keeps its entries in within equal values, so it needs no index of its own.
 */
export const openAttemptsOfSpec = (
  of: { test_id?: string; student_id?: string } | { share_code: string },
): QuerySpec => ({
  collectionId: 'attempts',
  equals: { ...of, status: 'in_progress' },
  orderBy: [],
});
