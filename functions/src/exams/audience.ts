// Pure: to whom a test is open. Stored beside assigned_class_ids as `audience`, so a
// student's list is one query: `audience array-contains-any ['*', ...its classes]`.

/** The audience marker of a test open to its whole organization. */
export const WHOLE_ORGANIZATION = '*';

/** The audience stored for these assigned classes: the whole organization when none. */
export const audienceOf = (assigned: readonly string[] | undefined): string[] =>
  assigned && assigned.length > 0 ? [...assigned] : [WHOLE_ORGANIZATION];

/** What a student's list asks `array-contains-any` for: the organization's marker and the student's classes. */
export const listAudience = (classIds: readonly string[]): string[] => [
  WHOLE_ORGANIZATION,
  ...new Set(classIds.filter((id) => id !== WHOLE_ORGANIZATION)),
];

/**
 * Whether the test is open to a student of these classes: assigned to none (a test
 * stored before assignments has none either) or to one of them.
 */
export function testOpenTo(test: { assigned_class_ids?: readonly string[] }, classIds: readonly string[]): boolean {
  const assigned = test.assigned_class_ids ?? [];
  return assigned.length === 0 || assigned.some((id) => classIds.includes(id));
}
