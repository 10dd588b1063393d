import type { QuerySpec } from '../shared';

// Pure: the shape of the test listing, newest first.
export const testQuerySpec = (filters: { status?: string; folder_id?: string }): QuerySpec => ({
  collectionId: 'tests',
  equals: { status: filters.status, folder_id: filters.folder_id },
  orderBy: [{ field: 'created_at', direction: 'desc' }],
});

/**
 * A student's list: the published tests open to its organization or assigned to one
 * of its classes (`audience` holds '*' or the class ids), newest first, in one query.
 */
export const studentTestQuerySpec = (filters: { folder_id?: string }, audience: readonly string[]): QuerySpec => ({
  collectionId: 'tests',
  equals: { status: 'published', folder_id: filters.folder_id },
  arrayContainsAny: { field: 'audience', values: audience },
  orderBy: [{ field: 'created_at', direction: 'desc' }],
});
