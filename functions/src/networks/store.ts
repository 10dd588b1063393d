import { FieldValue, type Timestamp } from 'firebase-admin/firestore';
import { paths } from '../firestore/paths';
import type { StoredNetworks } from './documents';

const PAGE = 1_000;

/**
 * The organizations whose networks changed after `since` (all of them without
 * it), and the read time to ask from next time. Paged by updated_at; a change
 * made while paging is read again next time, which is harmless.
 */
export async function networksChangedSince(since: Timestamp | undefined): Promise<{ changes: Array<{ clientId: string; networks: string[] }>; readTime: Timestamp | undefined }> {
  const changes: Array<{ clientId: string; networks: string[] }> = [];
  let readTime: Timestamp | undefined;
  let query = paths.allNetworks().orderBy('updated_at');
  if (since) query = query.where('updated_at', '>', since);
  let last: FirebaseFirestore.QueryDocumentSnapshot | undefined;
  for (;;) {
    const snap = await (last ? query.startAfter(last) : query).limit(PAGE).get();
    readTime ??= snap.readTime;
    for (const doc of snap.docs) {
      const stored = doc.data() as StoredNetworks;
      changes.push({ clientId: stored.client_id, networks: stored.networks });
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

export async function writeNetworks(clientId: string, networks: string[], updatedBy: string): Promise<void> {
  await paths.clientNetworks(clientId).set({ client_id: clientId, networks, updated_at: FieldValue.serverTimestamp(), updated_by: updatedBy });
}
