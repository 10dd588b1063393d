import type { CollectionReference, DocumentData, Query } from 'firebase-admin/firestore';
import { activeEquals, type QuerySpec } from '../shared/querySpec';
import { pageInfo, type PageInfo, type PageRequest } from '../shared/pagination';

export function buildQuery(collection: CollectionReference, spec: QuerySpec): Query {
  let query: Query = collection;
  for (const [field, value] of activeEquals(spec)) query = query.where(field, '==', value);
  for (const { field, direction } of spec.orderBy) query = query.orderBy(field, direction);
  return query;
}

/** One page plus the total, fetched in parallel: two round trips whatever the page. */
export async function fetchPage(
  collection: CollectionReference,
  spec: QuerySpec,
  page: PageRequest,
): Promise<{ docs: DocumentData[]; pagination: PageInfo }> {
  const query = buildQuery(collection, spec);
  const [countSnap, pageSnap] = await Promise.all([
    query.count().get(),
    query
      .offset((page.page - 1) * page.limit)
      .limit(page.limit)
      .get(),
  ]);
  return {
    docs: pageSnap.docs.map((d) => d.data()),
    pagination: pageInfo(page, countSnap.data().count),
  };
}
