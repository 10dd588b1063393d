import type { QuerySpec } from '../shared';

// Pure: the shape of the client listing, alphabetical.
export const clientQuerySpec = (filters: { active_status?: number }): QuerySpec => ({
  collectionId: 'clients',
  equals: { active_status: filters.active_status },
  orderBy: [{ field: 'name', direction: 'asc' }],
});
