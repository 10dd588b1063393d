// Pure: the shapes of the delivery engine's queries, which the index test checks
// against firestore.indexes.json (the emulator serves any query without one).

/** The runner's walk over organizations with a pending delivery: every organization's deliveries, status ==, by client_id. */
export const PENDING_ORGANIZATIONS_QUERY = {
  collectionId: 'deliveries',
  scope: 'COLLECTION_GROUP' as const,
  equals: ['status'],
  orderBy: [{ field: 'client_id', direction: 'asc' as const }],
};

/** One organization's due deliveries: status ==, next_try_at <= now, oldest due first. */
export const DUE_DELIVERIES_QUERY = {
  collectionId: 'deliveries',
  scope: 'COLLECTION' as const,
  equals: ['status'],
  orderBy: [{ field: 'next_try_at', direction: 'asc' as const }],
};

/** Events whose fan-out never finished (a lost trigger): every organization's, fanned_out == false, timestamp <= a minute ago. */
export const UNFANNED_EVENTS_QUERY = {
  collectionId: 'events',
  scope: 'COLLECTION_GROUP' as const,
  equals: ['fanned_out'],
  orderBy: [{ field: 'timestamp', direction: 'asc' as const }],
};
