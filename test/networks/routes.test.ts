import assert from 'node:assert/strict';
import { adminDb } from '../support/admin';
import { expectError, expectValidation } from '../support/assertions';
import {
  auditRecordsFor,
  createClientDoc,
  createRoleMatrix,
  createSuperAdmin,
  createTenant,
  createUser,
  type RoleMatrix,
  type TestUser,
} from '../support/fixtures';
import { api, freshIp, get } from '../support/http';
import { awayFromWindowEdge } from '../support/windows';

// An organization's registered networks over real HTTP, with real Auth-emulator tokens.
// PUT is sensitive (10 per minute per user): a test that writes acts as an administrator of its own.

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const put = (clientId: string, body: unknown, token?: string, ip = freshIp()) =>
  api('PUT', `/api/clients/${clientId}/networks`, { token, body, ip });
const read = (clientId: string, token?: string, ip = freshIp()) =>
  get(`/api/clients/${clientId}/networks`, { token, ip });
const stored = async (clientId: string) => (await adminDb.doc(`clients/${clientId}/networks/registered`).get()).data();

describe('GET /api/clients/{clientId}/networks', () => {
  let m: RoleMatrix;
  let registered: Tenant;
  before(async () => {
    [m, registered] = await Promise.all([createRoleMatrix(), createTenant()]);
    const res = await put(
      registered.clientId,
      { networks: ['203.0.113.0/24', '2001:db8:1::/48'] },
      registered.admin.token,
    );
    assert.equal(res.status, 200, res.text);
  });

  it('answers an organization without networks { "networks": [] }', async () => {
    const res = await read(m.tenant.clientId, m.tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { networks: [] });
  });

  it("answers the organization's own Client Admin and a Super Admin the networks as stored, and nothing else", async () => {
    for (const token of [registered.admin.token, m.superAdmin.token]) {
      const res = await read(registered.clientId, token);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { networks: ['203.0.113.0/24', '2001:db8:1::/48'] });
    }
  });

  it("answers 403 FORBIDDEN to another organization's Client Admin, and shows none of its networks", async () => {
    const res = await read(registered.clientId, m.otherTenant.admin.token);
    expectError(res, 403, 'FORBIDDEN');
    assert.ok(!res.text.includes('203.0.113'), res.text);
  });

  it('answers 403 FORBIDDEN to a Student of the organization, a Guest and a user with no role', async () => {
    for (const token of [registered.student.token, m.guest.token, m.noRole.token])
      expectError(await read(registered.clientId, token), 403, 'FORBIDDEN');
  });

  it('answers 401 UNAUTHORIZED without a token', async () => {
    expectError(await read(registered.clientId), 401, 'UNAUTHORIZED');
  });

  it('answers 404 NOT_FOUND for an organization that does not exist, to a Super Admin and to a Client Admin', async () => {
    const id = `no-such-client-${Date.now()}`;
    expectError(await read(id, m.superAdmin.token), 404, 'NOT_FOUND');
    expectError(await read(id, m.tenant.admin.token), 404, 'NOT_FOUND');
  });

  it('answers 400 VALIDATION_ERROR naming params.clientId for an id longer than 128 characters', async () => {
    expectValidation(await read('x'.repeat(129), m.superAdmin.token), ['params.clientId']);
  });
});

