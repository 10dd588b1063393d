import { randomUUID } from 'node:crypto';
import { assertCanChangeClient, assertCanReadClient, type Principal } from '../auth';
import { requestMeta } from '../audit';
import { badRequest, isDocumentId, notFound, type RequestOrigin } from '../shared';
import type { StoredEmailDomain } from './documents';
import * as domainStore from './domainStore';
import { domainVerdict, normalizeDomain } from './domains';
import type { Client, ClientChanges, EmailDomain } from './schemas';
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

/** 400 for what is not a domain or is a public mail service; else the domain as it is kept. */
function acceptableDomain(raw: string, field: string): string {
  const verdict = domainVerdict(raw);
  if (!verdict.ok) throw badRequest(verdict.message, [{ path: field, message: verdict.message }]);
  return verdict.domain;
}

const domainReply = (d: StoredEmailDomain): EmailDomain => ({
  domain: d.domain,
  client_id: d.client_id,
  created_at: d.created_at,
});

export async function listEmailDomains(clientId: string): Promise<{ domains: EmailDomain[] }> {
  await requireClient(clientId);
  return { domains: (await domainStore.listDomains(clientId)).map(domainReply) };
}

export async function bindEmailDomain(
  principal: Principal,
  clientId: string,
  raw: string,
  call: RequestOrigin,
): Promise<{ domain: EmailDomain; created: boolean }> {
  const domain = acceptableDomain(raw, 'body.domain');
  const { bound, created } = await domainStore.bindDomain(clientId, domain, principal.uid, requestMeta(call));
  return { domain: domainReply(bound), created };
}

export async function unbindEmailDomain(
  principal: Principal,
  clientId: string,
  raw: string,
  call: RequestOrigin,
): Promise<void> {
  // What is no domain was never bound: 404, as any domain this organization does not hold.
  const verdict = domainVerdict(raw);
  const domain = verdict.ok ? verdict.domain : normalizeDomain(raw);
  if (!isDocumentId(domain)) throw notFound('This organization has no such email domain');
  await domainStore.unbindDomain(clientId, domain, principal.uid, requestMeta(call));
}
