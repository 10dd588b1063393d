// Pure: the shape of the registry's query, which the index test checks
// against firestore.indexes.json (the emulator serves it without an index).

/**
 * Every organization's networks document changed after a time: a
 * collection-group query on `networks`, `updated_at >` the last read, ordered
 * by `updated_at`. One field, range and order alike, so a single-field index
 * serves it, but a collection-group one, which Firestore does not make by itself.
 */
export const NETWORKS_CHANGED_QUERY = {
  collectionId: 'networks',
  scope: 'COLLECTION_GROUP' as const,
  range: { field: 'updated_at', op: '>' as const },
  orderBy: [{ field: 'updated_at', direction: 'asc' as const }],
};
