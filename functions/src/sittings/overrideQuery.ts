import type { QuerySpec } from '../shared';

// Pure: the shape of a test's overrides listing, by student id (one automatic single-field index).
export const overrideQuerySpec = (): QuerySpec => ({
  collectionId: 'overrides',
  equals: {},
  orderBy: [{ field: 'student_id', direction: 'asc' }],
});
