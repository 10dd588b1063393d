// Pure description of a Firestore query's shape. Store modules build their
// queries from these, and the index test checks every shape against
// firestore.indexes.json, because the emulator does not enforce indexes.

export type FilterValue = string | number | boolean;

export interface QuerySpec {
  collectionId: string;
  equals: Record<string, FilterValue | undefined>;
  orderBy: ReadonlyArray<{ field: string; direction: 'asc' | 'desc' }>;
}

export interface IndexFile {
  indexes: Array<{
    collectionGroup: string;
    queryScope: string;
    fields: Array<{ fieldPath: string; order?: 'ASCENDING' | 'DESCENDING' }>;
  }>;
}

export const activeEquals = (spec: QuerySpec): Array<[string, FilterValue]> =>
  Object.entries(spec.equals).filter((e): e is [string, FilterValue] => e[1] !== undefined);

/**
 * Whether Firestore can serve the query: single-field indexes (automatic) cover
 * no filters with one sort, or equality filters alone; anything else needs a
 * composite index with the equality fields first, then the sort fields.
 */
export function isIndexed(spec: QuerySpec, file: IndexFile): boolean {
  const equalityFields = activeEquals(spec).map(([field]) => field);
  if (equalityFields.length === 0 && spec.orderBy.length <= 1) return true;
  if (spec.orderBy.length === 0) return true;
  const wanted = spec.orderBy.map((o) => ({
    fieldPath: o.field,
    order: o.direction === 'asc' ? 'ASCENDING' : 'DESCENDING',
  }));
  return file.indexes.some((index) => {
    if (index.collectionGroup !== spec.collectionId || index.queryScope !== 'COLLECTION') return false;
    if (index.fields.length !== equalityFields.length + wanted.length) return false;
    const head = index.fields.slice(0, equalityFields.length).map((f) => f.fieldPath);
    const tail = index.fields.slice(equalityFields.length);
    return (
      equalityFields.every((f) => head.includes(f)) &&
      tail.every((f, i) => f.fieldPath === wanted[i].fieldPath && f.order === wanted[i].order)
    );
  });
}
