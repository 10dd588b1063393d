import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { MAX_CLASSES_PER_CLIENT, MAX_CLASSES_PER_STUDENT } from '../../functions/src/classes/documents';
import { adminDb } from '../support/admin';
import { auditRecordsFor, createRoleMatrix, createUser, uniqueName, type RoleMatrix } from '../support/fixtures';
import { del, freshIp, get, patch, post, api } from '../support/http';
import { expectError, expectValidation, ISO_UTC } from '../support/assertions';
import { publishTest } from '../attempts/fixtures';

// Classes and their members over real HTTP with real Auth-emulator tokens.

const CLASS_FIELDS = ['client_id', 'code', 'created_at', 'id', 'member_count', 'name', 'updated_at'];
const MEMBER_FIELDS = ['added_at', 'display_name', 'email', 'uid'];

function assertClass(body: any, expected: { client_id: string; name: string; code?: string | null }): void {
  assert.deepEqual(Object.keys(body).sort(), CLASS_FIELDS, JSON.stringify(body));
  assert.equal(body.client_id, expected.client_id);
  assert.equal(body.name, expected.name);
  assert.equal(body.code, expected.code ?? null);
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

const put = (path: string, token?: string) => api('PUT', path, { token, ip });
const classDoc = (clientId: string, classId: string) => adminDb.doc(`clients/${clientId}/classes/${classId}`);
const profileDoc = (clientId: string, uid: string) => adminDb.doc(`clients/${clientId}/users/${uid}`);

const createClass = async (token: string, body: Record<string, unknown>) => {
  const res = await post('/api/classes', body, { token, ip });
  assert.equal(res.status, 201, res.text);
  return res.body;
};

describe('POST /api/classes', () => {
  it('creates a class in the Client Admin’s organization, with its code, counted and audited', async () => {
    const name = uniqueName('Year 9');
    const res = await post('/api/classes', { name, code: '9C' }, { token: m.tenant.admin.token, ip });
    assert.equal(res.status, 201, res.text);
    assertClass(res.body, { client_id: m.tenant.clientId, name, code: '9C' });
    assert.equal(res.body.member_count, 0);
    const stored = await classDoc(m.tenant.clientId, res.body.id).get();
    assert.equal(stored.get('name'), name);
    const count = await adminDb.doc(`clients/${m.tenant.clientId}/class_counts/classes`).get();
    assert.ok(count.get('count') >= 1);
    const audit = (await auditRecordsFor(m.tenant.admin.uid, 'class_created')).find(
      (r) => r.details.class_id === res.body.id,
    );
    assert.ok(audit, 'a class_created record');
    assert.equal(audit.client_id, m.tenant.clientId);
    assert.equal(audit.actor_id, m.tenant.admin.uid);
  });

  it('lets a Super Admin create one in the organization it names, and requires the name of one', async () => {
    const name = uniqueName('Physics');
    const res = await post(
      '/api/classes',
      { name, client_id: m.otherTenant.clientId, code: null },
      { token: m.superAdmin.token, ip },
    );
    assert.equal(res.status, 201, res.text);
    assertClass(res.body, { client_id: m.otherTenant.clientId, name });
    expectValidation(await post('/api/classes', { name }, { token: m.superAdmin.token, ip }), ['body.client_id']);
    expectError(
      await post('/api/classes', { name, client_id: randomUUID() }, { token: m.superAdmin.token, ip }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses a name already used in the organization, whatever its case and spacing (409), but not in another organization', async () => {
    const name = uniqueName('Chemistry');
    await createClass(m.tenant.admin.token, { name });
    expectError(
      await post(
        '/api/classes',
        { name: `  ${name.toUpperCase().replace(' ', '   ')} ` },
        { token: m.tenant.admin.token, ip },
      ),
      409,
      'CONFLICT',
    );
    await createClass(m.otherTenant.admin.token, { name });
  });

  it('refuses a missing, empty or too long name, a code of 0 or 21 characters, and an unknown field (400)', async () => {
    const token = m.tenant.admin.token;
    expectValidation(await post('/api/classes', {}, { token, ip }), ['body.name']);
    expectValidation(await post('/api/classes', { name: '   ' }, { token, ip }), ['body.name']);
    expectValidation(await post('/api/classes', { name: 'x'.repeat(101) }, { token, ip }), ['body.name']);
    expectValidation(await post('/api/classes', { name: 'ok', code: '' }, { token, ip }), ['body.code']);
    expectValidation(await post('/api/classes', { name: 'ok', code: 'x'.repeat(21) }, { token, ip }), ['body.code']);
    expectValidation(await post('/api/classes', { name: 'ok', colour: 'red' }, { token, ip }), ['body']);
  });

  it('refuses a Client Admin naming another organization, Students, Guests and users with no role (403), and no token (401)', async () => {
    expectError(
      await post('/api/classes', { name: 'X', client_id: m.otherTenant.clientId }, { token: m.tenant.admin.token, ip }),
      403,
      'FORBIDDEN',
    );
    expectError(await post('/api/classes', { name: 'X' }, { token: m.tenant.student.token, ip }), 403, 'FORBIDDEN');
    expectError(await post('/api/classes', { name: 'X' }, { token: m.guest.token, ip }), 403, 'FORBIDDEN');
    expectError(await post('/api/classes', { name: 'X' }, { token: m.noRole.token, ip }), 403, 'FORBIDDEN');
    expectError(await post('/api/classes', { name: 'X' }, { ip }), 401, 'UNAUTHORIZED');
  });

  it(`refuses a class past the organization’s ${MAX_CLASSES_PER_CLIENT} (409), counted with the create`, async () => {
    const { clientId, admin } = m.otherTenant;
    const counter = adminDb.doc(`clients/${clientId}/class_counts/classes`);
    const before = (await counter.get()).get('count') ?? 0;
    await counter.set({ count: MAX_CLASSES_PER_CLIENT }, { merge: true });
    try {
      const res = await post('/api/classes', { name: uniqueName('One too many') }, { token: admin.token, ip });
      expectError(res, 409, 'CONFLICT');
      assert.match(res.body.message, new RegExp(String(MAX_CLASSES_PER_CLIENT)));
    } finally {
      await counter.set({ count: before }, { merge: true });
    }
  });
});

describe('GET /api/classes', () => {
  it('lists the organization’s classes by name, case-insensitively, paginated', async () => {
    const tenant = m.otherTenant;
    const prefix = randomUUID().slice(0, 6);
    for (const name of [`b ${prefix}`, `A ${prefix}`, `c ${prefix}`]) await createClass(tenant.admin.token, { name });
    const res = await get('/api/classes?limit=100', { token: tenant.admin.token, ip });
    assert.equal(res.status, 200, res.text);
    const names = res.body.data.map((c: any) => c.name).filter((n: string) => n.endsWith(prefix));
    assert.deepEqual(names, [`A ${prefix}`, `b ${prefix}`, `c ${prefix}`]);
    assert.ok(res.body.data.every((c: any) => c.client_id === tenant.clientId));
    const page = await get('/api/classes?limit=1', { token: tenant.admin.token, ip });
    assert.equal(page.body.data.length, 1);
    assert.ok(page.body.pagination.total >= 3);
    assert.equal(typeof page.body.pagination.next_cursor, 'string');
  });

  it('needs client_id from a Super Admin (400) and lists that organization with it', async () => {
    expectValidation(await get('/api/classes', { token: m.superAdmin.token, ip }), ['query.client_id']);
    const res = await get(`/api/classes?client_id=${m.tenant.clientId}`, { token: m.superAdmin.token, ip });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.data.every((c: any) => c.client_id === m.tenant.clientId));
  });

  it('refuses another organization’s client_id (403), Students, Guests (403) and no token (401)', async () => {
    expectError(
      await get(`/api/classes?client_id=${m.otherTenant.clientId}`, { token: m.tenant.admin.token, ip }),
      403,
      'FORBIDDEN',
    );
    expectError(await get('/api/classes', { token: m.tenant.student.token, ip }), 403, 'FORBIDDEN');
    expectError(await get('/api/classes', { token: m.guest.token, ip }), 403, 'FORBIDDEN');
    expectError(await get('/api/classes', { ip }), 401, 'UNAUTHORIZED');
  });
});

describe('GET /api/classes/{classId}', () => {
  it('reads a class of the organization; a Super Admin reads any', async () => {
    const cls = await createClass(m.tenant.admin.token, { name: uniqueName('Read'), code: '10A' });
    for (const token of [m.tenant.admin.token, m.superAdmin.token]) {
      const res = await get(`/api/classes/${cls.id}`, { token, ip });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, cls);
    }
  });

  it('answers 403 for another organization’s class, 404 for an unknown one, 403 for Students and Guests', async () => {
    const theirs = await createClass(m.otherTenant.admin.token, { name: uniqueName('Theirs') });
    expectError(await get(`/api/classes/${theirs.id}`, { token: m.tenant.admin.token, ip }), 403, 'FORBIDDEN');
    expectError(await get(`/api/classes/${randomUUID()}`, { token: m.tenant.admin.token, ip }), 404, 'NOT_FOUND');
    expectError(await get(`/api/classes/${theirs.id}`, { token: m.otherTenant.student.token, ip }), 403, 'FORBIDDEN');
    expectError(await get(`/api/classes/${randomUUID()}`, { token: m.tenant.student.token, ip }), 403, 'FORBIDDEN');
    expectError(await get(`/api/classes/${theirs.id}`, { token: m.guest.token, ip }), 403, 'FORBIDDEN');
  });
});

describe('PATCH /api/classes/{classId}', () => {
  it('renames a class and changes its code, freeing the old name, audited with before and after', async () => {
    const oldName = uniqueName('Old');
    const cls = await createClass(m.tenant.admin.token, { name: oldName, code: '8B' });
    const newName = uniqueName('New');
    const res = await patch(`/api/classes/${cls.id}`, { name: newName }, { token: m.tenant.admin.token, ip });
    assert.equal(res.status, 200, res.text);
    assertClass(res.body, { client_id: m.tenant.clientId, name: newName, code: '8B' });
    const cleared = await patch(`/api/classes/${cls.id}`, { code: null }, { token: m.tenant.admin.token, ip });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.code, null);
    assert.equal(cleared.body.name, newName);
    await createClass(m.tenant.admin.token, { name: oldName });
    const audit = (await auditRecordsFor(m.tenant.admin.uid, 'class_updated')).filter(
      (r) => r.details.class_id === cls.id,
    );
    assert.equal(audit.length, 2);
    assert.deepEqual(audit.map((r) => r.details.to).reverse(), [
      { name: newName, code: '8B' },
      { name: newName, code: null },
    ]);
  });

  it('refuses a name another class has (409), and an empty change (400)', async () => {
    const a = await createClass(m.tenant.admin.token, { name: uniqueName('A') });
    const b = await createClass(m.tenant.admin.token, { name: uniqueName('B') });
    expectError(
      await patch(`/api/classes/${b.id}`, { name: a.name.toLowerCase() }, { token: m.tenant.admin.token, ip }),
      409,
      'CONFLICT',
    );
    expectValidation(await patch(`/api/classes/${b.id}`, {}, { token: m.tenant.admin.token, ip }), ['body']);
  });

  it('answers 403 for another organization’s class (and leaves it), 404 for an unknown one, 403 for a Student', async () => {
    const theirs = await createClass(m.otherTenant.admin.token, { name: uniqueName('Theirs') });
    expectError(
      await patch(`/api/classes/${theirs.id}`, { name: 'Mine now' }, { token: m.tenant.admin.token, ip }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await patch(`/api/classes/${randomUUID()}`, { name: 'X' }, { token: m.tenant.admin.token, ip }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await patch(`/api/classes/${theirs.id}`, { name: 'X' }, { token: m.otherTenant.student.token, ip }),
      403,
      'FORBIDDEN',
    );
    assert.equal((await classDoc(m.otherTenant.clientId, theirs.id).get()).get('name'), theirs.name);
  });
});

describe('PUT /api/classes/{classId}/members/{uid}', () => {
  it('adds a student (200, the member), counts it on the class and lists the class on the student’s profile; again is the same 200, nothing written', async () => {
    const cls = await createClass(m.tenant.admin.token, { name: uniqueName('Members') });
    const student = await createUser('student', m.tenant.clientId);
    const res = await put(`/api/classes/${cls.id}/members/${student.uid}`, m.tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), MEMBER_FIELDS);
    assert.equal(res.body.uid, student.uid);
    assert.equal(res.body.email, student.email);
    assert.match(res.body.added_at, ISO_UTC);
    const again = await put(`/api/classes/${cls.id}/members/${student.uid}`, m.tenant.admin.token);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, res.body);
    assert.equal((await classDoc(m.tenant.clientId, cls.id).get()).get('member_count'), 1);
    assert.deepEqual((await profileDoc(m.tenant.clientId, student.uid).get()).get('class_ids'), [cls.id]);
    const audit = await auditRecordsFor(student.uid, 'class_member_added');
    assert.equal(audit.length, 1, 'one record, for the add that wrote');
    assert.equal(audit[0].actor_id, m.tenant.admin.uid);
    assert.equal(audit[0].details.class_id, cls.id);
  });

  it('lets a Super Admin add a student of the class’s organization', async () => {
    const cls = await createClass(m.otherTenant.admin.token, { name: uniqueName('By super') });
    const res = await put(`/api/classes/${cls.id}/members/${m.otherTenant.student.uid}`, m.superAdmin.token);
    assert.equal(res.status, 200, res.text);
  });

  it('refuses a uid that is no user, an administrator, a user with no role and a Guest (400), writing nothing', async () => {
    const cls = await createClass(m.tenant.admin.token, { name: uniqueName('Not students') });
    for (const uid of [randomUUID(), m.tenant.admin.uid, m.noRole.uid, m.guest.uid, m.superAdmin.uid]) {
      expectValidation(await put(`/api/classes/${cls.id}/members/${uid}`, m.tenant.admin.token), ['params.uid']);
    }
    assert.equal((await classDoc(m.tenant.clientId, cls.id).get()).get('member_count'), 0);
    assert.equal((await profileDoc(m.tenant.clientId, m.tenant.admin.uid).get()).get('class_ids'), undefined);
  });

  it('refuses another organization’s student or admin (403), and leaves its profile alone', async () => {
    const cls = await createClass(m.tenant.admin.token, { name: uniqueName('Cross') });
    const theirStudent = await createUser('student', m.otherTenant.clientId);
    for (const uid of [theirStudent.uid, m.otherTenant.admin.uid]) {
      expectError(await put(`/api/classes/${cls.id}/members/${uid}`, m.tenant.admin.token), 403, 'FORBIDDEN');
    }
    assert.equal((await profileDoc(m.otherTenant.clientId, theirStudent.uid).get()).get('class_ids'), undefined);
    assert.equal((await classDoc(m.tenant.clientId, cls.id).get()).get('member_count'), 0);
  });

  it('answers 403 for another organization’s class, 404 for an unknown one, 403 for Students (even for themselves) and Guests', async () => {
    const theirs = await createClass(m.otherTenant.admin.token, { name: uniqueName('Theirs') });
    const mine = await createClass(m.tenant.admin.token, { name: uniqueName('Mine') });
    expectError(
      await put(`/api/classes/${theirs.id}/members/${m.tenant.student.uid}`, m.tenant.admin.token),
      403,
      'FORBIDDEN',
    );
    expectError(
      await put(`/api/classes/${randomUUID()}/members/${m.tenant.student.uid}`, m.tenant.admin.token),
      404,
      'NOT_FOUND',
    );
    expectError(
      await put(`/api/classes/${mine.id}/members/${m.tenant.student.uid}`, m.tenant.student.token),
      403,
      'FORBIDDEN',
    );
    expectError(await put(`/api/classes/${mine.id}/members/${m.guest.uid}`, m.guest.token), 403, 'FORBIDDEN');
  });

  it('refuses a class that holds as many students as it may (409), counted on the class', async () => {
    const cls = await createClass(m.tenant.admin.token, { name: uniqueName('Full') });
    await classDoc(m.tenant.clientId, cls.id).update({ member_count: 500 });
    const student = await createUser('student', m.tenant.clientId);
    expectError(await put(`/api/classes/${cls.id}/members/${student.uid}`, m.tenant.admin.token), 409, 'CONFLICT');
    assert.equal((await profileDoc(m.tenant.clientId, student.uid).get()).get('class_ids'), undefined);
  });

  it(`refuses a student already in ${MAX_CLASSES_PER_STUDENT} classes (409)`, async () => {
    const student = await createUser('student', m.tenant.clientId);
    const others = Array.from({ length: MAX_CLASSES_PER_STUDENT }, () => randomUUID());
    await profileDoc(m.tenant.clientId, student.uid).update({ class_ids: others });
    const cls = await createClass(m.tenant.admin.token, { name: uniqueName('One more') });
    const res = await put(`/api/classes/${cls.id}/members/${student.uid}`, m.tenant.admin.token);
    expectError(res, 409, 'CONFLICT');
    assert.match(res.body.message, new RegExp(`\\(${MAX_CLASSES_PER_STUDENT}\\)`));
    assert.equal((await classDoc(m.tenant.clientId, cls.id).get()).get('member_count'), 0);
  });
});

