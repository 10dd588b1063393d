import assert from 'node:assert/strict';
import { adminDb } from '../support/admin';
import { auditRecordsFor, createRoleMatrix, createSuperAdmin, type RoleMatrix } from '../support/fixtures';
import { del, freshIp, get, post } from '../support/http';
import { expectError, ISO_UTC } from '../support/assertions';

// Email domains bound to an organization, over real HTTP with real Auth-emulator tokens.
// Binding is sensitive (10 per minute per user): tests that bind many use Super Admins of their own.

const uniqueDomain = () => `school-${Math.random().toString(36).slice(2, 10)}.example.edu`;
const claimOf = async (domain: string) => (await adminDb.collection('email_domains').doc(domain).get()).data();

describe('email domains of an organization', () => {
  let m: RoleMatrix;
  before(async () => {
    m = await createRoleMatrix();
  });

  it('a Super Admin binds a domain, normalized, and lists it', async () => {
    const ip = freshIp();
    const domain = uniqueDomain();
    const res = await post(
      `/api/clients/${m.tenant.clientId}/domains`,
      { domain: `  ${domain.toUpperCase()}. ` },
      {
        token: m.superAdmin.token,
        ip,
      },
    );
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['client_id', 'created_at', 'domain']);
    assert.equal(res.body.domain, domain);
    assert.equal(res.body.client_id, m.tenant.clientId);
    assert.match(res.body.created_at, ISO_UTC);
    assert.equal((await claimOf(domain))?.client_id, m.tenant.clientId);

    const list = await get(`/api/clients/${m.tenant.clientId}/domains`, { token: m.superAdmin.token, ip });
    assert.equal(list.status, 200, list.text);
    assert.ok(list.body.domains.some((d: any) => d.domain === domain));

    const [record] = await auditRecordsFor(m.superAdmin.uid, 'email_domain_bound');
    assert.equal(record.client_id, m.tenant.clientId);
    assert.equal(record.details.domain, domain);
  });

  it('keeps an internationalized domain in ASCII (IDNA)', async () => {
    const label = Math.random().toString(36).slice(2, 10);
    const res = await post(
      `/api/clients/${m.tenant.clientId}/domains`,
      { domain: `schüle-x1.${label}.example` },
      {
        token: m.superAdmin.token,
        ip: freshIp(),
      },
    );
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.domain, `xn--schle-x1-85a.${label}.example`);
  });

  it('binding it again to the same organization is 200, recorded once', async () => {
    const sa = await createSuperAdmin();
    const domain = uniqueDomain();
    const path = `/api/clients/${m.tenant.clientId}/domains`;
    assert.equal((await post(path, { domain }, { token: sa.token, ip: freshIp() })).status, 201);
    const again = await post(path, { domain }, { token: sa.token, ip: freshIp() });
    assert.equal(again.status, 200, again.text);
    assert.equal((await auditRecordsFor(sa.uid, 'email_domain_bound')).length, 1);
  });

  it('a domain bound to one organization is 409 for another', async () => {
    const domain = uniqueDomain();
    const ip = freshIp();
    assert.equal(
      (await post(`/api/clients/${m.tenant.clientId}/domains`, { domain }, { token: m.superAdmin.token, ip })).status,
      201,
    );
    const res = await post(
      `/api/clients/${m.otherTenant.clientId}/domains`,
      { domain },
      { token: m.superAdmin.token, ip },
    );
    expectError(res, 409, 'CONFLICT');
    assert.equal((await claimOf(domain))?.client_id, m.tenant.clientId);
  });

  for (const domain of ['gmail.com', 'Outlook.com', 'hotmail.co.uk', 'yahoo.fr', 'icloud.com'])
    it(`refuses ${domain}: anyone has an address there`, async () => {
      // A Super Admin of its own: the refusals count against the per-user limit of the sensitive routes.
      const res = await post(
        `/api/clients/${m.tenant.clientId}/domains`,
        { domain },
        {
          token: (await createSuperAdmin()).token,
          ip: freshIp(),
        },
      );
      expectError(res, 400, 'VALIDATION_ERROR');
      assert.match(res.body.message, /public mail service/);
    });

  for (const domain of ['localhost', 'not a domain', 'ann@school.edu', 'https://school.edu', '127.0.0.1'])
    it(`refuses ${JSON.stringify(domain)}: not a domain`, async () => {
      // A Super Admin of its own: the refusals count against the per-user limit of the sensitive routes.
      const res = await post(
        `/api/clients/${m.tenant.clientId}/domains`,
        { domain },
        {
          token: (await createSuperAdmin()).token,
          ip: freshIp(),
        },
      );
      expectError(res, 400, 'VALIDATION_ERROR');
    });

  it('only a Super Admin binds, lists or unbinds', async () => {
    const path = `/api/clients/${m.tenant.clientId}/domains`;
    for (const token of [m.tenant.admin.token, m.tenant.student.token, m.guest.token, m.noRole.token]) {
      const ip = freshIp();
      expectError(await post(path, { domain: uniqueDomain() }, { token, ip }), 403, 'FORBIDDEN');
      expectError(await get(path, { token, ip }), 403, 'FORBIDDEN');
      expectError(await del(`${path}/school.example.edu`, { token, ip }), 403, 'FORBIDDEN');
    }
  });

  it('an organization that does not exist is 404', async () => {
    const res = await post(
      '/api/clients/no-such-client/domains',
      { domain: uniqueDomain() },
      {
        token: (await createSuperAdmin()).token,
        ip: freshIp(),
      },
    );
    expectError(res, 404, 'NOT_FOUND');
  });

  it('unbinds only the organization’s own domain, audited', async () => {
    const sa = await createSuperAdmin();
    const domain = uniqueDomain();
    const ip = freshIp();
    await post(`/api/clients/${m.tenant.clientId}/domains`, { domain }, { token: sa.token, ip });
    expectError(
      await del(`/api/clients/${m.otherTenant.clientId}/domains/${domain}`, { token: sa.token, ip }),
      404,
      'NOT_FOUND',
    );
    assert.ok(await claimOf(domain));
    const res = await del(`/api/clients/${m.tenant.clientId}/domains/${domain.toUpperCase()}`, { token: sa.token, ip });
    assert.equal(res.status, 204, res.text);
    assert.equal(await claimOf(domain), undefined);
    assert.equal((await auditRecordsFor(sa.uid, 'email_domain_unbound')).length, 1);
  });
  // Two organizations claiming one domain at once: test/users/schoolSignIn.concurrency.inProcess.test.ts.
});
