import { DEFAULT_INVITATION_DAYS } from '../../functions/src/clients';
import assert from 'node:assert/strict';
import { adminDb } from '../support/admin';
import {
  createClientDoc,
  createRoleMatrix,
  createSuperAdmin,
  createTenant,
  uniqueName,
  type RoleMatrix,
  type TestUser,
} from '../support/fixtures';
import { api, freshIp, get, patch, post } from '../support/http';
import { expectError, expectValidation, ISO_UTC } from '../support/assertions';
import { awayFromWindowEdge } from '../support/windows';

// Clients endpoints over real HTTP, with real Auth-emulator tokens.
// POST /api/clients is sensitive (10 per minute per user), so tests that create
// clients use a Super Admin of their own; every test speaks from its own IP.

const CLIENT_FIELDS = [
  'active_status',
  'address',
  'created_at',
  'id',
  'invitation_days',
  'logo_url',
  'name',
  'updated_at',
];

/** A fixture's organization as the API answers it: the invitation days it was given none of are the default. */
const asReplied = (client: object) => ({ invitation_days: DEFAULT_INVITATION_DAYS, ...client });

function assertClient(body: any): void {
  assert.deepEqual(Object.keys(body).sort(), CLIENT_FIELDS, JSON.stringify(body));
  assert.equal(typeof body.id, 'string');
  assert.ok(body.id.length > 0);
  assert.ok(body.active_status === 0 || body.active_status === 1);
  assert.match(body.created_at, ISO_UTC);
  assert.match(body.updated_at, ISO_UTC);
}

const clientInput = (name = uniqueName('Academy')) => ({
  name,
  address: '10 Exam Road, Springfield',
  logo_url: 'https://cdn.example.com/logo.png',
});

const storedClient = async (id: string) => (await adminDb.collection('clients').doc(id).get()).data();

/** Every page of GET /api/clients with this limit, checking that the pagination adds up. */
async function allClientPages(token: string, ip: string, limit: number, query = '') {
  const clients: any[] = [];
  let pages = 1;
  let total = 0;
  for (let page = 1; page <= pages; page++) {
    const res = await get(`/api/clients?page=${page}&limit=${limit}${query}`, { token, ip });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['clients', 'pagination']);
    if (page === 1) ({ pages, total } = res.body.pagination);
    const { next_cursor, ...numbers } = res.body.pagination;
    assert.deepEqual(numbers, { page, limit, total, pages: Math.ceil(total / limit) });
    if (page < pages) assert.equal(typeof next_cursor, 'string', `page ${page} of ${pages} offers a cursor`);
    else assert.equal(next_cursor, null, 'the last page offers no cursor');
    const expected = page < pages ? limit : total - (pages - 1) * limit;
    assert.equal(res.body.clients.length, expected, `page ${page} of ${pages} holds ${expected}`);
    clients.push(...res.body.clients);
  }
  return { clients, total, pages };
}

// Firestore orders strings by UTF-8 bytes, which for these ASCII names is code-unit order.
const isSortedByName = (clients: Array<{ name: string }>) =>
  clients.every((c, i) => i === 0 || clients[i - 1].name <= c.name);

