import { randomUUID } from 'node:crypto';
import { assertCanChangeClient, assertCanReadClient, type Principal } from '../auth';
import { notFound } from '../shared';
import type { Client, ClientChanges } from './schemas';
import * as store from './store';

/** 404 when a caller (a Super Admin, say) names an organization that does not exist: one read. */
export async function requireClient(clientId: string): Promise<void> {
  if (!(await store.findClient(clientId))) throw notFound('Client not found');
}

export async function createClient(input: { name: string; address: string; logo_url: string }): Promise<Client> {
  const now = new Date().toISOString();
  const client: Client = { id: randomUUID(), ...input, active_status: 1, created_at: now, updated_at: now };
  await store.insertClient(client);
  return client;
}

/** 404 when it does not exist, 403 when it belongs to someone else. */
export async function readClient(principal: Principal, clientId: string): Promise<Client> {
  const client = await store.findClient(clientId);
  if (!client) throw notFound('Client not found');
  assertCanReadClient(principal, clientId);
  return client;
}

export async function changeClient(principal: Principal, clientId: string, changes: ClientChanges): Promise<Client> {
  // Another organization's id answers 403 only if it exists; one that does not is 404 for everyone.
  if (principal.role !== 'super_admin') await readClient(principal, clientId);
  assertCanChangeClient(principal, clientId, changes);
  return store.updateClient(clientId, changes, new Date().toISOString());
}

export const listClients = store.listClients;
