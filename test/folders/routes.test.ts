import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { adminDb } from '../support/admin';
import { createRoleMatrix, uniqueName, type RoleMatrix } from '../support/fixtures';
import { del, freshIp, get, patch, post } from '../support/http';
import { expectError, expectValidation, ISO_UTC } from '../support/assertions';

// Folders over real HTTP with real Auth-emulator tokens.

const FOLDER_FIELDS = ['client_id', 'created_at', 'id', 'name', 'updated_at'];

function assertFolder(body: any, expected: { client_id: string; name: string }): void {
  assert.deepEqual(Object.keys(body).sort(), FOLDER_FIELDS, JSON.stringify(body));
  assert.equal(body.client_id, expected.client_id);
  assert.equal(body.name, expected.name);
  assert.match(body.created_at, ISO_UTC);
  assert.match(body.updated_at, ISO_UTC);
}

let m: RoleMatrix;
let ip: string;
before(async () => {
  m = await createRoleMatrix();
});
beforeEach(() => {
  ip = freshIp();
});

const createFolder = async (token: string, body: Record<string, unknown>) => {
  const res = await post('/api/folders', body, { token, ip });
  assert.equal(res.status, 201, res.text);
  return res.body;
};

describe('POST /api/folders', () => {
  it('creates a folder in the Client Admin’s organization', async () => {
    const name = uniqueName('Algebra');
    const res = await post('/api/folders', { name }, { token: m.tenant.admin.token, ip });
    assert.equal(res.status, 201, res.text);
    assertFolder(res.body, { client_id: m.tenant.clientId, name });
    const stored = await adminDb.doc(`clients/${m.tenant.clientId}/folders/${res.body.id}`).get();
    assert.equal(stored.get('name'), name);
  });

  it('lets a Super Admin create one in the organization it names, and requires the name of one', async () => {
    const name = uniqueName('Physics');
    const res = await post(
      '/api/folders',
      { name, client_id: m.otherTenant.clientId },
      { token: m.superAdmin.token, ip },
    );
    assert.equal(res.status, 201, res.text);
    assertFolder(res.body, { client_id: m.otherTenant.clientId, name });
    expectValidation(await post('/api/folders', { name }, { token: m.superAdmin.token, ip }), ['body.client_id']);
  });

  it('answers 404 when a Super Admin names an unknown organization', async () => {
    expectError(
      await post('/api/folders', { name: 'X', client_id: randomUUID() }, { token: m.superAdmin.token, ip }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses a name already used in the organization, whatever its case and spacing (409), but not in another organization', async () => {
    const name = uniqueName('Chemistry');
    await createFolder(m.tenant.admin.token, { name });
    expectError(
      await post(
        '/api/folders',
        { name: `  ${name.toUpperCase().replace(' ', '   ')} ` },
        { token: m.tenant.admin.token, ip },
      ),
      409,
      'CONFLICT',
    );
    await createFolder(m.otherTenant.admin.token, { name });
  });

  it('refuses a missing, empty, too long name or an unknown field (400)', async () => {
    const token = m.tenant.admin.token;
    expectValidation(await post('/api/folders', {}, { token, ip }), ['body.name']);
    expectValidation(await post('/api/folders', { name: '   ' }, { token, ip }), ['body.name']);
    expectValidation(await post('/api/folders', { name: 'x'.repeat(101) }, { token, ip }), ['body.name']);
    expectValidation(await post('/api/folders', { name: 'ok', colour: 'red' }, { token, ip }), ['body']);
  });

  it('refuses a Client Admin naming another organization (403), Students and Guests (403), and no token (401)', async () => {
    expectError(
      await post('/api/folders', { name: 'X', client_id: m.otherTenant.clientId }, { token: m.tenant.admin.token, ip }),
      403,
      'FORBIDDEN',
    );
    expectError(await post('/api/folders', { name: 'X' }, { token: m.tenant.student.token, ip }), 403, 'FORBIDDEN');
    expectError(await post('/api/folders', { name: 'X' }, { token: m.guest.token, ip }), 403, 'FORBIDDEN');
    expectError(await post('/api/folders', { name: 'X' }, { token: m.noRole.token, ip }), 403, 'FORBIDDEN');
    expectError(await post('/api/folders', { name: 'X' }, { ip }), 401, 'UNAUTHORIZED');
  });
});

describe('GET /api/folders', () => {
  it('lists the organization’s folders by name, case-insensitively, paginated', async () => {
    const [tenant] = [m.otherTenant];
    const prefix = randomUUID().slice(0, 6);
    for (const name of [`b ${prefix}`, `A ${prefix}`, `c ${prefix}`]) await createFolder(tenant.admin.token, { name });
    const res = await get('/api/folders?limit=100', { token: tenant.admin.token, ip });
    assert.equal(res.status, 200, res.text);
    const names = res.body.data.map((f: any) => f.name).filter((n: string) => n.endsWith(prefix));
    assert.deepEqual(names, [`A ${prefix}`, `b ${prefix}`, `c ${prefix}`]);
    assert.ok(res.body.data.every((f: any) => f.client_id === tenant.clientId));
    const page = await get('/api/folders?limit=1', { token: tenant.admin.token, ip });
    assert.equal(page.body.data.length, 1);
    assert.equal(page.body.pagination.limit, 1);
    assert.ok(page.body.pagination.total >= 3);
  });

  it('needs client_id from a Super Admin (400) and lists that organization with it', async () => {
    expectValidation(await get('/api/folders', { token: m.superAdmin.token, ip }), ['query.client_id']);
    const res = await get(`/api/folders?client_id=${m.tenant.clientId}`, { token: m.superAdmin.token, ip });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.data.every((f: any) => f.client_id === m.tenant.clientId));
  });

  it('refuses another organization’s client_id (403), Students, Guests (403) and no token (401)', async () => {
    expectError(
      await get(`/api/folders?client_id=${m.otherTenant.clientId}`, { token: m.tenant.admin.token, ip }),
      403,
      'FORBIDDEN',
    );
    expectError(await get('/api/folders', { token: m.tenant.student.token, ip }), 403, 'FORBIDDEN');
    expectError(await get('/api/folders', { token: m.guest.token, ip }), 403, 'FORBIDDEN');
    expectError(await get('/api/folders', { ip }), 401, 'UNAUTHORIZED');
  });
});

describe('PATCH /api/folders/{folderId}', () => {
  it('renames a folder, freeing the old name', async () => {
    const oldName = uniqueName('Old');
    const folder = await createFolder(m.tenant.admin.token, { name: oldName });
    const newName = uniqueName('New');
    const res = await patch(`/api/folders/${folder.id}`, { name: newName }, { token: m.tenant.admin.token, ip });
    assert.equal(res.status, 200, res.text);
    assertFolder(res.body, { client_id: m.tenant.clientId, name: newName });
    await createFolder(m.tenant.admin.token, { name: oldName });
  });

  it('refuses a name another folder has (409)', async () => {
    const a = await createFolder(m.tenant.admin.token, { name: uniqueName('A') });
    const b = await createFolder(m.tenant.admin.token, { name: uniqueName('B') });
    expectError(
      await patch(`/api/folders/${b.id}`, { name: a.name.toLowerCase() }, { token: m.tenant.admin.token, ip }),
      409,
      'CONFLICT',
    );
  });

  it('answers 403 for another organization’s folder, 404 for an unknown one, 403 for a Student', async () => {
    const theirs = await createFolder(m.otherTenant.admin.token, { name: uniqueName('Theirs') });
    expectError(
      await patch(`/api/folders/${theirs.id}`, { name: 'Mine now' }, { token: m.tenant.admin.token, ip }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await patch(`/api/folders/${randomUUID()}`, { name: 'X' }, { token: m.tenant.admin.token, ip }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await patch(`/api/folders/${theirs.id}`, { name: 'X' }, { token: m.otherTenant.student.token, ip }),
      403,
      'FORBIDDEN',
    );
    const stored = await adminDb.doc(`clients/${m.otherTenant.clientId}/folders/${theirs.id}`).get();
    assert.equal(stored.get('name'), theirs.name);
  });

  it('lets a Super Admin rename any organization’s folder', async () => {
    const folder = await createFolder(m.otherTenant.admin.token, { name: uniqueName('X') });
    const res = await patch(
      `/api/folders/${folder.id}`,
      { name: uniqueName('Renamed') },
      { token: m.superAdmin.token, ip },
    );
    assert.equal(res.status, 200, res.text);
  });
});

describe('DELETE /api/folders/{folderId}', () => {
  const question = (folderId: string) => ({
    question_type: 'short_answer',
    question_text: 'Q?',
    correct_answer: 'A',
    marks: 1,
    difficulty: 'easy',
    folder_id: folderId,
  });

  it('deletes an empty folder (204), freeing its name', async () => {
    const name = uniqueName('Empty');
    const folder = await createFolder(m.tenant.admin.token, { name });
    const res = await del(`/api/folders/${folder.id}`, { token: m.tenant.admin.token, ip });
    assert.equal(res.status, 204, res.text);
    assert.equal((await adminDb.doc(`clients/${m.tenant.clientId}/folders/${folder.id}`).get()).exists, false);
    await createFolder(m.tenant.admin.token, { name });
    expectError(await del(`/api/folders/${folder.id}`, { token: m.tenant.admin.token, ip }), 404, 'NOT_FOUND');
  });

  it('answers 409 while the folder holds a question, and deletes it once the question is gone', async () => {
    const folder = await createFolder(m.tenant.admin.token, { name: uniqueName('Full') });
    const q = await post('/api/questions', question(folder.id), { token: m.tenant.admin.token, ip });
    assert.equal(q.status, 201, q.text);
    expectError(await del(`/api/folders/${folder.id}`, { token: m.tenant.admin.token, ip }), 409, 'CONFLICT');
    assert.equal((await del(`/api/questions/${q.body.id}`, { token: m.tenant.admin.token, ip })).status, 204);
    assert.equal((await del(`/api/folders/${folder.id}`, { token: m.tenant.admin.token, ip })).status, 204);
  });

  it('answers 409 while the folder holds a test', async () => {
    const folder = await createFolder(m.tenant.admin.token, { name: uniqueName('Tests') });
    const testId = randomUUID();
    await adminDb
      .doc(`clients/${m.tenant.clientId}/tests/${testId}`)
      .set({ id: testId, client_id: m.tenant.clientId, folder_id: folder.id, test_name: 'T' });
    expectError(await del(`/api/folders/${folder.id}`, { token: m.tenant.admin.token, ip }), 409, 'CONFLICT');
    assert.equal((await adminDb.doc(`clients/${m.tenant.clientId}/folders/${folder.id}`).get()).exists, true);
  });

  it('answers 403 for another organization’s folder (and keeps it), 403 for Students and Guests, 401 without a token', async () => {
    const theirs = await createFolder(m.otherTenant.admin.token, { name: uniqueName('Theirs') });
    expectError(await del(`/api/folders/${theirs.id}`, { token: m.tenant.admin.token, ip }), 403, 'FORBIDDEN');
    expectError(await del(`/api/folders/${theirs.id}`, { token: m.otherTenant.student.token, ip }), 403, 'FORBIDDEN');
    expectError(await del(`/api/folders/${theirs.id}`, { token: m.guest.token, ip }), 403, 'FORBIDDEN');
    expectError(await del(`/api/folders/${theirs.id}`, { ip }), 401, 'UNAUTHORIZED');
    assert.equal((await adminDb.doc(`clients/${m.otherTenant.clientId}/folders/${theirs.id}`).get()).exists, true);
  });
});
