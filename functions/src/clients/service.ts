import { randomUUID } from 'node:crypto';
import { assertTenantAccess } from '../auth/policy';
import type { Principal } from '../auth/principal';
import { forbidden, notFound } from '../http/errors';
import type { Client, ClientChanges } from './schemas';
import * as store from './store';

export async function createClient(input: { name: string; address: string; logo_url: string }): Promise<Client> {
  const now = new Date().toISOString();
  const client: Client = { id: randomUUID(), ...input, active_status: 1, created_at: now, updated_at: now };
  await store.insertClient(client);
  return client;
}

/** 404 when it does not exist, 403 when it belongs to someone else. */
export async function readClient(principal: Principal, clientId: string): Promise<Client> {
  const client = await store.getClient(clientId);
  if (!client) throw notFound('Client not found');
  assertTenantAccess(principal, clientId);
  return client;
}

export async function changeClient(principal: Principal, clientId: string, changes: ClientChanges): Promise<Client> {
  if (principal.role !== 'super_admin') {
    await readClient(principal, clientId);
    if (changes.active_status !== undefined) throw forbidden('Only a Super Admin can activate or deactivate a client');
  }
  return store.updateClient(clientId, changes, new Date().toISOString());
}

export const listClients = store.listClients;
