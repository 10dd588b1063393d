import type { QuerySpec } from '../shared/querySpec';

// Pure: the shape of the test listing, newest first.
export const testQuerySpec = (filters: { status?: string; folder_id?: string }): QuerySpec => ({
  collectionId: 'tests',
  equals: { status: filters.status, folder_id: filters.folder_id },
  orderBy: [{ field: 'created_at', direction: 'desc' }],
});
