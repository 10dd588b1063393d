import type { QuerySpec } from '../shared';

// Pure: the shapes of the class listings.

/** An organization's classes by name (the sort key folds case, so "algebra" and "Biology" sort as a reader expects). */
export const classQuerySpec = (): QuerySpec => ({
  collectionId: 'classes',
  equals: {},
  orderBy: [{ field: 'name_sort', direction: 'asc' }],
});

/** A class's members by email (unique, and lower-cased by Auth): a roster reads as a list of accounts. */
export const classMemberQuerySpec = (): QuerySpec => ({
  collectionId: 'members',
  equals: {},
  orderBy: [{ field: 'email', direction: 'asc' }],
});
