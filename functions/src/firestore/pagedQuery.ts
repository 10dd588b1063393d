import {
  CollectionReference,
  FieldPath,
  type CollectionGroup,
  type DocumentData,
  type Query,
} from 'firebase-admin/firestore';
import {
  activeEquals,
  badRequest,
  type CursorValue,
  decodeCursor,
  encodeCursor,
  isDocumentPath,
  pageInfo,
  type PageInfo,
  type PageRequest,
  prefixRange,
  type QuerySpec,
} from '../shared';

/** A collection, or a collection group (the same collection id under every parent). */
export type Listable = CollectionReference | CollectionGroup;

export function buildQuery(collection: Listable, spec: QuerySpec): Query {
  let query: Query = collection;
  for (const [field, value] of activeEquals(spec)) query = query.where(field, '==', value);
  if (spec.arrayContainsAny)
    query = query.where(spec.arrayContainsAny.field, 'array-contains-any', spec.arrayContainsAny.values);
  if (spec.startsWith) {
    const { start, end } = prefixRange(spec.startsWith.value);
    query = query.where(spec.startsWith.field, '>=', start);
    if (end !== undefined) query = query.where(spec.startsWith.field, '<', end);
  }
  for (const { field, direction } of spec.orderBy) query = query.orderBy(field, direction);
  return query;
}

const invalidCursor = () =>
  badRequest('cursor is not valid for this list', [
    { path: 'query.cursor', message: 'Not a cursor from this list; start again from page 1' },
  ]);

/**
 * One page plus the total, fetched in parallel: two round trips whatever the
 * page. A page is found by offset (capped, see MAX_PAGE_OFFSET) or, at any
 * depth, by cursor: the sort values and id of the previous page's last item.
 * The document id breaks ties, in the direction of the last sort (so the
 * query's index already serves it). A collection group orders by the full
 * document path, so its cursors carry the path; the query keeps its filters,
 * so a forged path only moves where the caller's own list resumes.
 */
export async function fetchPage(
  collection: Listable,
  spec: QuerySpec,
  request: PageRequest,
): Promise<{ docs: DocumentData[]; pagination: PageInfo }> {
  const group = !(collection instanceof CollectionReference);
  const filtered = buildQuery(collection, spec);
  const lastDirection = spec.orderBy[spec.orderBy.length - 1]?.direction ?? 'asc';
  const ordered = filtered.orderBy(FieldPath.documentId(), lastDirection);
  let pageNumber = request.page ?? 1;
  let pageQuery = ordered.offset((pageNumber - 1) * request.limit);
  if (request.cursor !== undefined) {
    const cursor = decodeCursor(request.cursor, spec.orderBy.length, group ? isDocumentPath : undefined);
    if (!cursor) throw invalidCursor();
    pageNumber = cursor.page + 1;
    try {
      pageQuery = ordered.startAfter(...cursor.after);
    } catch {
      throw invalidCursor(); // values the SDK refuses for these sort fields
    }
  }
  const [countSnap, pageSnap] = await Promise.all([filtered.count().get(), pageQuery.limit(request.limit).get()]);
  const total = countSnap.data().count;
  const last = pageSnap.docs[pageSnap.docs.length - 1];
  const more = last !== undefined && pageSnap.size === request.limit && pageNumber * request.limit < total;
  const nextCursor = more
    ? encodeCursor({
        page: pageNumber,
        after: [
          ...spec.orderBy.map(({ field }) => (last.get(field) ?? null) as CursorValue),
          group ? last.ref.path : last.id,
        ],
      })
    : null;
  return {
    docs: pageSnap.docs.map((d) => d.data()),
    pagination: pageInfo(pageNumber, request.limit, total, nextCursor),
  };
}
