import { randomBytes } from 'node:crypto';
import type { DocumentReference, Transaction } from 'firebase-admin/firestore';
import { paths } from '../firestore';
import { isDocumentId, notFound } from '../shared';
import { organizationOfAttemptId } from './rules';
import type { StoredAttempt } from './documents';

// An attempt's id, where it lives, and finding it.

/**
 * Where an attempt lives, from its id alone: ids are `<clientId>.<random>`, so
 * a token holder, a Guest or a Super Admin reaches it with one document read,
 * and a transaction reads one document, never a query (a query inside a
 * transaction locks its whole range: fifty students saving at once then time
 * out on each other's locks). An id that names no possible document names no attempt.
 */
function attemptRef(attemptId: string): DocumentReference | undefined {
  const clientId = organizationOfAttemptId(attemptId);
  if (clientId === undefined || !isDocumentId(attemptId)) return undefined;
  return isDocumentId(clientId) ? paths.clientAttempt(clientId, attemptId) : undefined;
}

/** Where an attempt is stored, for a log line. */
export const attemptPath = (attempt: Pick<StoredAttempt, 'client_id' | 'id'>): string =>
  paths.clientAttempt(attempt.client_id, attempt.id).path;

export const newAttemptId = (clientId: string): string => `${clientId}.${randomBytes(16).toString('base64url')}`;

export interface FoundAttempt {
  ref: DocumentReference;
  attempt: StoredAttempt;
}

export async function findAttempt(attemptId: string): Promise<FoundAttempt | undefined> {
  const ref = attemptRef(attemptId);
  if (!ref) return undefined;
  const snap = await ref.get();
  return snap.exists ? { ref, attempt: snap.data() as StoredAttempt } : undefined;
}

/**
 * The attempt, read in `tx` (404 when there is none). `beside` names documents of the attempt's
 * organization read with it, in the same round trip, for what reading them in the transaction
 * does (a batch writing one of them after this read conflicts with the transaction), not for what
 * they hold.
 */
export async function requireAttemptInTransaction(
  tx: Transaction,
  attemptId: string,
  beside?: (clientId: string, attemptId: string) => DocumentReference[],
): Promise<FoundAttempt> {
  const ref = attemptRef(attemptId);
  const also = ref && beside ? beside(organizationOfAttemptId(attemptId)!, attemptId) : [];
  const snap = !ref ? undefined : also.length > 0 ? (await tx.getAll(ref, ...also))[0] : await tx.get(ref);
  if (!ref || !snap?.exists) throw notFound('Attempt not found');
  return { ref, attempt: snap.data() as StoredAttempt };
}
