import { addAudit, type AuditMeta } from '../audit';
import { ALREADY_EXISTS, db, hasStatus, paths } from '../firestore';
import { conflict, isDocumentId, notFound } from '../shared';
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
 * The claim is the document keyed by the domain, created in one batch with its audit record: of any
 * number of organizations claiming one domain at once, one create lands; the others find it taken
 * (409). No transaction: fifty of them on one document abort one another into 503s, where a create
 * either lands or finds the claim. Binding it again to the organization that holds it is answered as
 * done, and recorded once. The bound per organization is read before the claim, so binds racing at
 * the bound can pass it by the few in flight (separate documents: no document grows with it).
 */
export async function bindDomain(
  clientId: string,
  domain: string,
  actorId: string,
  meta: AuditMeta,
): Promise<{ bound: StoredEmailDomain; created: boolean }> {
  // An id no document can have ("a/b", "__x__") names no organization: Firestore would refuse the path.
  if (!isDocumentId(clientId)) throw notFound('Client not found');
  const [client, claim, held] = await Promise.all([
    paths.client(clientId).get(),
    findDomain(domain),
    paths.emailDomains().where('client_id', '==', clientId).select().limit(MAX_DOMAINS_PER_CLIENT).get(),
  ]);
  if (!client.exists) throw notFound('Client not found');
  if (claim) return heldBy(claim, clientId, domain);
  if (held.size >= MAX_DOMAINS_PER_CLIENT)
    throw conflict(`An organization binds at most ${MAX_DOMAINS_PER_CLIENT} email domains`);
  const bound: StoredEmailDomain = {
    domain,
    client_id: clientId,
    created_at: new Date().toISOString(),
    created_by: actorId,
  };
  const batch = db.batch();
  batch.create(paths.emailDomain(domain), bound);
  addAudit(batch, meta, {
    type: 'email_domain_bound',
    userId: actorId,
    clientId,
    actorId,
    details: { domain, client_name: (client.data() as StoredClient).name },
  });
  try {
    await batch.commit();
  } catch (err) {
    if (!hasStatus(err, ALREADY_EXISTS)) throw err;
    const winner = await findDomain(domain);
    // Created and released between the two reads: taken, for this request.
    if (!winner) throw conflict(`${domain} was claimed at the same moment; try again`);
    return heldBy(winner, clientId, domain);
  }
  return { bound, created: true };
}

/** A claim found in place: done when this organization holds it, else 409. */
function heldBy(claim: StoredEmailDomain, clientId: string, domain: string) {
  if (claim.client_id === clientId) return { bound: claim, created: false };
  throw conflict(`${domain} is already bound to another organization`);
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