describe('GET /api/clients', () => {
  let m: RoleMatrix;
  let ip: string;
  before(async () => {
    m = await createRoleMatrix();
  });
  beforeEach(() => {
    ip = freshIp();
  });

  it('answers a Super Admin 200 with `clients` and `pagination`, page 1 of 20 by default', async () => {
    const res = await get('/api/clients', { token: m.superAdmin.token, ip });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['clients', 'pagination']);
    const { total } = res.body.pagination;
    assert.ok(total >= 2, 'the two organizations of the fixture are counted');
    const { next_cursor, ...numbers } = res.body.pagination;
    assert.deepEqual(numbers, { page: 1, limit: 20, total, pages: Math.ceil(total / 20) });
    assert.equal(next_cursor === null, total <= 20, 'a cursor exactly when there is a next page');
    assert.equal(res.body.clients.length, Math.min(20, total));
    res.body.clients.forEach(assertClient);
  });

  it('lists every client exactly once, by name, over pages whose pagination adds up', async () => {
    const first = await get('/api/clients?limit=1', { token: m.superAdmin.token, ip });
    assert.equal(first.status, 200, first.text);
    const limit = Math.min(100, Math.max(1, Math.ceil(first.body.pagination.total / 3)));
    const { clients, total, pages } = await allClientPages(m.superAdmin.token, ip, limit);
    assert.equal(total, first.body.pagination.total);
    assert.ok(pages >= 2, 'the walk crosses pages');
    assert.equal(clients.length, total);
    assert.equal(new Set(clients.map((c) => c.id)).size, total, 'no client on two pages');
    assert.ok(isSortedByName(clients), 'ordered by name');
    for (const tenant of [m.tenant, m.otherTenant]) {
      assert.deepEqual(
        clients.find((c) => c.id === tenant.clientId),
        asReplied(tenant.client),
        'each client as stored',
      );
    }
  });

  it('answers an empty page past the last one, with the same totals', async () => {
    const first = await get('/api/clients?limit=5', { token: m.superAdmin.token, ip });
    const { total, pages } = first.body.pagination;
    const res = await get(`/api/clients?limit=5&page=${pages + 1}`, { token: m.superAdmin.token, ip });
    assert.equal(res.status, 200, res.text);
    // Other files make organizations meanwhile (the list is the whole project's): its totals are its own, as many or more.
    const after = res.body.pagination;
    assert.ok(after.total >= total, `${after.total} organizations after ${total}`);
    if (after.pages > pages) return; // a whole page was made meanwhile: the page asked for is no longer past the last
    assert.deepEqual(res.body, {
      clients: [],
      pagination: { page: pages + 1, limit: 5, total: after.total, pages, next_cursor: null },
    });
  });

  it('filters by active_status', async () => {
    const inactive = await createClientDoc({ active_status: 0 });
    const zero = await allClientPages(m.superAdmin.token, ip, 100, '&active_status=0');
    assert.ok(
      zero.clients.some((c) => c.id === inactive.id),
      'the deactivated client is listed',
    );
    assert.ok(zero.clients.every((c) => c.active_status === 0));
    const one = await allClientPages(m.superAdmin.token, ip, 100, '&active_status=1');
    assert.ok(one.clients.some((c) => c.id === m.tenant.clientId));
    assert.ok(one.clients.every((c) => c.active_status === 1));
    assert.ok(!one.clients.some((c) => c.id === inactive.id));
  });

  it('answers 403 FORBIDDEN to a Client Admin', async () => {
    expectError(await get('/api/clients', { token: m.tenant.admin.token, ip }), 403, 'FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to a Student', async () => {
    expectError(await get('/api/clients', { token: m.tenant.student.token, ip }), 403, 'FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to an anonymous Guest', async () => {
    expectError(await get('/api/clients', { token: m.guest.token, ip }), 403, 'FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to a signed-in user with no role', async () => {
    expectError(await get('/api/clients', { token: m.noRole.token, ip }), 403, 'FORBIDDEN');
  });

  it('answers 401 UNAUTHORIZED without a token', async () => {
    expectError(await get('/api/clients', { ip }), 401, 'UNAUTHORIZED');
  });

  it('answers 401 UNAUTHORIZED to a token that is not an ID token', async () => {
    expectError(await get('/api/clients', { token: 'not.a.token', ip }), 401, 'UNAUTHORIZED');
  });

  for (const [query, path] of [
    ['page=0', 'query.page'],
    ['page=-1', 'query.page'],
    ['page=1.5', 'query.page'],
    ['page=abc', 'query.page'],
    ['limit=0', 'query.limit'],
    ['limit=101', 'query.limit'],
    ['limit=ten', 'query.limit'],
    ['active_status=2', 'query.active_status'],
  ]) {
    it(`answers 400 VALIDATION_ERROR naming ${path} for ?${query}`, async () => {
      expectValidation(await get(`/api/clients?${query}`, { token: m.superAdmin.token, ip }), [path]);
    });
  }

  it('accepts the limits of a page: limit 1 and limit 100', async () => {
    for (const limit of [1, 100]) {
      const res = await get(`/api/clients?limit=${limit}`, { token: m.superAdmin.token, ip });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.pagination.limit, limit);
    }
  });

  it('answers 400 VALIDATION_ERROR to an unknown query parameter', async () => {
    expectValidation(await get('/api/clients?sort=name', { token: m.superAdmin.token, ip }), [], ['sort']);
  });
});

describe('POST /api/clients', () => {
  let m: RoleMatrix;
  let superAdmin: TestUser;
  let ip: string;
  before(async () => {
    m = await createRoleMatrix();
  });
  beforeEach(async () => {
    ip = freshIp();
    superAdmin = await createSuperAdmin();
  });

  const create = (body: unknown, token = superAdmin.token) => post('/api/clients', body, { token, ip });

  it('creates an active client and answers 201 with it', async () => {
    const input = clientInput();
    const before = Date.now();
    const res = await create(input);
    assert.equal(res.status, 201, res.text);
    assertClient(res.body);
    assert.equal(res.body.name, input.name);
    assert.equal(res.body.address, input.address);
    assert.equal(res.body.logo_url, input.logo_url);
    assert.equal(res.body.active_status, 1);
    assert.equal(res.body.updated_at, res.body.created_at);
    const created = Date.parse(res.body.created_at);
    assert.ok(created >= before - 5000 && created <= Date.now() + 5000, 'created_at is now');
    const read = await get(`/api/clients/${res.body.id}`, { token: superAdmin.token, ip });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body, res.body);
  });

  it('gives every client its own id', async () => {
    const [a, b] = await Promise.all([create(clientInput()), create(clientInput())]);
    assert.equal(a.status, 201, a.text);
    assert.equal(b.status, 201, b.text);
    assert.notEqual(a.body.id, b.body.id);
  });

  it('stores name and address without surrounding spaces', async () => {
    const name = uniqueName('Spaced');
    const res = await create({ ...clientInput(), name: `  ${name}  `, address: ' 1 Road ' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.name, name);
    assert.equal(res.body.address, '1 Road');
  });

  it('answers 409 CONFLICT when a client with the same name exists, whatever its case', async () => {
    const name = uniqueName('Conflict Academy');
    assert.equal((await create(clientInput(name))).status, 201);
    expectError(await create(clientInput(name)), 409, 'CONFLICT');
    expectError(await create(clientInput(name.toUpperCase())), 409, 'CONFLICT');
    expectError(await create(clientInput(name.toLowerCase())), 409, 'CONFLICT');
    expectError(await create(clientInput(`  ${name.replace(' ', '   ')} `)), 409, 'CONFLICT');
    const stored = await adminDb.collection('clients').where('name', '==', name).get();
    assert.equal(stored.size, 1, 'only the first one was stored');
  });

  it('treats names that differ only in Unicode composition (é vs e + ´) as the same name', async () => {
    const base = uniqueName('Ecole');
    assert.equal((await create(clientInput(`${base} Caf\u00e9`))).status, 201);
    expectError(await create(clientInput(`${base} Cafe\u0301`)), 409, 'CONFLICT');
  });

  it('answers exactly one 201 and one 409 CONFLICT to two simultaneous creates with the same name', async () => {
    const name = uniqueName('Race Academy');
    const results = await Promise.all([create(clientInput(name)), create(clientInput(name))]);
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [201, 409], results.map((r) => r.text).join('\n'));
    expectError(
      results.find((r) => r.status === 409)!,
      409,
      'CONFLICT',
    );
    const stored = await adminDb.collection('clients').where('name', '==', name).get();
    assert.equal(stored.size, 1, 'only the winner was stored');
    assert.equal(stored.docs[0].id, results.find((r) => r.status === 201)!.body.id);
  });

  it('answers exactly one 201 and one 409 CONFLICT to two simultaneous creates whose names differ only in case', async () => {
    const name = uniqueName('Race Case');
    const results = await Promise.all([create(clientInput(name)), create(clientInput(name.toUpperCase()))]);
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 409], results.map((r) => r.text).join('\n'));
  });

  it('counts creates against the 10-per-minute sensitive limit of the caller: the 11th answers 429 RATE_LIMITED, even when the others were refused', async () => {
    await awayFromWindowEdge();
    for (let i = 0; i < 10; i++) {
      const res = await post('/api/clients', { name: '' }, { token: superAdmin.token, ip: freshIp() });
      assert.equal(res.status, 400, res.text);
    }
    const refused = await create(clientInput());
    expectError(refused, 429, 'RATE_LIMITED');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1, 'Retry-After is set');
    const other = await createSuperAdmin();
    assert.equal((await create(clientInput(), other.token)).status, 201, 'another Super Admin has its own budget');
  });

  it('accepts any name up to 200 characters, however unusual for a database key', async () => {
    const tag = uniqueName('').trim();
    const names = [
      `A/B Academy ${tag}`,
      `..`,
      `__${tag}__`,
      `100% #1 ? Academy & Co ${tag}`,
      `${tag}${'学'.repeat(200 - tag.length)}`,
    ];
    for (const name of names) {
      // `..` cannot be made unique per run: on an emulator that ran this test before, it is taken.
      const taken = (await adminDb.collection('clients').where('name', '==', name).get()).size > 0;
      const res = await create(clientInput(name));
      if (taken) {
        expectError(res, 409, 'CONFLICT');
        continue;
      }
      assert.equal(res.status, 201, `${name}: ${res.text}`);
      assert.equal(res.body.name, name);
    }
    expectError(await create(clientInput(`a/b academy ${tag}`)), 409, 'CONFLICT');
  });

  it('answers 403 FORBIDDEN to a Client Admin, and creates nothing', async () => {
    const input = clientInput();
    expectError(await create(input, m.tenant.admin.token), 403, 'FORBIDDEN');
    assert.equal((await create(input)).status, 201, 'the refused name is still free');
  });

  it('answers 403 FORBIDDEN to a Student', async () => {
    expectError(await create(clientInput(), m.tenant.student.token), 403, 'FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to an anonymous Guest', async () => {
    expectError(await create(clientInput(), m.guest.token), 403, 'FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to a signed-in user with no role', async () => {
    expectError(await create(clientInput(), m.noRole.token), 403, 'FORBIDDEN');
  });

  it('answers 401 UNAUTHORIZED without a token, and creates nothing', async () => {
    const input = clientInput();
    expectError(await post('/api/clients', input, { ip }), 401, 'UNAUTHORIZED');
    const stored = await adminDb.collection('clients').where('name', '==', input.name).get();
    assert.equal(stored.size, 0);
  });

  for (const logo_url of [
    'http://cdn.example.com/logo.png',
    'ftp://cdn.example.com/logo.png',
    'javascript:alert(1)',
    'not a url',
    '',
  ]) {
    it(`answers 400 VALIDATION_ERROR naming body.logo_url for ${JSON.stringify(logo_url)}`, async () => {
      expectValidation(await create({ ...clientInput(), logo_url }), ['body.logo_url']);
    });
  }

  it('answers 400 VALIDATION_ERROR naming each missing field', async () => {
    expectValidation(await create({}), ['body.name', 'body.address', 'body.logo_url']);
  });

  it('answers 400 VALIDATION_ERROR to an empty or blank name, and to a name over 200 characters', async () => {
    expectValidation(await create({ ...clientInput(), name: '' }), ['body.name']);
    expectValidation(await create({ ...clientInput(), name: '   ' }), ['body.name']);
    expectValidation(await create({ ...clientInput(), name: 'x'.repeat(201) }), ['body.name']);
  });

  it('answers 400 VALIDATION_ERROR to fields that are not strings', async () => {
    expectValidation(await create({ name: 42, address: ['x'], logo_url: null }), [
      'body.name',
      'body.address',
      'body.logo_url',
    ]);
  });

  it('answers 400 VALIDATION_ERROR to unknown fields such as active_status or id, naming them', async () => {
    expectValidation(await create({ ...clientInput(), active_status: 0 }), [], ['active_status']);
    expectValidation(await create({ ...clientInput(), id: 'chosen-id' }), [], ['id']);
  });

  it('answers 400 VALIDATION_ERROR to malformed JSON and to a body that is not JSON', async () => {
    const token = superAdmin.token;
    expectError(
      await api('POST', '/api/clients', { token, ip, rawBody: '{"name": ', contentType: 'application/json' }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await api('POST', '/api/clients', { token, ip, rawBody: 'name=x', contentType: 'text/plain' }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('answers 400 VALIDATION_ERROR to a JSON body that is not an object', async () => {
    expectValidation(await create([clientInput()]), ['body']);
  });
});

describe('GET /api/clients/{clientId}', () => {
  let m: RoleMatrix;
  let inactive: Awaited<ReturnType<typeof createTenant>>;
  let ip: string;
  before(async () => {
    [m, inactive] = await Promise.all([createRoleMatrix(), createTenant({ active_status: 0 })]);
  });
  beforeEach(() => {
    ip = freshIp();
  });

  const read = (clientId: string, token?: string) => get(`/api/clients/${clientId}`, { token, ip });
  const missing = () => `no-such-client-${Date.now()}`;

  it('answers a Super Admin 200 with any client', async () => {
    for (const tenant of [m.tenant, m.otherTenant, inactive]) {
      const res = await read(tenant.clientId, m.superAdmin.token);
      assert.equal(res.status, 200, res.text);
      assertClient(res.body);
      assert.deepEqual(res.body, asReplied(tenant.client));
    }
  });

  it('answers a Client Admin 200 with its own organization', async () => {
    const res = await read(m.tenant.clientId, m.tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, asReplied(m.tenant.client));
  });

  it('answers a Student 200 with its own organization', async () => {
    const res = await read(m.tenant.clientId, m.tenant.student.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, asReplied(m.tenant.client));
  });

  it('answers 403 FORBIDDEN to a Client Admin asking for another organization', async () => {
    expectError(await read(m.otherTenant.clientId, m.tenant.admin.token), 403, 'FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to a Student asking for another organization', async () => {
    expectError(await read(m.otherTenant.clientId, m.tenant.student.token), 403, 'FORBIDDEN');
  });

  it('answers 404 NOT_FOUND for a client that does not exist, to a Super Admin, Client Admin or Student', async () => {
    for (const token of [m.superAdmin.token, m.tenant.admin.token, m.tenant.student.token]) {
      expectError(await read(missing(), token), 404, 'NOT_FOUND');
    }
  });

  it('answers 404 NOT_FOUND, not an error, for ids that could never name a document', async () => {
    for (const id of ['__reserved__', 'a%2Fb', '%2F']) {
      expectError(await read(id, m.superAdmin.token), 404, 'NOT_FOUND');
    }
  });

  it('answers 400 VALIDATION_ERROR naming params.clientId for an id over 128 characters', async () => {
    expectValidation(await read('x'.repeat(129), m.superAdmin.token), ['params.clientId']);
  });

  it('answers 403 FORBIDDEN to an anonymous Guest, for any organization', async () => {
    expectError(await read(m.tenant.clientId, m.guest.token), 403, 'FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to a signed-in user with no role', async () => {
    expectError(await read(m.tenant.clientId, m.noRole.token), 403, 'FORBIDDEN');
  });

  it('answers 401 UNAUTHORIZED without a token', async () => {
    expectError(await read(m.tenant.clientId), 401, 'UNAUTHORIZED');
  });

  it('answers 403 FORBIDDEN to the Client Admin and Student of a deactivated client, even for their own', async () => {
    expectError(await read(inactive.clientId, inactive.admin.token), 403, 'FORBIDDEN');
    expectError(await read(inactive.clientId, inactive.student.token), 403, 'FORBIDDEN');
    const me = await get('/api/me', { token: inactive.admin.token, ip });
    assert.equal(me.status, 200, 'GET /api/me still answers them');
    assert.equal(me.body.client_id, inactive.clientId);
  });
});

describe('PATCH /api/clients/{clientId}', () => {
  let m: RoleMatrix;
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let ip: string;
  before(async () => {
    m = await createRoleMatrix();
  });
  beforeEach(async () => {
    ip = freshIp();
    tenant = await createTenant();
  });

  const change = (clientId: string, body: unknown, token?: string) =>
    patch(`/api/clients/${clientId}`, body, { token, ip });

  it('lets a Super Admin change the name, address and logo of any client, and answers 200 with it', async () => {
    const input = clientInput();
    const res = await change(tenant.clientId, input, m.superAdmin.token);
    assert.equal(res.status, 200, res.text);
    assertClient(res.body);
    assert.deepEqual(
      { ...res.body, updated_at: undefined },
      { ...asReplied(tenant.client), ...input, updated_at: undefined },
      'only the fields sent changed',
    );
    assert.equal(res.body.created_at, tenant.client.created_at);
    assert.ok(res.body.updated_at > tenant.client.updated_at, 'updated_at moves forward');
    const read = await get(`/api/clients/${tenant.clientId}`, { token: tenant.admin.token, ip });
    assert.deepEqual(read.body, res.body);
  });

  it('changes only the fields sent', async () => {
    const res = await change(tenant.clientId, { address: '99 Other Street' }, m.superAdmin.token);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.address, '99 Other Street');
    assert.equal(res.body.name, tenant.client.name);
    assert.equal(res.body.logo_url, tenant.client.logo_url);
  });

  it('lets a Client Admin change the name, address and logo of its own organization', async () => {
    const input = clientInput();
    const res = await change(tenant.clientId, input, tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.name, input.name);
    assert.equal(res.body.address, input.address);
    assert.equal(res.body.logo_url, input.logo_url);
    assert.equal((await storedClient(tenant.clientId))?.name, input.name);
  });

  it('lets a Super Admin deactivate a client: its users then get 403 on tenant endpoints, GET /api/me still works, and reactivation restores access', async () => {
    const off = await change(tenant.clientId, { active_status: 0 }, m.superAdmin.token);
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.active_status, 0);
    expectError(await get(`/api/clients/${tenant.clientId}`, { token: tenant.admin.token, ip }), 403, 'FORBIDDEN');
    expectError(await get(`/api/clients/${tenant.clientId}`, { token: tenant.student.token, ip }), 403, 'FORBIDDEN');
    expectError(await change(tenant.clientId, { address: 'x street' }, tenant.admin.token), 403, 'FORBIDDEN');
    expectError(await get('/api/users', { token: tenant.admin.token, ip }), 403, 'FORBIDDEN');
    for (const user of [tenant.admin, tenant.student]) {
      const me = await get('/api/me', { token: user.token, ip });
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body.role, user.role);
      assert.equal(me.body.client_id, tenant.clientId);
    }
    const on = await change(tenant.clientId, { active_status: 1 }, m.superAdmin.token);
    assert.equal(on.status, 200, on.text);
    assert.equal((await get(`/api/clients/${tenant.clientId}`, { token: tenant.admin.token, ip })).status, 200);
  });

  it('answers 403 FORBIDDEN to a Client Admin changing active_status, even of its own organization, and changes nothing', async () => {
    expectError(
      await change(tenant.clientId, { active_status: 0, address: 'changed' }, tenant.admin.token),
      403,
      'FORBIDDEN',
    );
    assert.deepEqual(await storedClient(tenant.clientId), tenant.client);
  });

  it('answers 403 FORBIDDEN to a Client Admin changing another organization, and changes nothing', async () => {
    expectError(
      await change(m.otherTenant.clientId, { name: uniqueName('Hijack') }, tenant.admin.token),
      403,
      'FORBIDDEN',
    );
    assert.deepEqual(await storedClient(m.otherTenant.clientId), m.otherTenant.client);
  });

  it('answers 404 NOT_FOUND for a client that does not exist, to a Super Admin and to a Client Admin', async () => {
    const id = `no-such-client-${Date.now()}`;
    expectError(await change(id, { address: 'x' }, m.superAdmin.token), 404, 'NOT_FOUND');
    expectError(await change(id, { address: 'x' }, tenant.admin.token), 404, 'NOT_FOUND');
    assert.equal((await adminDb.collection('clients').doc(id).get()).exists, false, 'a PATCH creates nothing');
  });

  it('answers 404 NOT_FOUND, not an error, for ids that could never name a document', async () => {
    for (const id of ['__reserved__', 'a%2Fb', '%2F']) {
      expectError(await change(id, { address: 'x' }, m.superAdmin.token), 404, 'NOT_FOUND');
    }
  });

  it('answers 403 FORBIDDEN to a Student, even for its own organization', async () => {
    expectError(await change(tenant.clientId, { address: 'x' }, tenant.student.token), 403, 'FORBIDDEN');
    assert.deepEqual(await storedClient(tenant.clientId), tenant.client);
  });

  it('answers 403 FORBIDDEN to an anonymous Guest', async () => {
    expectError(await change(tenant.clientId, { address: 'x' }, m.guest.token), 403, 'FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to a signed-in user with no role', async () => {
    expectError(await change(tenant.clientId, { address: 'x' }, m.noRole.token), 403, 'FORBIDDEN');
  });

  it('answers 401 UNAUTHORIZED without a token', async () => {
    expectError(await change(tenant.clientId, { address: 'x' }), 401, 'UNAUTHORIZED');
    assert.deepEqual(await storedClient(tenant.clientId), tenant.client);
  });

  it('answers 403 FORBIDDEN to the Client Admin of a deactivated client', async () => {
    const inactive = await createTenant({ active_status: 0 });
    expectError(await change(inactive.clientId, { address: 'x' }, inactive.admin.token), 403, 'FORBIDDEN');
  });

  it('answers 409 CONFLICT when renaming to the name of another client, whatever its case, and keeps the old name', async () => {
    const superAdmin = await createSuperAdmin();
    const taken = await post('/api/clients', clientInput(), { token: superAdmin.token, ip });
    assert.equal(taken.status, 201, taken.text);
    expectError(await change(tenant.clientId, { name: taken.body.name }, tenant.admin.token), 409, 'CONFLICT');
    expectError(
      await change(tenant.clientId, { name: taken.body.name.toUpperCase() }, m.superAdmin.token),
      409,
      'CONFLICT',
    );
    assert.equal((await storedClient(tenant.clientId))?.name, tenant.client.name);
  });

  it('frees the old name and takes the new one on a rename', async () => {
    const superAdmin = await createSuperAdmin();
    const created = await post('/api/clients', clientInput(), { token: superAdmin.token, ip });
    assert.equal(created.status, 201, created.text);
    const oldName = created.body.name;
    const newName = uniqueName('Renamed Academy');
    assert.equal((await change(created.body.id, { name: newName }, superAdmin.token)).status, 200);
    expectError(
      await post('/api/clients', clientInput(newName.toLowerCase()), { token: superAdmin.token, ip }),
      409,
      'CONFLICT',
    );
    assert.equal((await post('/api/clients', clientInput(oldName), { token: superAdmin.token, ip })).status, 201);
  });

  it('answers exactly one 200 and one 409 CONFLICT to two clients renamed to the same name at once', async () => {
    const name = uniqueName('Contested Name');
    const other = await createTenant();
    const results = await Promise.all([
      change(tenant.clientId, { name }, m.superAdmin.token),
      change(other.clientId, { name: name.toUpperCase() }, m.superAdmin.token),
    ]);
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 409], results.map((r) => r.text).join('\n'));
    const holders = await Promise.all([storedClient(tenant.clientId), storedClient(other.clientId)]);
    assert.equal(
      holders.filter((c) => c?.name.toLowerCase() === name.toLowerCase()).length,
      1,
      'one client holds the name',
    );
  });

  it('lets a client change the case of its own name, and still guards it', async () => {
    const superAdmin = await createSuperAdmin();
    const created = await post('/api/clients', clientInput(), { token: superAdmin.token, ip });
    const res = await change(created.body.id, { name: created.body.name.toUpperCase() }, superAdmin.token);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.name, created.body.name.toUpperCase());
    expectError(
      await post('/api/clients', clientInput(created.body.name), { token: superAdmin.token, ip }),
      409,
      'CONFLICT',
    );
  });

  it('answers 400 VALIDATION_ERROR naming body.logo_url for a logo that is not https', async () => {
    expectValidation(await change(tenant.clientId, { logo_url: 'http://cdn.example.com/l.png' }, tenant.admin.token), [
      'body.logo_url',
    ]);
    assert.deepEqual(await storedClient(tenant.clientId), tenant.client);
  });

  it('answers 400 VALIDATION_ERROR to an empty body', async () => {
    const res = await change(tenant.clientId, {}, m.superAdmin.token);
    expectValidation(res, ['body']);
  });

  it('answers 400 VALIDATION_ERROR to unknown or read-only fields such as id and created_at, naming them', async () => {
    expectValidation(await change(tenant.clientId, { id: 'other' }, m.superAdmin.token), [], ['id']);
    expectValidation(
      await change(tenant.clientId, { created_at: '2000-01-01T00:00:00Z' }, m.superAdmin.token),
      [],
      ['created_at'],
    );
    expectValidation(
      await change(tenant.clientId, { address: 'ok', colour: 'red' }, m.superAdmin.token),
      [],
      ['colour'],
    );
    assert.deepEqual(await storedClient(tenant.clientId), tenant.client);
  });

  it('answers 400 VALIDATION_ERROR naming the field for an active_status other than 0 or 1, or a blank name', async () => {
    expectValidation(await change(tenant.clientId, { active_status: 2 }, m.superAdmin.token), ['body.active_status']);
    expectValidation(await change(tenant.clientId, { active_status: '0' }, m.superAdmin.token), ['body.active_status']);
    expectValidation(await change(tenant.clientId, { name: '  ' }, m.superAdmin.token), ['body.name']);
    expectValidation(await change(tenant.clientId, { address: '' }, m.superAdmin.token), ['body.address']);
  });
});
