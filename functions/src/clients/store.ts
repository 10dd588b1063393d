import { ALREADY_EXISTS, db, fetchPage, hasStatus, paths } from '../firestore';
import { conflict, isDocumentId, notFound, type PageRequest } from '../shared';
import { forgetInRequest, readOncePerRequest } from '../platform';
import { clientQuerySpec } from './clientQuery';
import type { StoredClient, StoredClientName } from './documents';
import { clientNameKey, type ClientChanges } from './schemas';

const duplicateName = (name: string) => conflict(`A client named "${name}" already exists`);

const memoKey = (clientId: string) => `client:${clientId}`;

/** Read at most once per request, however many checks need it. */
export async function findClient(clientId: string): Promise<StoredClient | undefined> {
  if (!isDocumentId(clientId)) return undefined;
  return readOncePerRequest(memoKey(clientId), async () => {
    const snap = await paths.client(clientId).get();
    return snap.exists ? (snap.data() as StoredClient) : undefined;
  });
}

/** The name guard and the client are created together, so two racing creates cannot both win. */
export async function insertClient(client: StoredClient): Promise<void> {
  const batch = db.batch();
  batch.create(paths.clientName(clientNameKey(client.name)), { client_id: client.id } satisfies StoredClientName);
  batch.create(paths.client(client.id), client);
  try {
    await batch.commit();
  } catch (err) {
    if (hasStatus(err, ALREADY_EXISTS)) throw duplicateName(client.name);
    throw err;
  }
}

export async function updateClient(clientId: string, changes: ClientChanges, now: string): Promise<StoredClient> {
  if (!isDocumentId(clientId)) throw notFound('Client not found');
  return db
    .runTransaction(async (tx) => {
      const snap = await tx.get(paths.client(clientId));
      if (!snap.exists) throw notFound('Client not found');
      const current = snap.data() as StoredClient;
      const next: StoredClient = { ...current, ...changes, updated_at: now };
      const oldKey = clientNameKey(current.name);
      const newKey = clientNameKey(next.name);
      if (newKey !== oldKey) {
        const taken = await tx.get(paths.clientName(newKey));
        if (taken.exists) throw duplicateName(next.name);
        tx.create(paths.clientName(newKey), { client_id: clientId } satisfies StoredClientName);
        tx.delete(paths.clientName(oldKey));
      }
      tx.set(paths.client(clientId), next);
      return next;
    })
    .finally(() => forgetInRequest(memoKey(clientId)));
}

export async function listClients(filters: { active_status?: number }, page: PageRequest) {
  const { docs, pagination } = await fetchPage(paths.clients(), clientQuerySpec(filters), page);
  return { clients: docs as StoredClient[], pagination };
}
