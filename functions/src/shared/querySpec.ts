// Pure description of a Firestore query's shape. Store modules build their
// queries from these, and the index test checks every shape against
// firestore.indexes.json, because the emulator does not enforce indexes.

export type FilterValue = string | number | boolean;

export interface QuerySpec {
  collectionId: string;
  equals: Record<string, FilterValue | undefined>;
  /** An array field holding any of these values (at most 30, Firestore's bound): served by an index entry with arrayConfig CONTAINS. */
  arrayContainsAny?: { field: string; values: readonly FilterValue[] };
  /** Text starting with this (a range on the field): the field must be the first sort field, so the sort's index serves it. */
  startsWith?: { field: string; value: string };
  orderBy: ReadonlyArray<{ field: string; direction: 'asc' | 'desc' }>;
}

export interface IndexFile {
  indexes: Array<{
    collectionGroup: string;
    queryScope: string;
    fields: Array<{ fieldPath: string; order?: 'ASCENDING' | 'DESCENDING'; arrayConfig?: 'CONTAINS' }>;
  }>;
}

export const activeEquals = (spec: QuerySpec): Array<[string, FilterValue]> =>
  Object.entries(spec.equals).filter((e): e is [string, FilterValue] => e[1] !== undefined);

/**
 * Whether Firestore can serve the query: single-field indexes (automatic) cover
 * no filters with one sort, or equality filters alone (an array-contains-any
 * alone, or beside equalities, too); anything else needs a composite index with
 * the equality fields and the array field (CONTAINS) first, then the sort fields.
 */
export function isIndexed(spec: QuerySpec, file: IndexFile): boolean {
  if (spec.startsWith && spec.orderBy[0]?.field !== spec.startsWith.field) return false;
  const equalityFields = activeEquals(spec).map(([field]) => field);
  const arrayField = spec.arrayContainsAny?.field;
  if (equalityFields.length === 0 && arrayField === undefined && spec.orderBy.length <= 1) return true;
  if (spec.orderBy.length === 0) return true;
  const wanted = spec.orderBy.map((o) => ({
    fieldPath: o.field,
    order: o.direction === 'asc' ? 'ASCENDING' : 'DESCENDING',
  }));
  return file.indexes.some((index) => {
    if (index.collectionGroup !== spec.collectionId || index.queryScope !== 'COLLECTION') return false;
    const headLength = equalityFields.length + (arrayField === undefined ? 0 : 1);
    if (index.fields.length !== headLength + wanted.length) return false;
    const head = index.fields.slice(0, headLength);
    const tail = index.fields.slice(headLength);
    const contains = head.filter((f) => f.arrayConfig === 'CONTAINS').map((f) => f.fieldPath);
    return (
      equalityFields.every((f) => head.some((h) => h.fieldPath === f && h.arrayConfig === undefined)) &&
      (arrayField === undefined ? contains.length === 0 : contains.length === 1 && contains[0] === arrayField) &&
      tail.every((f, i) => f.fieldPath === wanted[i].fieldPath && f.order === wanted[i].order)
    );
  });
}
