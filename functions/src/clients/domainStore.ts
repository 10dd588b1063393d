import { addAudit, type AuditMeta } from '../audit';
import { db, paths } from '../firestore';
import { conflict, notFound } from '../shared';
import type { StoredClient, StoredEmailDomain } from './documents';

/** An organization binds at most this many domains (a school district's schools, a university's faculties). */
export const MAX_DOMAINS_PER_CLIENT = 20;

const byDomain = (a: StoredEmailDomain, b: StoredEmailDomain) =>
  a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0;

export async function listDomains(clientId: string): Promise<StoredEmailDomain[]> {
  const snap = await paths.emailDomains().where('client_id', '==', clientId).get();
  return snap.docs.map((d) => d.data() as StoredEmailDomain).sort(byDomain);
}

/** The organization a domain is bound to, if any. */
export async function findDomain(domain: string): Promise<StoredEmailDomain | undefined> {
  const snap = await paths.emailDomain(domain).get();
  return snap.exists ? (snap.data() as StoredEmailDomain) : undefined;
}

/**
 * The claim is the document keyed by the domain, created in a transaction with its audit record: of any
 * number of organizations claiming one domain at once, one commits; the others read it taken (409).
 * Binding it again to the organization that holds it is answered as done, and recorded once.
 */
export async function bindDomain(
  clientId: string,
  domain: string,
  actorId: string,
  meta: AuditMeta,
): Promise<{ bound: StoredEmailDomain; created: boolean }> {
  return db.runTransaction(async (tx) => {
    const [client, claim, held] = await Promise.all([
      tx.get(paths.client(clientId)),
      tx.get(paths.emailDomain(domain)),
      tx.get(paths.emailDomains().where('client_id', '==', clientId)),
    ]);
    if (!client.exists) throw notFound('Client not found');
    if (claim.exists) {
      const current = claim.data() as StoredEmailDomain;
      if (current.client_id === clientId) return { bound: current, created: false };
      throw conflict(`${domain} is already bound to another organization`);
    }
    if (held.size >= MAX_DOMAINS_PER_CLIENT)
      throw conflict(`An organization binds at most ${MAX_DOMAINS_PER_CLIENT} email domains`);
    const bound: StoredEmailDomain = {
      domain,
      client_id: clientId,
      created_at: new Date().toISOString(),
      created_by: actorId,
    };
    tx.create(paths.emailDomain(domain), bound);
    addAudit(tx, meta, {
      type: 'email_domain_bound',
      userId: actorId,
      clientId,
      actorId,
      details: { domain, client_name: (client.data() as StoredClient).name },
    });
    return { bound, created: true };
  });
}

/** 404 unless this organization holds the domain: another's claim is never released from here. */
export async function unbindDomain(clientId: string, domain: string, actorId: string, meta: AuditMeta): Promise<void> {
  await db.runTransaction(async (tx) => {
    const claim = await tx.get(paths.emailDomain(domain));
    if (!claim.exists || (claim.data() as StoredEmailDomain).client_id !== clientId)
      throw notFound('This organization has no such email domain');
    tx.delete(paths.emailDomain(domain));
    addAudit(tx, meta, { type: 'email_domain_unbound', userId: actorId, clientId, actorId, details: { domain } });
  });
}
