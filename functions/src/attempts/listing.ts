import type { CollectionReference } from 'firebase-admin/firestore';
import { fetchPage, paths } from '../firestore';
import type { PageRequest } from '../shared';
import { attemptQuerySpec } from './attemptQuery';
import type { StoredAttempt } from './documents';
import type { AttemptStatus } from './schemas';

// Listing attempts: one page of a tenant's, or of a Guest's across organizations.

export type ListTarget = { scope: 'tenant'; clientId: string } | { scope: 'guest' };

export async function listAttempts(
  target: ListTarget,
  filters: { test_id?: string; student_id?: string; status?: AttemptStatus; class_id?: string },
  page: PageRequest,
): Promise<{ data: StoredAttempt[]; pagination: Awaited<ReturnType<typeof fetchPage>>['pagination'] }> {
  // A Guest's attempts may sit in several organizations: a collection-group query, always on its own student_id.
  const collection =
    target.scope === 'tenant'
      ? paths.clientAttempts(target.clientId)
      : (paths.allAttempts() as unknown as CollectionReference);
  const { docs, pagination } = await fetchPage(collection, attemptQuerySpec(filters), page);
  return { data: docs as StoredAttempt[], pagination };
}