describe('DELETE /api/classes/{classId}/members/{uid}', () => {
  it('removes a member (204): the class’s count, its member document and the class in the profile; then 404', async () => {
    const [a, b] = await Promise.all([
      createClass(m.tenant.admin.token, { name: uniqueName('Keep') }),
      createClass(m.tenant.admin.token, { name: uniqueName('Leave') }),
    ]);
    const student = await createUser('student', m.tenant.clientId);
    for (const cls of [a, b])
      assert.equal((await put(`/api/classes/${cls.id}/members/${student.uid}`, m.tenant.admin.token)).status, 200);
    const res = await del(`/api/classes/${b.id}/members/${student.uid}`, { token: m.tenant.admin.token, ip });
    assert.equal(res.status, 204, res.text);
    assert.equal((await classDoc(m.tenant.clientId, b.id).get()).get('member_count'), 0);
    assert.equal(
      (await adminDb.doc(`clients/${m.tenant.clientId}/classes/${b.id}/members/${student.uid}`).get()).exists,
      false,
    );
    assert.deepEqual((await profileDoc(m.tenant.clientId, student.uid).get()).get('class_ids'), [a.id]);
    expectError(
      await del(`/api/classes/${b.id}/members/${student.uid}`, { token: m.tenant.admin.token, ip }),
      404,
      'NOT_FOUND',
    );
    const audit = await auditRecordsFor(student.uid, 'class_member_removed');
    assert.equal(audit.length, 1);
    assert.equal(audit[0].details.class_id, b.id);
  });

  it('answers 404 for a uid that is not a member, 403 for another organization’s class and for Students', async () => {
    const mine = await createClass(m.tenant.admin.token, { name: uniqueName('Mine') });
    const theirs = await createClass(m.otherTenant.admin.token, { name: uniqueName('Theirs') });
    expectError(
      await del(`/api/classes/${mine.id}/members/${m.tenant.student.uid}`, { token: m.tenant.admin.token, ip }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await del(`/api/classes/${theirs.id}/members/${m.otherTenant.student.uid}`, { token: m.tenant.admin.token, ip }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await del(`/api/classes/${mine.id}/members/${m.tenant.student.uid}`, { token: m.tenant.student.token, ip }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('GET /api/classes/{classId}/members', () => {
  it('lists the members by email, paginated', async () => {
    const cls = await createClass(m.tenant.admin.token, { name: uniqueName('Listed') });
    const students = await Promise.all([1, 2, 3].map(() => createUser('student', m.tenant.clientId)));
    for (const s of students) await put(`/api/classes/${cls.id}/members/${s.uid}`, m.tenant.admin.token);
    const res = await get(`/api/classes/${cls.id}/members?limit=2`, { token: m.tenant.admin.token, ip });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.pagination.total, 3);
    assert.equal(res.body.data.length, 2);
    const next = await get(`/api/classes/${cls.id}/members?limit=2&cursor=${res.body.pagination.next_cursor}`, {
      token: m.tenant.admin.token,
      ip,
    });
    const emails = [...res.body.data, ...next.body.data].map((x: any) => x.email);
    assert.deepEqual(emails, students.map((s) => s.email).sort());
    // The list says whether each member can sign in yet (from Auth); the member itself (PUT) does not.
    for (const member of res.body.data)
      assert.deepEqual(Object.keys(member).sort(), [...MEMBER_FIELDS, 'can_sign_in'].sort());
  });

  it('answers 403 for another organization’s class, 404 for an unknown one, 403 for Students', async () => {
    const theirs = await createClass(m.otherTenant.admin.token, { name: uniqueName('Theirs') });
    expectError(await get(`/api/classes/${theirs.id}/members`, { token: m.tenant.admin.token, ip }), 403, 'FORBIDDEN');
    expectError(
      await get(`/api/classes/${randomUUID()}/members`, { token: m.tenant.admin.token, ip }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await get(`/api/classes/${theirs.id}/members`, { token: m.otherTenant.student.token, ip }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('DELETE /api/classes/{classId}', () => {
  it('deletes a class (204): its name is free again, the count drops, and its members leave it (member documents and profiles)', async () => {
    const name = uniqueName('Gone');
    const [cls, kept] = await Promise.all([
      createClass(m.tenant.admin.token, { name }),
      createClass(m.tenant.admin.token, { name: uniqueName('Kept') }),
    ]);
    const students = await Promise.all([1, 2].map(() => createUser('student', m.tenant.clientId)));
    for (const s of students) {
      await put(`/api/classes/${cls.id}/members/${s.uid}`, m.tenant.admin.token);
      await put(`/api/classes/${kept.id}/members/${s.uid}`, m.tenant.admin.token);
    }
    const counter = adminDb.doc(`clients/${m.tenant.clientId}/class_counts/classes`);
    const before = (await counter.get()).get('count');
    const res = await del(`/api/classes/${cls.id}`, { token: m.tenant.admin.token, ip });
    assert.equal(res.status, 204, res.text);
    assert.equal((await classDoc(m.tenant.clientId, cls.id).get()).exists, false);
    assert.equal((await counter.get()).get('count'), before - 1);
    assert.deepEqual((await counter.get()).get('pending_cleanup'), []);
    assert.equal((await classDoc(m.tenant.clientId, cls.id).collection('members').get()).size, 0);
    for (const s of students)
      assert.deepEqual((await profileDoc(m.tenant.clientId, s.uid).get()).get('class_ids'), [kept.id]);
    await createClass(m.tenant.admin.token, { name });
    expectError(await del(`/api/classes/${cls.id}`, { token: m.tenant.admin.token, ip }), 404, 'NOT_FOUND');
    const audit = (await auditRecordsFor(m.tenant.admin.uid, 'class_deleted')).find(
      (r) => r.details.class_id === cls.id,
    );
    assert.equal(audit?.details.member_count, 2);
  });

  it('refuses a class a test is assigned to (409, naming the test), and keeps the class and its members', async () => {
    const cls = await createClass(m.tenant.admin.token, { name: uniqueName('Assigned') });
    await put(`/api/classes/${cls.id}/members/${m.tenant.student.uid}`, m.tenant.admin.token);
    const testId = randomUUID();
    await adminDb.doc(`clients/${m.tenant.clientId}/tests/${testId}`).set({
      id: testId,
      client_id: m.tenant.clientId,
      test_name: 'Mock exam',
      assigned_class_ids: [randomUUID(), cls.id],
    });
    const res = await del(`/api/classes/${cls.id}`, { token: m.tenant.admin.token, ip });
    expectError(res, 409, 'CONFLICT');
    assert.deepEqual(
      res.body.details.map((d: any) => [d.test_id, d.test_name]),
      [[testId, 'Mock exam']],
    );
    assert.equal((await classDoc(m.tenant.clientId, cls.id).get()).get('member_count'), 1);
    assert.ok(
      ((await profileDoc(m.tenant.clientId, m.tenant.student.uid).get()).get('class_ids') as string[]).includes(cls.id),
    );
    // Once the test is assigned elsewhere, the class goes.
    await adminDb.doc(`clients/${m.tenant.clientId}/tests/${testId}`).update({ assigned_class_ids: [] });
    assert.equal((await del(`/api/classes/${cls.id}`, { token: m.tenant.admin.token, ip })).status, 204);
    assert.ok(
      !((await profileDoc(m.tenant.clientId, m.tenant.student.uid).get()).get('class_ids') as string[]).includes(
        cls.id,
      ),
    );
  });

  it('refuses a class a test holds an override for (409, naming the test), and deletes it once the override is removed', async () => {
    const cls = await createClass(m.tenant.admin.token, { name: uniqueName('Overridden') });
    const { test } = await publishTest(m.tenant.admin.token, m.tenant.clientId);
    const set = await api('PUT', `/api/tests/${test.id}/class-overrides/${cls.id}`, {
      token: m.tenant.admin.token,
      ip,
      body: { timer: 90 },
    });
    assert.equal(set.status, 200, set.text);
    const res = await del(`/api/classes/${cls.id}`, { token: m.tenant.admin.token, ip });
    expectError(res, 409, 'CONFLICT');
    assert.deepEqual(
      res.body.details.map((d: any) => [d.path, d.test_id]),
      [['class_overrides', test.id]],
    );
    assert.ok(
      await classDoc(m.tenant.clientId, cls.id)
        .get()
        .then((snap) => snap.exists),
    );
    const removed = await del(`/api/tests/${test.id}/class-overrides/${cls.id}`, { token: m.tenant.admin.token, ip });
    assert.equal(removed.status, 204, removed.text);
    assert.equal((await del(`/api/classes/${cls.id}`, { token: m.tenant.admin.token, ip })).status, 204);
  });

  it('finishes at the next create the removal of members a delete left behind', async () => {
    const { clientId, admin } = m.otherTenant;
    const student = await createUser('student', clientId);
    // A delete interrupted after its transaction: the class gone, a member and the profile's class id left, the id pending.
    const classId = randomUUID();
    await adminDb.doc(`clients/${clientId}/classes/${classId}/members/${student.uid}`).set({
      uid: student.uid,
      class_id: classId,
      client_id: clientId,
      email: student.email,
      display_name: 'S',
      added_at: new Date().toISOString(),
    });
    await profileDoc(clientId, student.uid).update({ class_ids: [classId] });
    const counter = adminDb.doc(`clients/${clientId}/class_counts/classes`);
    await counter.set({ pending_cleanup: [classId] }, { merge: true });
    await createClass(admin.token, { name: uniqueName('Next') });
    assert.deepEqual((await profileDoc(clientId, student.uid).get()).get('class_ids'), []);
    assert.equal(
      (await adminDb.doc(`clients/${clientId}/classes/${classId}/members/${student.uid}`).get()).exists,
      false,
    );
    assert.deepEqual((await counter.get()).get('pending_cleanup'), []);
  });

  it('answers 403 for another organization’s class (and keeps it), 403 for Students and Guests, 401 without a token', async () => {
    const theirs = await createClass(m.otherTenant.admin.token, { name: uniqueName('Theirs') });
    expectError(await del(`/api/classes/${theirs.id}`, { token: m.tenant.admin.token, ip }), 403, 'FORBIDDEN');
    expectError(await del(`/api/classes/${theirs.id}`, { token: m.otherTenant.student.token, ip }), 403, 'FORBIDDEN');
    expectError(await del(`/api/classes/${theirs.id}`, { token: m.guest.token, ip }), 403, 'FORBIDDEN');
    expectError(await del(`/api/classes/${theirs.id}`, { ip }), 401, 'UNAUTHORIZED');
    assert.equal((await classDoc(m.otherTenant.clientId, theirs.id).get()).exists, true);
  });
});

describe('a class member deleted, or no longer a student (DELETE and PATCH /api/users/{uid})', () => {
  const memberIds = async (clientId: string, classId: string) =>
    (await adminDb.collection(`clients/${clientId}/classes/${classId}/members`).get()).docs.map((d) => d.id);

  it('takes a deleted student out of every class it was in: member documents gone, counts lowered', async () => {
    const [one, two] = await Promise.all([
      createClass(m.tenant.admin.token, { name: uniqueName('Leaving A') }),
      createClass(m.tenant.admin.token, { name: uniqueName('Leaving B') }),
    ]);
    const s = await createUser('student', m.tenant.clientId);
    for (const cls of [one, two])
      assert.equal((await put(`/api/classes/${cls.id}/members/${s.uid}`, m.tenant.admin.token)).status, 200);
    const res = await del(`/api/users/${s.uid}`, { token: m.tenant.admin.token, ip: freshIp() });
    assert.equal(res.status, 204, res.text);
    for (const cls of [one, two]) {
      assert.deepEqual(await memberIds(m.tenant.clientId, cls.id), []);
      assert.equal((await classDoc(m.tenant.clientId, cls.id).get()).get('member_count'), 0);
    }
  });

  it('takes a student who becomes a Client Admin out of its classes', async () => {
    const cls = await createClass(m.tenant.admin.token, { name: uniqueName('Promoted') });
    const s = await createUser('student', m.tenant.clientId);
    assert.equal((await put(`/api/classes/${cls.id}/members/${s.uid}`, m.tenant.admin.token)).status, 200);
    const res = await patch(
      `/api/users/${s.uid}`,
      { role: 'client_admin' },
      { token: m.tenant.admin.token, ip: freshIp() },
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(await memberIds(m.tenant.clientId, cls.id), []);
    assert.equal((await classDoc(m.tenant.clientId, cls.id).get()).get('member_count'), 0);
    assert.deepEqual((await profileDoc(m.tenant.clientId, s.uid).get()).get('class_ids'), []);
  });
});
