// Pure: to whom a test is open, as stored beside assigned_class_ids (`audience`), so a
// student's list is one query: `audience array-contains-any ['*', ...its classes]`.
// Whether one test is open to a student is the policy's (auth/policy.ts testOpenToStudent),
// which must agree with this: open to all ⇔ no class assigned ⇔ audience ['*'].

/** The audience marker of a test open to its whole organization. */
export const WHOLE_ORGANIZATION = '*';

/** The audience stored for these assigned classes: the whole organization when none. */
export const audienceOf = (assigned: readonly string[] | undefined): string[] =>
  assigned && assigned.length > 0 ? [...assigned] : [WHOLE_ORGANIZATION];

/** Firestore's bound on the values of one `array-contains-any`. */
const ARRAY_CONTAINS_ANY_LIMIT = 30;

/**
 * What a student's list asks `array-contains-any` for: the organization's marker and the
 * student's classes (at most MAX_CLASSES_PER_STUDENT, so within Firestore's 30; cut there
 * all the same, so a profile written past its bound cannot break the query).
 */
export const listAudience = (classIds: readonly string[]): string[] =>
  [WHOLE_ORGANIZATION, ...new Set(classIds.filter((id) => id !== WHOLE_ORGANIZATION))].slice(
    0,
    ARRAY_CONTAINS_ANY_LIMIT,
  );

/** A test as stored: its assignment (default: none) and the audience derived from it, whatever else the write changed. */
export const withAudience = <T extends { id: string; assigned_class_ids?: string[] }>(
  test: T,
): T & { assigned_class_ids: string[]; audience: string[] } => ({
  ...test,
  assigned_class_ids: test.assigned_class_ids ?? [],
  audience: audienceOf(test.assigned_class_ids),
});
