import type { QuerySpec } from '../../shared';

// Pure: an attempt's timeline, by the page's clock; ties (and the page's own order) by the document id,
// the client_seq in 16 digits. One sort field on one collection: served by Firestore's single-field index.
export const EVENT_TIMELINE_QUERY: QuerySpec = {
  collectionId: 'integrity_events',
  equals: {},
  orderBy: [{ field: 'at', direction: 'asc' }],
};
