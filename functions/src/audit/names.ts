import { db, paths } from '../firestore';
import { isDocumentId } from '../shared';
import { namesOf, type PersonName } from '../people';
import type { StoredAuditLog } from './documents';
import { namedRecord } from './readable';
import type { AuditLog } from './schemas';

/**
 * A page of records with the names of the people and tests they mention: one batched
 * read per organization on the page (a Client Admin's page has one), plus one for the
 * Super Admins among the actors and one for the tests, all beside each other and bounded
 * by the page.
 */
export async function withNames(records: StoredAuditLog[]): Promise<AuditLog[]> {
  const byClient = new Map<string | null, string[]>();
  for (const r of records) {
    const uids = byClient.get(r.client_id) ?? [];
    // A refused token's uid is only claimed: it is not named.
    if (r.event_type !== 'token_rejected') uids.push(r.user_id);
    if (r.actor_id) uids.push(r.actor_id);
    byClient.set(r.client_id, uids);
  }
  const [people, tests] = await Promise.all([
    Promise.all(
      [...byClient].map(
        async ([clientId, uids]) => [clientId, await namesOf(clientId, uids, { superAdmins: true })] as const,
      ),
    ),
    testNames(records),
  ]);
  const names = new Map<string | null, Map<string, PersonName>>(people);
  return records.map((r) => namedRecord(r, names.get(r.client_id) ?? new Map(), tests));
}

const testIdOf = (r: StoredAuditLog): string | null => {
  const id = r.details?.test_id;
  return r.client_id && typeof id === 'string' && isDocumentId(id) ? id : null;
};

async function testNames(records: StoredAuditLog[]): Promise<Map<string, string>> {
  const keys = new Map<string, { clientId: string; testId: string }>();
  for (const r of records) {
    const testId = testIdOf(r);
    if (testId) keys.set(`${r.client_id}/${testId}`, { clientId: r.client_id!, testId });
  }
  const names = new Map<string, string>();
  if (keys.size === 0) return names;
  const refs = [...keys.values()].map((k) => paths.clientTest(k.clientId, k.testId));
  const snaps = await db.getAll(...refs, { fieldMask: ['test_name'] });
  for (const snap of snaps) {
    const name = snap.exists ? snap.get('test_name') : undefined;
    if (typeof name === 'string') names.set(snap.id, name);
  }
  return names;
}
