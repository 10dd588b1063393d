import type { QuerySpec } from '../shared';

// Pure: the shape of a test's share-code listing, newest first.
export const shareCodeQuerySpec = (filters: { client_id: string; test_id: string }): QuerySpec => ({
  collectionId: 'share_codes',
  equals: { client_id: filters.client_id, test_id: filters.test_id },
  orderBy: [{ field: 'created_at', direction: 'desc' }],
});
