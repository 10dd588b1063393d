import type { QuerySpec } from '../shared';

// Pure: the queries that page through a test's audience, students' profiles
// (clients/{c}/users) by uid, for the live view's "who has not started".

/** Firestore's bound on the values of one array-contains-any. */
export const MAX_ARRAY_ANY_VALUES = 30;

/**
 * The profile queries whose union holds the audience (with the class filter, the
 * class's members): every student of the organization (role, by uid), or the
 * profiles whose class_ids hold one of these classes, in chunks of at most 30
 * (a test is assigned to at most 50 classes, so at most two queries). Each is
 * read by document id after the cursor's uid; equality and array-contains alone,
 * so the automatic single-field indexes serve them. A class query does not ask
 * for the role (members of a class are students: leaving the role leaves the
 * classes); the decision (notStarted.ts) keeps students only.
 */
export function audienceQuerySpecs(assignedClassIds: readonly string[], classId: string | undefined): QuerySpec[] {
  const classes = classId !== undefined ? [classId] : [...new Set(assignedClassIds)];
  if (classes.length === 0) return [{ collectionId: 'users', equals: { role: 'student' }, orderBy: [] }];
  const specs: QuerySpec[] = [];
  for (let i = 0; i < classes.length; i += MAX_ARRAY_ANY_VALUES) {
    specs.push({
      collectionId: 'users',
      equals: {},
      arrayContainsAny: { field: 'class_ids', values: classes.slice(i, i + MAX_ARRAY_ANY_VALUES) },
      orderBy: [],
    });
  }
  return specs;
}
