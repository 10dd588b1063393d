import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { signInWithIdp } from '../../scripts/lib/emulatorAuth.mjs';
import { adminAuth, adminDb } from '../support/admin';
import { startApiInstances, type ApiInstances } from '../support/apiInstances';
import { AUTH_HOST } from '../support/env';
import { auditRecordsFor, createSuperAdmin, createTenant } from '../support/fixtures';
import { freshIp, post, type RequestOptions } from '../support/http';

// Requests that truly overlap: the real app served by two instances, this process and a child (the
// Functions emulator runs one request at a time per worker, and fifty at once there time out before
// they race), each request to the next instance in turn.
// Binding a domain is guarded by its claim's transaction (clients/domainStore.ts bindDomain): with plain
// reads and a write in its place, both organizations are answered 201 and the last write holds the domain.
// A join is guarded by its creates (users/joinService.ts recordJoin): the profile and its record are
// keyed by the account, and a second create is the sign that the first one did it.

let instances: ApiInstances;

const at = (token: string): RequestOptions => ({ token, ip: freshIp(), baseUrl: instances.nextBaseUrl() });
const uniqueDomain = () => `school-${randomUUID().slice(0, 8)}.example.edu`;

before(async function () {
  this.timeout(60_000);
  instances = await startApiInstances({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
});
after(() => instances.close());

describe('school sign-in under truly concurrent requests', function () {
  this.timeout(180_000);

  it('two organizations claiming one domain at once, 50 requests: exactly one holds it, the other is 409', async () => {
    const [a, b] = await Promise.all([createTenant(), createTenant()]);
    const superAdmin = await createSuperAdmin();
    const domain = uniqueDomain();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const clientId = i % 2 === 0 ? a.clientId : b.clientId;
        return post(`/api/clients/${clientId}/domains`, { domain }, at(superAdmin.token)).then((res) => ({
          clientId,
          status: res.status,
          text: res.text,
        }));
      }),
    );
    const claim = (await adminDb.collection('email_domains').doc(domain).get()).data();
    const holder = claim?.client_id;
    assert.ok(holder === a.clientId || holder === b.clientId, JSON.stringify(claim));
    const won = results.filter((r) => r.clientId === holder).map((r) => r.status);
    const lost = results.filter((r) => r.clientId !== holder).map((r) => r.status);
    assert.equal(won.filter((s) => s === 201).length, 1, JSON.stringify(won));
    assert.ok(
      won.every((s) => s === 201 || s === 200),
      JSON.stringify(won),
    );
    assert.deepEqual(
      lost,
      lost.map(() => 409),
      JSON.stringify(results.filter((r) => r.clientId !== holder)),
    );
    const records = (await auditRecordsFor(superAdmin.uid, 'email_domain_bound')).filter(
      (r) => r.details.domain === domain,
    );
    assert.equal(records.length, 1);
    assert.equal(records[0].client_id, holder);
  });

  it('fifty identical joins of one account at once: one profile, one record, one role', async () => {
    const { clientId } = await createTenant();
    const domain = uniqueDomain();
    await adminDb
      .collection('email_domains')
      .doc(domain)
      .create({ domain, client_id: clientId, created_at: new Date().toISOString(), created_by: 'test' });
    const email = `fay@${domain}`;
    const session = await signInWithIdp(AUTH_HOST, 'google.com', {
      sub: `g-${randomUUID()}`,
      email,
      email_verified: true,
    });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => post('/api/users/me/join', undefined, at(session.idToken))),
    );
    const bodies = results.map((r) => (r.status === 200 ? r.body.outcome : `${r.status} ${r.text}`));
    assert.ok(
      bodies.every((b) => b === 'joined' || b === 'member'),
      JSON.stringify(bodies),
    );
    const profiles = await adminDb.collectionGroup('users').where('email', '==', email).get();
    assert.deepEqual(
      profiles.docs.map((d) => d.ref.path),
      [`clients/${clientId}/users/${session.uid}`],
    );
    assert.equal((await auditRecordsFor(session.uid, 'user_joined')).length, 1);
    assert.deepEqual((await adminAuth.getUser(session.uid)).customClaims, { role: 'student', client_id: clientId });
  });
});
