import type { QuerySpec } from '../shared';

// Pure: the shape of the folder listing, by name (the sort key folds case, so "algebra" and "Biology" sort as a reader expects).
export const folderQuerySpec = (): QuerySpec => ({
  collectionId: 'folders',
  equals: {},
  orderBy: [{ field: 'name_sort', direction: 'asc' }],
});