describe('PUT /api/clients/{clientId}/networks', () => {
  let m: RoleMatrix;
  let tenant: Tenant;
  before(async () => {
    m = await createRoleMatrix();
  });
  beforeEach(async () => {
    tenant = await createTenant();
  });

  it("lets the organization's Client Admin register networks: 200 with them in canonical form, stored so, read back the same", async () => {
    const res = await put(
      tenant.clientId,
      { networks: ['203.0.113.0/24', '2001:DB8:1:0000::/48', ' 198.51.100.0/024 '] },
      tenant.admin.token,
    );
    assert.equal(res.status, 200, res.text);
    const canonical = ['203.0.113.0/24', '2001:db8:1::/48', '198.51.100.0/24'];
    assert.deepEqual(res.body, { networks: canonical });
    const doc = await stored(tenant.clientId);
    assert.deepEqual(doc?.networks, canonical);
    assert.equal(doc?.client_id, tenant.clientId);
    assert.equal(doc?.updated_by, tenant.admin.uid);
    assert.deepEqual((await read(tenant.clientId, tenant.admin.token)).body, { networks: canonical });
  });

  it("lets a Super Admin register any organization's networks", async () => {
    const superAdmin = await createSuperAdmin();
    const res = await put(tenant.clientId, { networks: ['10.20.0.0/16'] }, superAdmin.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual((await stored(tenant.clientId))?.networks, ['10.20.0.0/16']);
    assert.equal((await stored(tenant.clientId))?.updated_by, superAdmin.uid);
  });

  it("replaces the networks whole: a second PUT keeps none of the first's, and [] removes them all", async () => {
    assert.equal(
      (await put(tenant.clientId, { networks: ['203.0.113.0/24', '198.51.100.0/24'] }, tenant.admin.token)).status,
      200,
    );
    const second = await put(tenant.clientId, { networks: ['2001:db8:2::/48'] }, tenant.admin.token);
    assert.deepEqual(second.body, { networks: ['2001:db8:2::/48'] });
    assert.deepEqual((await read(tenant.clientId, tenant.admin.token)).body, { networks: ['2001:db8:2::/48'] });
    const emptied = await put(tenant.clientId, { networks: [] }, tenant.admin.token);
    assert.equal(emptied.status, 200, emptied.text);
    assert.deepEqual(emptied.body, { networks: [] });
    assert.deepEqual((await read(tenant.clientId, tenant.admin.token)).body, { networks: [] });
  });

  it("audits networks_set with who set which networks, those they replaced, and from where; listed by the audit log's event_type filter", async () => {
    const ip = freshIp();
    await put(tenant.clientId, { networks: ['203.0.113.0/24'] }, tenant.admin.token, ip);
    await put(tenant.clientId, { networks: ['2001:db8:1::/48', '198.51.100.0/24'] }, tenant.admin.token, ip);
    const records = await auditRecordsFor(tenant.admin.uid, 'networks_set');
    assert.equal(records.length, 2);
    const [latest] = records;
    assert.deepEqual(latest.details, {
      networks: ['2001:db8:1::/48', '198.51.100.0/24'],
      previous: ['203.0.113.0/24'],
    });
    assert.equal(latest.client_id, tenant.clientId);
    assert.equal(latest.actor_id, tenant.admin.uid);
    assert.equal(latest.success, true);
    assert.equal(latest.ip_address, ip);
    const listed = await get(`/api/audit-logs?event_type=networks_set&user_id=${tenant.admin.uid}`, {
      token: tenant.admin.token,
      ip,
    });
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body.data.length, 2);
    assert.ok(listed.body.data.every((r: any) => r.event_type === 'networks_set' && r.client_id === tenant.clientId));
  });

  it("answers 403 FORBIDDEN to another organization's Client Admin, and changes nothing", async () => {
    await put(tenant.clientId, { networks: ['203.0.113.0/24'] }, tenant.admin.token);
    const other = await createUser('client_admin', m.otherTenant.clientId);
    expectError(await put(tenant.clientId, { networks: ['0.0.0.0/16'] }, other.token), 403, 'FORBIDDEN');
    assert.deepEqual((await stored(tenant.clientId))?.networks, ['203.0.113.0/24']);
    assert.deepEqual(await auditRecordsFor(other.uid, 'networks_set'), []);
  });

  it('answers 403 FORBIDDEN to a Student of the organization, a Guest and a user with no role, and writes nothing', async () => {
    for (const token of [tenant.student.token, m.guest.token, m.noRole.token]) {
      expectError(await put(tenant.clientId, { networks: ['203.0.113.0/24'] }, token), 403, 'FORBIDDEN');
    }
    assert.equal(await stored(tenant.clientId), undefined);
  });

  it('answers 403 FORBIDDEN to the Client Admin of an organization that was deactivated', async () => {
    const inactive = await createClientDoc({ active_status: 0 });
    const admin = await createUser('client_admin', inactive.id);
    expectError(await put(inactive.id, { networks: ['203.0.113.0/24'] }, admin.token), 403, 'FORBIDDEN');
  });

  it('answers 401 UNAUTHORIZED without a token', async () => {
    expectError(await put(tenant.clientId, { networks: [] }), 401, 'UNAUTHORIZED');
  });

  it('answers 404 NOT_FOUND for an organization that does not exist, and creates nothing there', async () => {
    const id = `no-such-client-${Date.now()}`;
    expectError(await put(id, { networks: ['203.0.113.0/24'] }, tenant.admin.token), 404, 'NOT_FOUND');
    const superAdmin = await createSuperAdmin();
    expectError(await put(id, { networks: ['203.0.113.0/24'] }, superAdmin.token), 404, 'NOT_FOUND');
    assert.equal(await stored(id), undefined);
  });

  it('accepts 50 networks', async () => {
    const networks = Array.from({ length: 50 }, (_, i) => `10.${i}.0.0/16`);
    const res = await put(tenant.clientId, { networks }, tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.networks.length, 50);
  });

  it('answers 51 networks 400 VALIDATION_ERROR naming body.networks, and keeps the networks it had', async () => {
    await put(tenant.clientId, { networks: ['203.0.113.0/24'] }, tenant.admin.token);
    const networks = Array.from({ length: 51 }, (_, i) => `10.${i}.0.0/16`);
    expectValidation(await put(tenant.clientId, { networks }, tenant.admin.token), ['body.networks'], ['50']);
    assert.deepEqual((await stored(tenant.clientId))?.networks, ['203.0.113.0/24']);
  });

  it('answers 400 VALIDATION_ERROR naming each bad item by its index: too short a prefix, host bits, IPv4-mapped, not a prefix', async () => {
    const res = await put(
      tenant.clientId,
      {
        networks: [
          '203.0.113.0/24',
          '10.0.0.0/15',
          '2001:db8::/31',
          '203.0.113.1/24',
          '::ffff:203.0.113.0/120',
          'school',
          '203.0.113.0',
          7,
        ],
      },
      tenant.admin.token,
    );
    expectValidation(
      res,
      [
        'body.networks.1',
        'body.networks.2',
        'body.networks.3',
        'body.networks.4',
        'body.networks.5',
        'body.networks.6',
        'body.networks.7',
      ],
      ['/16', '/32', 'Host bits', 'IPv4 notation'],
    );
    assert.ok(!res.body.details.some((d: any) => d.path === 'body.networks.0'), 'the good item is not named');
    assert.equal(await stored(tenant.clientId), undefined, 'nothing is saved');
  });

  it('answers 400 VALIDATION_ERROR naming the item that repeats another once both are canonical', async () => {
    const res = await put(
      tenant.clientId,
      { networks: ['2001:db8:1::/48', '198.51.100.0/24', '2001:DB8:0001::/48'] },
      tenant.admin.token,
    );
    expectValidation(res, ['body.networks.2'], ['item 0']);
    assert.equal(await stored(tenant.clientId), undefined);
  });

  it('answers 400 VALIDATION_ERROR to a body without networks, with another field, or networks not an array', async () => {
    expectValidation(await put(tenant.clientId, {}, tenant.admin.token), ['body.networks']);
    expectValidation(await put(tenant.clientId, { networks: [], note: 'x' }, tenant.admin.token), ['body']);
    expectValidation(await put(tenant.clientId, { networks: '203.0.113.0/24' }, tenant.admin.token), ['body.networks']);
  });

  it('counts PUTs against the 10-per-minute sensitive limit of the caller: the 11th answers 429 RATE_LIMITED, even when the others were refused', async () => {
    await awayFromWindowEdge();
    const admin: TestUser = await createUser('client_admin', tenant.clientId);
    for (let i = 0; i < 10; i++)
      assert.equal((await put(tenant.clientId, { networks: ['x'] }, admin.token)).status, 400);
    expectError(await put(tenant.clientId, { networks: [] }, admin.token), 429, 'RATE_LIMITED');
    assert.equal(
      (await put(tenant.clientId, { networks: [] }, tenant.admin.token)).status,
      200,
      'another admin has its own budget',
    );
  });
});
