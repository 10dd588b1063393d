import { FieldValue, Timestamp, type WriteBatch } from 'firebase-admin/firestore';
import { db, paths } from '../firestore';
import type { StoredNetworks } from './documents';
import { NETWORKS_CHANGED_QUERY } from './networkQuery';

/**
 * One organization's networks as read, with when they were written (its
 * document's updated_at). A document edited in the console may hold anything:
 * `networks` is as stored (the registry checks it), and `updatedAt` undefined
 * when updated_at is not a timestamp.
 */
export interface NetworksChange {
  clientId: string;
  networks: unknown;
  updatedAt: Timestamp | undefined;
}

const PAGE = 1_000;

/**
 * The organizations whose networks changed after `since` (all of them without
 * it), and the read time to ask from next time. Paged by updated_at; a change
 * made while paging is read again next time, which is harmless.
 */
export async function networksChangedSince(
  since: Timestamp | undefined,
): Promise<{ changes: NetworksChange[]; readTime: Timestamp | undefined }> {
  const changes: NetworksChange[] = [];
  let readTime: Timestamp | undefined;
  const { range, orderBy } = NETWORKS_CHANGED_QUERY;
  let query = paths.allNetworks().orderBy(orderBy[0].field, orderBy[0].direction);
  if (since) query = query.where(range.field, range.op, since);
  let last: FirebaseFirestore.QueryDocumentSnapshot | undefined;
  for (;;) {
    const snap = await (last ? query.startAfter(last) : query).limit(PAGE).get();
    readTime ??= snap.readTime;
    for (const doc of snap.docs) {
      const stored = doc.data() as Partial<StoredNetworks>;
      // The organization is the one the path names (clients/{clientId}/networks/registered), whatever a hand-made document says.
      const clientId = doc.ref.parent.parent?.id ?? stored.client_id ?? '';
      changes.push({
        clientId,
        networks: stored.networks,
        updatedAt: stored.updated_at instanceof Timestamp ? stored.updated_at : undefined,
      });
    }
    if (snap.size < PAGE) break;
    last = snap.docs[snap.docs.length - 1];
  }
  return { changes, readTime };
}

export async function findNetworks(clientId: string): Promise<StoredNetworks | undefined> {
  const snap = await paths.clientNetworks(clientId).get();
  return snap.exists ? (snap.data() as StoredNetworks) : undefined;
}

/**
 * Replaces the organization's networks, with whatever `alongside` adds to the
 * same batch (its audit record): all of it lands or none. Answers the commit
 * time, which is the document's updated_at: the registry orders what it learns
 * by it (registry.ts applyLocally).
 */
export async function writeNetworks(
  clientId: string,
  networks: string[],
  updatedBy: string,
  alongside?: (batch: WriteBatch) => void,
): Promise<Timestamp> {
  const batch = db.batch();
  batch.set(paths.clientNetworks(clientId), {
    client_id: clientId,
    networks,
    updated_at: FieldValue.serverTimestamp(),
    updated_by: updatedBy,
  });
  alongside?.(batch);
  const [written] = await batch.commit();
  return written.writeTime;
}
