import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { adminAuth, adminDb } from '../support/admin';
import {
  auditRecordsFor,
  createRoleMatrix,
  createSuperAdmin,
  createTenant,
  createUser,
  refreshIdToken,
  signIn,
  signInWithRefreshToken,
  waitPastAuthTime,
  type RoleMatrix,
  type TestUser,
} from '../support/fixtures';
import { api, freshIp, get, patch, post, del, debugCost } from '../support/http';
import { newProfile } from '../../functions/src/users/profiles';
import { expectError, expectValidation, ISO_UTC } from '../support/assertions';
import { awayFromWindowEdge } from '../support/windows';

// Users endpoints over real HTTP, with real Auth-emulator tokens.
// User writes are sensitive (10 per minute per user): tests that write use
// administrators of their own, and every test speaks from its own IP.

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const USER_FIELDS = ['client_id', 'created_at', 'disabled', 'display_name', 'email', 'role', 'uid', 'updated_at'];

/** What a read (GET one, the list) adds: can_sign_in, from Auth, and a student's classes and extra time. */
const READ_FIELDS = ['can_sign_in', 'class_ids', 'accommodation'];

/** A user as replied; reads add can_sign_in, and for a student class_ids and accommodation (both or neither). */
function assertUser(body: any): void {
  const keys = Object.keys(body).filter((k) => !READ_FIELDS.includes(k));
  assert.deepEqual(keys.sort(), USER_FIELDS, JSON.stringify(body));
  if ('can_sign_in' in body) assert.equal(typeof body.can_sign_in, 'boolean');
  assert.equal('class_ids' in body, 'accommodation' in body, JSON.stringify(body));
  if ('class_ids' in body) {
    assert.equal(body.role, 'student', 'only a student has classes and extra time');
    assert.ok(Array.isArray(body.class_ids) && body.class_ids.every((id: unknown) => typeof id === 'string'));
  }
  assert.equal(typeof body.uid, 'string');
  assert.equal(typeof body.disabled, 'boolean');
  assert.match(body.created_at, ISO_UTC);
  assert.match(body.updated_at, ISO_UTC);
}

/**
 * A fixture's user as a read answers it: it has a password, so it can sign in; a student of no
 * class and with no accommodation says so.
 */
const expectedUser = (u: TestUser) => ({
  uid: u.uid,
  email: u.email,
  display_name: `Test ${u.role}`,
  role: u.role,
  client_id: u.clientId,
  disabled: false,
  can_sign_in: true,
  ...(u.role === 'student' ? { class_ids: [], accommodation: null } : {}),
});
const withoutTimes = (body: any) => {
  const { created_at, updated_at, ...rest } = body;
  return rest;
};

const newEmail = (prefix = 'new') => `${prefix}-${randomUUID().slice(0, 12)}@test.example`;
const PASSWORD = 'a-long-enough-password';

const profileDoc = (uid: string, clientId: string | null) =>
  clientId
    ? adminDb.collection('clients').doc(clientId).collection('users').doc(uid)
    : adminDb.collection('super_admins').doc(uid);

async function authUserExists(uid: string): Promise<boolean> {
  try {
    await adminAuth.getUser(uid);
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === 'auth/user-not-found') return false;
    throw err;
  }
}

async function emailIsRegistered(email: string): Promise<boolean> {
  try {
    await adminAuth.getUserByEmail(email);
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === 'auth/user-not-found') return false;
    throw err;
  }
}

/** The one audit record of this type about this user; fails unless there is exactly one. */
async function onlyAuditRecord(userId: string, eventType: string) {
  const records = await auditRecordsFor(userId, eventType);
  assert.equal(records.length, 1, `one ${eventType} record for ${userId}: ${JSON.stringify(records)}`);
  return records[0];
}

function assertAudit(
  record: any,
  expected: { event_type: string; user_id: string; actor_id: string; client_id: string | null; ip: string },
) {
  assert.equal(record.event_type, expected.event_type);
  assert.equal(record.user_id, expected.user_id);
  assert.equal(record.actor_id, expected.actor_id);
  assert.equal(record.client_id, expected.client_id);
  assert.equal(record.success, true);
  assert.equal(record.ip_address, expected.ip);
  assert.match(record.timestamp, ISO_UTC);
  assert.ok(Date.now() - Date.parse(record.timestamp) < 60_000, 'recorded just now');
}

describe('GET /api/me', () => {
  let m: RoleMatrix;
  let ip: string;
  before(async () => {
    m = await createRoleMatrix();
  });
  beforeEach(() => {
    ip = freshIp();
  });

  const me = (token?: string) => get('/api/me', { token, ip });

  it('answers a Super Admin with its uid, email and role, and no organization', async () => {
    const res = await me(m.superAdmin.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      uid: m.superAdmin.uid,
      email: m.superAdmin.email,
      role: 'super_admin',
      client_id: null,
      guest: false,
      accommodation: null,
    });
  });

  it('answers a Client Admin with its role and organization', async () => {
    const { admin, clientId } = m.tenant;
    const res = await me(admin.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      uid: admin.uid,
      email: admin.email,
      role: 'client_admin',
      client_id: clientId,
      guest: false,
      accommodation: null,
    });
  });

  it('answers a Student with its role and organization', async () => {
    const { student, clientId } = m.tenant;
    const res = await me(student.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      uid: student.uid,
      email: student.email,
      role: 'student',
      client_id: clientId,
      guest: false,
      accommodation: null,
    });
  });

  it('answers an anonymous Guest as a guest, with no email and no organization', async () => {
    const res = await me(m.guest.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      uid: m.guest.uid,
      email: null,
      role: 'guest',
      client_id: null,
      guest: true,
      accommodation: null,
    });
  });

  it('answers a signed-in user with no role with role null', async () => {
    const res = await me(m.noRole.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      uid: m.noRole.uid,
      email: m.noRole.email,
      role: null,
      client_id: null,
      guest: false,
      accommodation: null,
    });
  });

  it('still answers the users of a deactivated client, who get 403 elsewhere', async () => {
    const inactive = await createTenant({ active_status: 0 });
    for (const user of [inactive.admin, inactive.student]) {
      const res = await me(user.token);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, {
        uid: user.uid,
        email: user.email,
        role: user.role,
        client_id: inactive.clientId,
        guest: false,
        accommodation: null,
      });
      expectError(await get(`/api/users/${user.uid}`, { token: user.token, ip }), 403, 'FORBIDDEN');
    }
  });

  it('answers 401 UNAUTHORIZED without a token', async () => {
    expectError(await me(), 401, 'UNAUTHORIZED');
  });

  it('answers 401 UNAUTHORIZED to a token that is not an ID token', async () => {
    expectError(await me('not.a.token'), 401, 'UNAUTHORIZED');
  });
});

describe('GET /api/users', () => {
  let m: RoleMatrix;
  let ip: string;
  before(async () => {
    m = await createRoleMatrix();
  });
  beforeEach(() => {
    ip = freshIp();
  });

  const list = (query: string, token?: string) => get(`/api/users${query}`, { token, ip });

  it('answers a Super Admin naming client_id 200 with that organization’s users only, as `data` and `pagination`', async () => {
    const res = await list(`?client_id=${m.tenant.clientId}`, m.superAdmin.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['data', 'pagination']);
    assert.deepEqual(res.body.pagination, { page: 1, limit: 20, total: 2, pages: 1, next_cursor: null });
    res.body.data.forEach(assertUser);
    const expected = [m.tenant.admin, m.tenant.student].map(expectedUser).sort((a, b) => (a.email < b.email ? -1 : 1));
    assert.deepEqual(res.body.data.map(withoutTimes), expected, 'both users, by email');
  });

  it('answers a Client Admin 200 with its own organization’s users, whether or not it names client_id', async () => {
    for (const query of ['', `?client_id=${m.tenant.clientId}`]) {
      const res = await list(query, m.tenant.admin.token);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.pagination.total, 2);
      assert.deepEqual(res.body.data.map((u: any) => u.uid).sort(), [m.tenant.admin.uid, m.tenant.student.uid].sort());
      assert.ok(res.body.data.every((u: any) => u.client_id === m.tenant.clientId));
    }
  });

  it('answers 403 FORBIDDEN to a Client Admin naming another organization', async () => {
    expectError(await list(`?client_id=${m.otherTenant.clientId}`, m.tenant.admin.token), 403, 'FORBIDDEN');
  });

  it('answers 400 VALIDATION_ERROR naming query.client_id to a Super Admin who names no organization', async () => {
    expectValidation(await list('', m.superAdmin.token), ['query.client_id']);
  });

  it('answers 404 NOT_FOUND to a Super Admin naming an organization that does not exist', async () => {
    expectError(await list(`?client_id=no-such-client-${Date.now()}`, m.superAdmin.token), 404, 'NOT_FOUND');
    for (const id of ['__reserved__', 'a%2Fb', '..']) {
      expectError(await list(`?client_id=${id}`, m.superAdmin.token), 404, 'NOT_FOUND');
    }
  });

  it('lists the Super Admins, and only them, for a Super Admin asking for role=super_admin', async () => {
    const admins: any[] = [];
    for (let page = 1, pages = 1; page <= pages; page++) {
      const res = await list(`?role=super_admin&limit=100&page=${page}`, m.superAdmin.token);
      assert.equal(res.status, 200, res.text);
      pages = res.body.pagination.pages;
      admins.push(...res.body.data);
    }
    assert.ok(
      admins.some((u) => u.uid === m.superAdmin.uid),
      'the caller is listed',
    );
    assert.ok(admins.every((u) => u.role === 'super_admin' && u.client_id === null));
    assert.ok(!admins.some((u) => u.uid === m.tenant.admin.uid));
  });

  it('filters by role', async () => {
    const res = await list(`?client_id=${m.tenant.clientId}&role=student`, m.superAdmin.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.data.map((u: any) => u.uid),
      [m.tenant.student.uid],
    );
    assert.equal(res.body.pagination.total, 1);
  });

  it('filters by disabled', async () => {
    const tenant = await createTenant();
    const off = await patch(`/api/users/${tenant.student.uid}`, { disabled: true }, { token: tenant.admin.token, ip });
    assert.equal(off.status, 200, off.text);
    const disabled = await list('?disabled=true', tenant.admin.token);
    assert.equal(disabled.status, 200, disabled.text);
    assert.deepEqual(
      disabled.body.data.map((u: any) => u.uid),
      [tenant.student.uid],
    );
    const enabled = await list('?disabled=false', tenant.admin.token);
    assert.deepEqual(
      enabled.body.data.map((u: any) => u.uid),
      [tenant.admin.uid],
    );
  });

  it('pages through an organization’s users by email, with pagination that adds up', async () => {
    const tenant = await createTenant();
    const extra = await Promise.all([1, 2, 3].map(() => createUser('student', tenant.clientId)));
    const everyone = [tenant.admin, tenant.student, ...extra].map((u) => u.email).sort();
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const res = await list(`?page=${page}&limit=2`, tenant.admin.token);
      assert.equal(res.status, 200, res.text);
      const { next_cursor, ...numbers } = res.body.pagination;
      assert.deepEqual(numbers, { page, limit: 2, total: 5, pages: 3 });
      assert.equal(
        typeof next_cursor === 'string',
        page < 3,
        `page ${page}: a cursor exactly when there is a next page`,
      );
      assert.equal(res.body.data.length, page < 3 ? 2 : 1);
      seen.push(...res.body.data.map((u: any) => u.email));
    }
    assert.deepEqual(seen, everyone, 'every user once, by email');
    const past = await list('?page=4&limit=2', tenant.admin.token);
    assert.deepEqual(past.body, { data: [], pagination: { page: 4, limit: 2, total: 5, pages: 3, next_cursor: null } });
  });

  it('answers 403 FORBIDDEN to a Student', async () => {
    expectError(await list('', m.tenant.student.token), 403, 'FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to an anonymous Guest', async () => {
    expectError(await list('', m.guest.token), 403, 'FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to a signed-in user with no role', async () => {
    expectError(await list('', m.noRole.token), 403, 'FORBIDDEN');
  });

  it('answers 401 UNAUTHORIZED without a token', async () => {
    expectError(await list(''), 401, 'UNAUTHORIZED');
  });

  it('answers 403 FORBIDDEN to the Client Admin of a deactivated client', async () => {
    const inactive = await createTenant({ active_status: 0 });
    expectError(await list('', inactive.admin.token), 403, 'FORBIDDEN');
  });

  for (const [query, path] of [
    ['page=0', 'query.page'],
    ['page=x', 'query.page'],
    ['limit=0', 'query.limit'],
    ['limit=101', 'query.limit'],
    ['limit=2.5', 'query.limit'],
    ['role=guest', 'query.role'],
    ['disabled=yes', 'query.disabled'],
  ]) {
    it(`answers 400 VALIDATION_ERROR naming ${path} for ?${query}`, async () => {
      expectValidation(await list(`?${query}`, m.tenant.admin.token), [path]);
    });
  }

  it('answers 400 VALIDATION_ERROR to an unknown query parameter', async () => {
    expectValidation(await list('?email=x', m.tenant.admin.token), [], ['email']);
  });
});

describe('GET /api/users and GET /api/users/{uid}: a student’s classes and extra time', function () {
  this.timeout(60_000);
  let tenant: Tenant;
  let other: Tenant;
  let superAdmin: TestUser;
  /** In two classes, with no accommodation. */
  let inTwo: TestUser;
  /** In no class, with +50%. */
  let extra: TestUser;
  let classIds: string[];
  let otherClassId: string;
  let ip: string;

  const newClass = async (t: Tenant) => {
    const res = await post('/api/classes', { name: `Class ${randomUUID().slice(0, 8)}` }, { token: t.admin.token, ip });
    assert.equal(res.status, 201, res.text);
    return res.body.id as string;
  };
  const join = async (t: Tenant, classId: string, uid: string) => {
    const res = await api('PUT', `/api/classes/${classId}/members/${uid}`, { token: t.admin.token, ip });
    assert.equal(res.status, 200, res.text);
  };
  const setExtra = async (t: Tenant, uid: string, percent: number, minutes: number) => {
    const res = await api('PUT', `/api/users/${uid}/accommodations`, {
      token: t.admin.token,
      ip,
      body: { extra_time_percent: percent, extra_minutes: minutes },
    });
    assert.equal(res.status, 200, res.text);
  };
  const listOf = async (query: string, token: string) => {
    const res = await get(`/api/users${query}`, { token, ip: freshIp() });
    assert.equal(res.status, 200, res.text);
    res.body.data.forEach(assertUser);
    return new Map<string, any>(res.body.data.map((u: any) => [u.uid, u]));
  };

  before(async () => {
    ip = freshIp();
    [tenant, other, superAdmin] = await Promise.all([createTenant(), createTenant(), createSuperAdmin()]);
    [inTwo, extra] = await Promise.all([
      createUser('student', tenant.clientId),
      createUser('student', tenant.clientId),
    ]);
    classIds = (await Promise.all([newClass(tenant), newClass(tenant)])).sort();
    otherClassId = await newClass(other);
    for (const classId of classIds) await join(tenant, classId, inTwo.uid);
    await join(other, otherClassId, other.student.uid);
    await setExtra(tenant, extra.uid, 50, 0);
    await setExtra(other, other.student.uid, 25, 5);
  });

  it('lists a student in two classes with both class ids, and a student with +50% with it', async () => {
    const users = await listOf('?role=student', tenant.admin.token);
    assert.deepEqual(
      { classes: [...users.get(inTwo.uid).class_ids].sort(), accommodation: users.get(inTwo.uid).accommodation },
      { classes: classIds, accommodation: null },
    );
    assert.deepEqual(
      { classes: users.get(extra.uid).class_ids, accommodation: users.get(extra.uid).accommodation },
      { classes: [], accommodation: { extra_time_percent: 50, extra_minutes: 0 } },
    );
    assert.deepEqual(
      { classes: users.get(tenant.student.uid).class_ids, accommodation: users.get(tenant.student.uid).accommodation },
      { classes: [], accommodation: null },
      'a student of no class and no extra time says both',
    );
  });

  it('gives a non-student neither field (absent, not null), even with classes left on its profile', async () => {
    // What a failed leaving of the classes would leave on a former student's profile.
    await profileDoc(tenant.admin.uid, tenant.clientId).update({ class_ids: [classIds[0]] });
    const users = await listOf('', tenant.admin.token);
    const admin = users.get(tenant.admin.uid);
    assert.equal(admin.role, 'client_admin');
    assert.equal('class_ids' in admin, false, JSON.stringify(admin));
    assert.equal('accommodation' in admin, false, JSON.stringify(admin));
    const one = await get(`/api/users/${tenant.admin.uid}`, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(withoutTimes(one.body), expectedUser(tenant.admin));
    const admins = await listOf('?role=super_admin&limit=100', superAdmin.token);
    assert.ok([...admins.values()].every((u) => !('class_ids' in u) && !('accommodation' in u)));
  });

  it('never shows another organization’s classes or extra time', async () => {
    const users = await listOf('', tenant.admin.token);
    const shown = [...users.values()].flatMap((u) => u.class_ids ?? []);
    assert.ok(!shown.includes(otherClassId), JSON.stringify(shown));
    assert.ok(!users.has(other.student.uid));
    // Its own organization's list, for a Super Admin, shows them.
    const theirs = await listOf(`?client_id=${other.clientId}`, superAdmin.token);
    assert.deepEqual(
      { classes: theirs.get(other.student.uid).class_ids, accommodation: theirs.get(other.student.uid).accommodation },
      { classes: [otherClassId], accommodation: { extra_time_percent: 25, extra_minutes: 5 } },
    );
    // Nor through the read of one user, which stays the other organization's (403).
    expectError(
      await get(`/api/users/${other.student.uid}`, { token: tenant.admin.token, ip: freshIp() }),
      403,
      'FORBIDDEN',
    );
  });

  it('says the same in the search (q) and in GET /api/users/{uid}, to an administrator and to the student itself', async () => {
    const found = await listOf(`?q=${encodeURIComponent(extra.email)}`, tenant.admin.token);
    assert.deepEqual(found.get(extra.uid).accommodation, { extra_time_percent: 50, extra_minutes: 0 });
    for (const [user, token] of [
      [inTwo, tenant.admin.token],
      [extra, tenant.admin.token],
      [inTwo, inTwo.token],
      [extra, superAdmin.token],
    ] as const) {
      const res = await get(`/api/users/${user.uid}`, { token, ip: freshIp() });
      assert.equal(res.status, 200, res.text);
      assertUser(res.body);
      const listed = (await listOf('?role=student', tenant.admin.token)).get(user.uid);
      assert.deepEqual(
        { classes: [...res.body.class_ids].sort(), accommodation: res.body.accommodation },
        { classes: [...listed.class_ids].sort(), accommodation: listed.accommodation },
      );
    }
  });

  it('follows a change of the accommodation and of the classes at once', async () => {
    const student = await createUser('student', tenant.clientId);
    await setExtra(tenant, student.uid, 100, 30);
    await join(tenant, classIds[1], student.uid);
    let shown = (await listOf('?role=student', tenant.admin.token)).get(student.uid);
    assert.deepEqual(
      { classes: shown.class_ids, accommodation: shown.accommodation },
      { classes: [classIds[1]], accommodation: { extra_time_percent: 100, extra_minutes: 30 } },
    );
    await setExtra(tenant, student.uid, 0, 0);
    const left = await del(`/api/classes/${classIds[1]}/members/${student.uid}`, { token: tenant.admin.token, ip });
    assert.equal(left.status, 204, left.text);
    shown = (await listOf('?role=student', tenant.admin.token)).get(student.uid);
    assert.deepEqual(
      { classes: shown.class_ids, accommodation: shown.accommodation },
      { classes: [], accommodation: null },
    );
  });

  it('reads a page’s accommodations together: the same reads and round trips with 12 students and with 60, all with extra time', async () => {
    const figures: Array<Record<string, number>> = [];
    for (const size of [12, 60]) {
      const t = await createTenant();
      const batch = adminDb.batch();
      const now = new Date().toISOString();
      for (let i = 0; i < size; i++) {
        const uid = `p-${randomUUID()}`;
        batch.set(
          profileDoc(uid, t.clientId),
          newProfile(
            {
              uid,
              email: `x-${String(i).padStart(3, '0')}@cost.example`,
              display_name: `X ${i}`,
              role: 'student',
              client_id: t.clientId,
            },
            now,
          ),
        );
        batch.set(adminDb.collection('clients').doc(t.clientId).collection('accommodations').doc(uid), {
          student_id: uid,
          client_id: t.clientId,
          extra_time_percent: 50,
          extra_minutes: 0,
          set_by: 'test',
          updated_at: now,
        });
      }
      // The organization's own student too, so that every student a page may hold has extra time.
      batch.set(adminDb.collection('clients').doc(t.clientId).collection('accommodations').doc(t.student.uid), {
        student_id: t.student.uid,
        client_id: t.clientId,
        extra_time_percent: 50,
        extra_minutes: 0,
        set_by: 'test',
        updated_at: now,
      });
      await batch.commit();
      const res = await get('/api/users?role=student&limit=10', { token: t.admin.token, ip: freshIp() });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.length, 10);
      assert.ok(res.body.data.every((u: any) => u.accommodation?.extra_time_percent === 50));
      figures.push(debugCost(res));
    }
    const [small, large] = figures;
    assert.ok(Number.isFinite(small.reads), JSON.stringify(figures));
    assert.deepEqual([large.reads, large.round_trips], [small.reads, small.round_trips], JSON.stringify(figures));
    // A page of 10 profiles, their 10 accommodations, and what every list reads (its count, the organization, limits).
    assert.ok(large.reads <= 10 + 10 + 6, JSON.stringify(large));
  });
});

describe('POST /api/users', () => {
  let m: RoleMatrix;
  let tenant: Tenant;
  let superAdmin: TestUser;
  let ip: string;
  before(async () => {
    m = await createRoleMatrix();
  });
  beforeEach(async () => {
    ip = freshIp();
    [tenant, superAdmin] = await Promise.all([createTenant(), createSuperAdmin()]);
  });

  const create = (body: unknown, token?: string) => post('/api/users', body, { token, ip });
  const studentInput = (overrides: Record<string, unknown> = {}) => ({
    email: newEmail('student'),
    password: PASSWORD,
    display_name: 'Ada Student',
    role: 'student',
    ...overrides,
  });

  it('lets a Super Admin create a Student in any organization: 201, a profile, a user_created record, and a sign-in whose token carries the role', async () => {
    const input = studentInput({ client_id: tenant.clientId });
    const res = await create(input, superAdmin.token);
    assert.equal(res.status, 201, res.text);
    assertUser(res.body);
    assert.deepEqual(withoutTimes(res.body), {
      uid: res.body.uid,
      email: input.email,
      display_name: 'Ada Student',
      role: 'student',
      client_id: tenant.clientId,
      disabled: false,
    });
    const profile = await profileDoc(res.body.uid, tenant.clientId).get();
    assert.ok(profile.exists, 'the profile document exists');
    assert.deepEqual(
      profile.data(),
      {
        ...res.body,
        email_lower: res.body.email.toLowerCase(),
        name_lower: res.body.display_name.toLowerCase(),
      },
      'the reply, and the search keys',
    );
    assertAudit(await onlyAuditRecord(res.body.uid, 'user_created'), {
      event_type: 'user_created',
      user_id: res.body.uid,
      actor_id: superAdmin.uid,
      client_id: tenant.clientId,
      ip,
    });
    const token = await signIn(input.email, input.password);
    const me = await get('/api/me', { token, ip });
    assert.deepEqual(me.body, {
      uid: res.body.uid,
      email: input.email,
      role: 'student',
      client_id: tenant.clientId,
      guest: false,
      accommodation: null,
    });
    const read = await get(`/api/users/${res.body.uid}`, { token: tenant.admin.token, ip });
    assert.deepEqual(
      read.body,
      { ...res.body, can_sign_in: true, class_ids: [], accommodation: null },
      'a read adds whether it can sign in, and a student’s classes and extra time',
    );
  });

  it('lets a Super Admin create another Super Admin, who belongs to no organization', async () => {
    const input = studentInput({ role: 'super_admin' });
    const res = await create(input, superAdmin.token);
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.role, 'super_admin');
    assert.equal(res.body.client_id, null);
    assert.ok((await profileDoc(res.body.uid, null).get()).exists);
    const token = await signIn(input.email, input.password);
    const me = await get('/api/me', { token, ip });
    assert.deepEqual(me.body, {
      uid: res.body.uid,
      email: input.email,
      role: 'super_admin',
      client_id: null,
      guest: false,
      accommodation: null,
    });
    assert.equal((await get('/api/clients', { token, ip })).status, 200, 'the new Super Admin can list clients');
  });

  it('lets a Client Admin create a Student in its own organization without naming it', async () => {
    const input = studentInput();
    const res = await create(input, tenant.admin.token);
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.client_id, tenant.clientId);
    assert.equal(res.body.role, 'student');
    assertAudit(await onlyAuditRecord(res.body.uid, 'user_created'), {
      event_type: 'user_created',
      user_id: res.body.uid,
      actor_id: tenant.admin.uid,
      client_id: tenant.clientId,
      ip,
    });
    const me = await get('/api/me', { token: await signIn(input.email, input.password), ip });
    assert.equal(me.body.role, 'student');
    assert.equal(me.body.client_id, tenant.clientId);
  });

  it('lets a Client Admin create another Client Admin naming its own organization, who can then manage it', async () => {
    const input = studentInput({ role: 'client_admin', client_id: tenant.clientId });
    const res = await create(input, tenant.admin.token);
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.role, 'client_admin');
    const token = await signIn(input.email, input.password);
    const users = await get('/api/users', { token, ip });
    assert.equal(users.status, 200, users.text);
    assert.equal(users.body.pagination.total, 3);
  });

  it('answers 403 FORBIDDEN to a Client Admin granting super_admin, and creates no account', async () => {
    const input = studentInput({ role: 'super_admin' });
    expectError(await create(input, tenant.admin.token), 403, 'FORBIDDEN');
    expectError(await create({ ...input, client_id: tenant.clientId }, tenant.admin.token), 403, 'FORBIDDEN');
    assert.equal(await emailIsRegistered(input.email), false);
  });

  it('answers 403 FORBIDDEN to a Client Admin creating a user in another organization, and creates no account', async () => {
    const input = studentInput({ client_id: m.otherTenant.clientId });
    expectError(await create(input, tenant.admin.token), 403, 'FORBIDDEN');
    assert.equal(await emailIsRegistered(input.email), false);
    const others = await get(`/api/users?client_id=${m.otherTenant.clientId}`, { token: superAdmin.token, ip });
    assert.equal(others.body.pagination.total, 2, 'the other organization is as it was');
  });

  it('answers 409 CONFLICT when the email is taken, whatever its case, and leaves the existing account alone', async () => {
    expectError(await create(studentInput({ email: tenant.student.email }), tenant.admin.token), 409, 'CONFLICT');
    expectError(
      await create(studentInput({ email: tenant.student.email.toUpperCase() }), tenant.admin.token),
      409,
      'CONFLICT',
    );
    expectError(
      await create(studentInput({ email: m.otherTenant.admin.email, client_id: tenant.clientId }), superAdmin.token),
      409,
      'CONFLICT',
    );
    const existing = await adminAuth.getUser(tenant.student.uid);
    assert.deepEqual(existing.customClaims, { role: 'student', client_id: tenant.clientId });
    assert.equal(
      await signIn(tenant.student.email, tenant.student.password).then(() => true),
      true,
      'its password is unchanged',
    );
  });

  it('answers exactly one 201 and one 409 CONFLICT to two simultaneous creates with the same email', async () => {
    const email = newEmail('race');
    const results = await Promise.all([
      create(studentInput({ email }), tenant.admin.token),
      create(studentInput({ email }), tenant.admin.token),
    ]);
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 409], results.map((r) => r.text).join('\n'));
    expectError(
      results.find((r) => r.status === 409)!,
      409,
      'CONFLICT',
    );
    const winner = results.find((r) => r.status === 201)!.body;
    assert.equal((await adminAuth.getUserByEmail(email)).uid, winner.uid);
    const list = await get('/api/users?role=student', { token: tenant.admin.token, ip });
    assert.equal(list.body.data.filter((u: any) => u.email === email).length, 1, 'one profile');
  });

  it('counts user writes (POST, PATCH, DELETE alike) against the 10-per-minute sensitive limit of the caller: the 11th answers 429 RATE_LIMITED', async () => {
    await awayFromWindowEdge();
    const writes = [
      () => create({}, tenant.admin.token),
      () => patch(`/api/users/${tenant.student.uid}`, {}, { token: tenant.admin.token, ip: freshIp() }),
      () => del(`/api/users/no-such-user-${randomUUID()}`, { token: tenant.admin.token, ip: freshIp() }),
    ];
    for (let i = 0; i < 10; i++) {
      const res = await writes[i % 3]();
      assert.notEqual(res.status, 429, `write ${i + 1} is within the limit: ${res.text}`);
    }
    const refused = await create(studentInput(), tenant.admin.token);
    expectError(refused, 429, 'RATE_LIMITED');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1, 'Retry-After is set');
    const other = await create(studentInput({ client_id: tenant.clientId }), superAdmin.token);
    assert.equal(other.status, 201, 'another user has its own budget');
  });

  it('answers 400 VALIDATION_ERROR naming body.client_id when a Super Admin names no organization for a Student or Client Admin', async () => {
    const input = studentInput();
    expectValidation(await create(input, superAdmin.token), ['body.client_id']);
    expectValidation(await create({ ...input, role: 'client_admin' }, superAdmin.token), ['body.client_id']);
    assert.equal(await emailIsRegistered(input.email), false);
  });

  it('answers 400 VALIDATION_ERROR naming body.client_id when a Super Admin gives a new Super Admin an organization', async () => {
    const input = studentInput({ role: 'super_admin', client_id: tenant.clientId });
    expectValidation(await create(input, superAdmin.token), ['body.client_id']);
    assert.equal(await emailIsRegistered(input.email), false);
  });

  it('answers 404 NOT_FOUND when a Super Admin names an organization that does not exist, and creates no account', async () => {
    for (const client_id of [`no-such-client-${Date.now()}`, '__reserved__', 'a/b', '..']) {
      const input = studentInput({ client_id });
      expectError(await create(input, superAdmin.token), 404, 'NOT_FOUND');
      assert.equal(await emailIsRegistered(input.email), false);
    }
  });

  it('answers 403 FORBIDDEN to a Student', async () => {
    expectError(await create(studentInput(), tenant.student.token), 403, 'FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to an anonymous Guest', async () => {
    expectError(await create(studentInput({ client_id: tenant.clientId }), m.guest.token), 403, 'FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to a signed-in user with no role', async () => {
    expectError(await create(studentInput({ client_id: tenant.clientId }), m.noRole.token), 403, 'FORBIDDEN');
  });

  it('answers 401 UNAUTHORIZED without a token, and creates no account', async () => {
    const input = studentInput({ client_id: tenant.clientId });
    expectError(await create(input), 401, 'UNAUTHORIZED');
    assert.equal(await emailIsRegistered(input.email), false);
  });

  it('answers 403 FORBIDDEN to the Client Admin of a deactivated client', async () => {
    const inactive = await createTenant({ active_status: 0 });
    const input = studentInput();
    expectError(await create(input, inactive.admin.token), 403, 'FORBIDDEN');
    assert.equal(await emailIsRegistered(input.email), false);
  });

  it('answers 400 VALIDATION_ERROR naming each bad field, and creates no account', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ email: 'not-an-email' }, 'body.email'],
      [{ password: 'short' }, 'body.password'],
      [{ role: 'guest' }, 'body.role'],
      [{ role: 'teacher' }, 'body.role'],
      [{ display_name: '' }, 'body.display_name'],
      [{ display_name: 'x'.repeat(101) }, 'body.display_name'],
    ];
    for (const [override, path] of cases) {
      const input = studentInput(override);
      expectValidation(await create(input, tenant.admin.token), [path]);
      if (input.email !== 'not-an-email') assert.equal(await emailIsRegistered(input.email as string), false);
    }
  });

  // The password is optional: without one the reply carries an invitation link (test/users/import.test.ts).
  it('answers 400 VALIDATION_ERROR naming every missing required field', async () => {
    expectValidation(await create({}, tenant.admin.token), ['body.email', 'body.display_name', 'body.role']);
  });

  it('answers 400 VALIDATION_ERROR to unknown fields such as uid or disabled, naming them', async () => {
    const input = studentInput({ uid: 'chosen-uid' });
    expectValidation(await create(input, tenant.admin.token), [], ['uid']);
    expectValidation(await create(studentInput({ disabled: true }), tenant.admin.token), [], ['disabled']);
    assert.equal(await authUserExists('chosen-uid'), false);
  });
});

describe('GET /api/users/{uid}', () => {
  let m: RoleMatrix;
  let inactive: Tenant;
  let ip: string;
  before(async () => {
    [m, inactive] = await Promise.all([createRoleMatrix(), createTenant({ active_status: 0 })]);
  });
  beforeEach(() => {
    ip = freshIp();
  });

  const read = (uid: string, token?: string) => get(`/api/users/${uid}`, { token, ip });
  const missing = () => `no-such-user-${randomUUID()}`;

  it('answers a Super Admin 200 with a user of any organization', async () => {
    for (const user of [m.tenant.student, m.otherTenant.admin]) {
      const res = await read(user.uid, m.superAdmin.token);
      assert.equal(res.status, 200, res.text);
      assertUser(res.body);
      assert.deepEqual(withoutTimes(res.body), expectedUser(user));
    }
  });

  it('answers a Super Admin 200 with a Super Admin, and with a user who has no role yet', async () => {
    const other = await createSuperAdmin();
    const sa = await read(other.uid, m.superAdmin.token);
    assert.equal(sa.status, 200, sa.text);
    assert.deepEqual(withoutTimes(sa.body), expectedUser(other));
    const nr = await read(m.noRole.uid, m.superAdmin.token);
    assert.equal(nr.status, 200, nr.text);
    assertUser(nr.body);
    assert.equal(nr.body.role, null);
    assert.equal(nr.body.client_id, null);
    assert.equal(nr.body.email, m.noRole.email);
  });

  it('answers a Client Admin 200 with a user of its own organization', async () => {
    const res = await read(m.tenant.student.uid, m.tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(withoutTimes(res.body), expectedUser(m.tenant.student));
  });

  it('answers 403 FORBIDDEN to a Client Admin asking for a user of another organization', async () => {
    expectError(await read(m.otherTenant.student.uid, m.tenant.admin.token), 403, 'FORBIDDEN');
    expectError(await read(m.otherTenant.admin.uid, m.tenant.admin.token), 403, 'FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to a Client Admin asking for a Super Admin or a user with no organization', async () => {
    expectError(await read(m.superAdmin.uid, m.tenant.admin.token), 403, 'FORBIDDEN');
    expectError(await read(m.noRole.uid, m.tenant.admin.token), 403, 'FORBIDDEN');
  });

  it('answers 404 NOT_FOUND for a user that does not exist, to a Super Admin, Client Admin or Student', async () => {
    for (const token of [m.superAdmin.token, m.tenant.admin.token, m.tenant.student.token]) {
      expectError(await read(missing(), token), 404, 'NOT_FOUND');
    }
  });

  it('answers a Student 200 with itself', async () => {
    const res = await read(m.tenant.student.uid, m.tenant.student.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(withoutTimes(res.body), expectedUser(m.tenant.student));
  });

  it('answers 403 FORBIDDEN to a Student asking for anyone else, in its organization or another', async () => {
    const classmate = await createUser('student', m.tenant.clientId);
    for (const user of [classmate, m.tenant.admin, m.otherTenant.student, m.superAdmin]) {
      expectError(await read(user.uid, m.tenant.student.token), 403, 'FORBIDDEN');
    }
  });

  it('answers 403 FORBIDDEN to an anonymous Guest, even about itself', async () => {
    expectError(await read(m.tenant.student.uid, m.guest.token), 403, 'FORBIDDEN');
    expectError(await read(m.guest.uid, m.guest.token), 403, 'FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to a signed-in user with no role, even about itself', async () => {
    expectError(await read(m.tenant.student.uid, m.noRole.token), 403, 'FORBIDDEN');
    expectError(await read(m.noRole.uid, m.noRole.token), 403, 'FORBIDDEN');
  });

  it('answers 401 UNAUTHORIZED without a token', async () => {
    expectError(await read(m.tenant.student.uid), 401, 'UNAUTHORIZED');
  });

  it('answers 403 FORBIDDEN to the users of a deactivated client, even about themselves', async () => {
    expectError(await read(inactive.student.uid, inactive.student.token), 403, 'FORBIDDEN');
    expectError(await read(inactive.student.uid, inactive.admin.token), 403, 'FORBIDDEN');
  });

  it('answers 400 VALIDATION_ERROR naming params.uid for a uid over 128 characters', async () => {
    expectValidation(await read('u'.repeat(129), m.superAdmin.token), ['params.uid']);
  });
});

describe('PATCH /api/users/{uid}', () => {
  let m: RoleMatrix;
  let tenant: Tenant;
  let superAdmin: TestUser;
  let ip: string;
  before(async () => {
    m = await createRoleMatrix();
  });
  beforeEach(async () => {
    ip = freshIp();
    [tenant, superAdmin] = await Promise.all([createTenant(), createSuperAdmin()]);
  });

  const change = (uid: string, body: unknown, token?: string) => patch(`/api/users/${uid}`, body, { token, ip });
  /** A write the user could make with its own token (renaming itself is not allowed to a Student, so it must authenticate first). */
  const writeWith = (user: TestUser, token = user.token) =>
    patch(`/api/users/${user.uid}`, { display_name: 'Self rename' }, { token, ip: freshIp() });
  const claimsOf = async (uid: string) => (await adminAuth.getUser(uid)).customClaims;

  it('lets a Client Admin rename a user of its organization: 200, and Auth and the profile agree', async () => {
    const res = await change(tenant.student.uid, { display_name: 'Grace Hopper' }, tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assertUser(res.body);
    // A change answers the user as written: whether it can sign in (from Auth), its classes and extra time are a read's.
    const { can_sign_in: _read, class_ids: _classes, accommodation: _extra, ...written } = expectedUser(tenant.student);
    assert.deepEqual(withoutTimes(res.body), { ...written, display_name: 'Grace Hopper' });
    assert.ok(res.body.updated_at > res.body.created_at, 'updated_at moves forward');
    assert.equal((await adminAuth.getUser(tenant.student.uid)).displayName, 'Grace Hopper');
    assert.deepEqual(
      (await profileDoc(tenant.student.uid, tenant.clientId).get()).data(),
      { ...res.body, email_lower: res.body.email.toLowerCase(), name_lower: 'grace hopper' },
      'the reply, and the search keys of the new name',
    );
    const read = await get(`/api/users/${tenant.student.uid}`, { token: tenant.admin.token, ip });
    assert.deepEqual(
      read.body,
      { ...res.body, can_sign_in: true, class_ids: [], accommodation: null },
      'a read adds whether it can sign in, and a student’s classes and extra time',
    );
  });

  it('changes a role: 200, a role_changed record, the old token refused with 401 on a write, and a fresh sign-in carrying the new role', async () => {
    const { student } = tenant;
    await waitPastAuthTime(student.token);
    const res = await change(student.uid, { role: 'client_admin' }, tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.role, 'client_admin');
    assert.equal(res.body.client_id, tenant.clientId);
    assert.deepEqual(await claimsOf(student.uid), { role: 'client_admin', client_id: tenant.clientId });
    assert.equal((await profileDoc(student.uid, tenant.clientId).get()).data()?.role, 'client_admin');
    const record = await onlyAuditRecord(student.uid, 'role_changed');
    assertAudit(record, {
      event_type: 'role_changed',
      user_id: student.uid,
      actor_id: tenant.admin.uid,
      client_id: tenant.clientId,
      ip,
    });
    assert.deepEqual(record.details, { from: 'student', to: 'client_admin' });

    const refused = await writeWith(student);
    expectError(refused, 401, 'UNAUTHORIZED');
    assert.match(refused.body.message, /revoked/);

    const fresh = await signIn(student.email, student.password);
    const me = await get('/api/me', { token: fresh, ip });
    assert.deepEqual(me.body, {
      uid: student.uid,
      email: student.email,
      role: 'client_admin',
      client_id: tenant.clientId,
      guest: false,
      accommodation: null,
    });
    assert.equal((await get('/api/users', { token: fresh, ip })).status, 200, 'the new role works at once');
  });

  it('revokes the refresh tokens of a user whose role changes: nothing obtained from an old one is accepted on a write', async () => {
    const { student } = tenant;
    const session = await signInWithRefreshToken(student.email, student.password);
    assert.ok(await refreshIdToken(session.refreshToken), 'the refresh token works before the change');
    await waitPastAuthTime(session.idToken);
    assert.equal((await change(student.uid, { role: 'client_admin' }, tenant.admin.token)).status, 200);
    const refreshed = await refreshIdToken(session.refreshToken);
    if (refreshed !== null) {
      // Production refuses the exchange itself; the emulator issues a token that must still be refused.
      const write = await patch(
        `/api/users/${student.uid}`,
        { display_name: 'x' },
        { token: refreshed, ip: freshIp() },
      );
      expectError(write, 401, 'UNAUTHORIZED');
      assert.match(write.body.message, /revoked/);
    }
  });

  it('lets a Super Admin demote a Client Admin to Student: the old token is refused on writes and the new one has only a Student’s rights', async () => {
    const { admin } = tenant;
    await waitPastAuthTime(admin.token);
    const res = await change(admin.uid, { role: 'student' }, superAdmin.token);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.role, 'student');
    const record = await onlyAuditRecord(admin.uid, 'role_changed');
    assert.equal(record.actor_id, superAdmin.uid);
    assert.deepEqual(record.details, { from: 'client_admin', to: 'student' });
    expectError(await writeWith(admin), 401, 'UNAUTHORIZED');
    const fresh = await signIn(admin.email, admin.password);
    assert.equal((await get('/api/me', { token: fresh, ip })).body.role, 'student');
    expectError(await get('/api/users', { token: fresh, ip }), 403, 'FORBIDDEN');
  });

  it('writes no role_changed record and revokes nothing when the role sent is the current one', async () => {
    await waitPastAuthTime(tenant.student.token);
    const res = await change(tenant.student.uid, { role: 'student' }, tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(await auditRecordsFor(tenant.student.uid, 'role_changed'), []);
    const read = await get(`/api/users/${tenant.student.uid}`, { token: tenant.student.token, ip });
    assert.equal(read.status, 200, 'the token still works');
  });

  it('answers 403 FORBIDDEN to a Client Admin granting super_admin, and changes nothing', async () => {
    expectError(await change(tenant.student.uid, { role: 'super_admin' }, tenant.admin.token), 403, 'FORBIDDEN');
    assert.deepEqual(await claimsOf(tenant.student.uid), { role: 'student', client_id: tenant.clientId });
  });

  it('answers 400 VALIDATION_ERROR naming body.role when a Super Admin moves a user between an organization role and super_admin', async () => {
    expectValidation(await change(tenant.student.uid, { role: 'super_admin' }, superAdmin.token), ['body.role']);
    const other = await createSuperAdmin();
    expectValidation(await change(other.uid, { role: 'client_admin' }, superAdmin.token), ['body.role']);
    assert.deepEqual(await claimsOf(tenant.student.uid), { role: 'student', client_id: tenant.clientId });
  });

  it('disables a user: 200, a user_disabled record, its token refused on writes, and no more sign-ins', async () => {
    const { student } = tenant;
    const res = await change(student.uid, { disabled: true }, tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.disabled, true);
    assert.equal((await adminAuth.getUser(student.uid)).disabled, true);
    assert.equal((await profileDoc(student.uid, tenant.clientId).get()).data()?.disabled, true);
    assertAudit(await onlyAuditRecord(student.uid, 'user_disabled'), {
      event_type: 'user_disabled',
      user_id: student.uid,
      actor_id: tenant.admin.uid,
      client_id: tenant.clientId,
      ip,
    });
    const refused = await writeWith(student);
    expectError(refused, 401, 'UNAUTHORIZED');
    assert.match(refused.body.message, /disabled/);
    await assert.rejects(signIn(student.email, student.password), /USER_DISABLED/);
  });

  it('enables a disabled user again: 200, a user_enabled record, and sign-in works', async () => {
    const { student } = tenant;
    assert.equal((await change(student.uid, { disabled: true }, tenant.admin.token)).status, 200);
    const res = await change(student.uid, { disabled: false }, tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.disabled, false);
    assert.equal((await onlyAuditRecord(student.uid, 'user_enabled')).actor_id, tenant.admin.uid);
    const token = await signIn(student.email, student.password);
    assert.equal((await get('/api/me', { token, ip })).status, 200);
  });

  it('changes a password: the old password and the old token stop working, the new password signs in', async () => {
    const { student } = tenant;
    await waitPastAuthTime(student.token);
    const res = await change(student.uid, { password: 'a-brand-new-password' }, tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assert.ok(!('password' in res.body), 'the password is never echoed');
    await assert.rejects(signIn(student.email, student.password), /INVALID_PASSWORD|INVALID_LOGIN_CREDENTIALS/);
    expectError(await writeWith(student), 401, 'UNAUTHORIZED');
    const token = await signIn(student.email, 'a-brand-new-password');
    assert.equal((await get('/api/me', { token, ip })).body.uid, student.uid);
  });

  it('answers 403 FORBIDDEN to a Client Admin demoting or disabling itself, and changes nothing', async () => {
    const { admin } = tenant;
    expectError(await change(admin.uid, { role: 'student' }, admin.token), 403, 'FORBIDDEN');
    expectError(await change(admin.uid, { disabled: true }, admin.token), 403, 'FORBIDDEN');
    const record = await adminAuth.getUser(admin.uid);
    assert.equal(record.disabled, false);
    assert.deepEqual(record.customClaims, { role: 'client_admin', client_id: tenant.clientId });
    assert.equal((await get('/api/users', { token: admin.token, ip })).status, 200, 'its token still works');
  });

  it('answers 403 FORBIDDEN to a Super Admin demoting or disabling itself', async () => {
    expectError(await change(superAdmin.uid, { disabled: true }, superAdmin.token), 403, 'FORBIDDEN');
    expectError(await change(superAdmin.uid, { role: 'client_admin' }, superAdmin.token), 403, 'FORBIDDEN');
    assert.equal((await adminAuth.getUser(superAdmin.uid)).disabled, false);
    assert.deepEqual(await claimsOf(superAdmin.uid), { role: 'super_admin' });
  });

  it('lets an administrator rename itself', async () => {
    const res = await change(tenant.admin.uid, { display_name: 'Head of Exams' }, tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.display_name, 'Head of Exams');
  });

  it('answers 403 FORBIDDEN to a Client Admin changing a user of another organization, and changes nothing', async () => {
    const target = m.otherTenant.student;
    expectError(await change(target.uid, { disabled: true }, tenant.admin.token), 403, 'FORBIDDEN');
    expectError(await change(target.uid, { display_name: 'Hijacked' }, tenant.admin.token), 403, 'FORBIDDEN');
    const record = await adminAuth.getUser(target.uid);
    assert.equal(record.disabled, false);
    assert.equal(record.displayName, 'Test student');
  });

  it('answers 403 FORBIDDEN to a Client Admin changing a Super Admin', async () => {
    expectError(await change(superAdmin.uid, { display_name: 'Demoted' }, tenant.admin.token), 403, 'FORBIDDEN');
  });

  it('lets a Super Admin change a user of any organization', async () => {
    const res = await change(m.otherTenant.admin.uid, { display_name: 'Renamed by the platform' }, superAdmin.token);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.display_name, 'Renamed by the platform');
  });

  it('lets a Super Admin rename and disable a signed-in user who has no role yet', async () => {
    const noRole = await createUser(null);
    const renamed = await change(noRole.uid, { display_name: 'Pending User' }, superAdmin.token);
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.display_name, 'Pending User');
    assert.equal(renamed.body.role, null);
    const disabled = await change(noRole.uid, { disabled: true }, superAdmin.token);
    assert.equal(disabled.status, 200, disabled.text);
    assert.equal((await adminAuth.getUser(noRole.uid)).disabled, true);
    assert.equal((await onlyAuditRecord(noRole.uid, 'user_disabled')).actor_id, superAdmin.uid);
  });

  it('lets a Super Admin give a first role and organization to a user who signed up on its own', async () => {
    const noRole = await createUser(null);
    await waitPastAuthTime(noRole.token);
    const res = await change(noRole.uid, { role: 'student', client_id: tenant.clientId }, superAdmin.token);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.role, 'student');
    assert.equal(res.body.client_id, tenant.clientId);
    assert.deepEqual(await claimsOf(noRole.uid), { role: 'student', client_id: tenant.clientId });
    assert.equal((await profileDoc(noRole.uid, tenant.clientId).get()).data()?.role, 'student');
    const record = await onlyAuditRecord(noRole.uid, 'role_changed');
    assert.deepEqual(record.details, { from: null, to: 'student' });
    assert.equal(record.client_id, tenant.clientId, 'the organization sees who joined it');
    const fresh = await signIn(noRole.email, noRole.password);
    assert.equal((await get('/api/me', { token: fresh, ip })).body.client_id, tenant.clientId);
    const listed = await get(`/api/users?role=student`, { token: tenant.admin.token, ip });
    assert.ok(listed.body.data.some((u: { uid: string }) => u.uid === noRole.uid));
  });

  it('answers 400 naming body.client_id when a first organization role comes without client_id, and 404 for a client that does not exist', async () => {
    const noRole = await createUser(null);
    expectValidation(await change(noRole.uid, { role: 'client_admin' }, superAdmin.token), ['body.client_id']);
    expectError(
      await change(noRole.uid, { role: 'student', client_id: `no-such-client-${randomUUID()}` }, superAdmin.token),
      404,
      'NOT_FOUND',
    );
    expectValidation(await change(noRole.uid, { role: 'super_admin', client_id: tenant.clientId }, superAdmin.token), [
      'body.client_id',
    ]);
    assert.equal((await claimsOf(noRole.uid))?.role, undefined, 'nothing was granted');
  });

  it('answers 403 FORBIDDEN to a Client Admin giving a first role in another organization to a user whose claims name its own, and grants nothing', async () => {
    // A user with a client_id claim but no role belongs to no organization.
    const drifter = await createUser(null);
    await adminAuth.setCustomUserClaims(drifter.uid, { client_id: tenant.clientId });
    const res = await change(
      drifter.uid,
      { role: 'client_admin', client_id: m.otherTenant.clientId },
      tenant.admin.token,
    );
    expectError(res, 403, 'FORBIDDEN');
    expectError(
      await change(drifter.uid, { role: 'student', client_id: tenant.clientId }, tenant.admin.token),
      403,
      'FORBIDDEN',
    );
    assert.deepEqual(await claimsOf(drifter.uid), { client_id: tenant.clientId }, 'no role was granted anywhere');
    assert.equal((await profileDoc(drifter.uid, m.otherTenant.clientId).get()).exists, false);
    expectError(await get(`/api/users/${drifter.uid}`, { token: tenant.admin.token, ip }), 403, 'FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to a Client Admin setting another Client Admin’s password, which keeps working', async () => {
    const colleague = await createUser('client_admin', tenant.clientId);
    expectError(await change(colleague.uid, { password: 'taken-over-password' }, tenant.admin.token), 403, 'FORBIDDEN');
    assert.ok(await signIn(colleague.email, colleague.password), 'the old password still signs in');
    assert.equal((await auditRecordsFor(colleague.uid, 'password_changed')).length, 0);
  });

  it('answers 403 FORBIDDEN to a Client Admin demoting another Client Admin (the first step of taking it over), and changes nothing', async () => {
    const colleague = await createUser('client_admin', tenant.clientId);
    expectError(await change(colleague.uid, { role: 'student' }, tenant.admin.token), 403, 'FORBIDDEN');
    assert.deepEqual(await claimsOf(colleague.uid), { role: 'client_admin', client_id: tenant.clientId });
    assert.equal((await auditRecordsFor(colleague.uid, 'role_changed')).length, 0);
  });

  it('answers 403 FORBIDDEN to a Super Admin setting another Super Admin’s password', async () => {
    const other = await createSuperAdmin();
    expectError(await change(other.uid, { password: 'taken-over-password' }, superAdmin.token), 403, 'FORBIDDEN');
    assert.ok(await signIn(other.email, other.password));
  });

  it('records a password_changed event, without the password, when a Super Admin sets a Client Admin’s password', async () => {
    const res = await change(tenant.admin.uid, { password: 'set-by-the-platform' }, superAdmin.token);
    assert.equal(res.status, 200, res.text);
    const record = await onlyAuditRecord(tenant.admin.uid, 'password_changed');
    assertAudit(record, {
      event_type: 'password_changed',
      user_id: tenant.admin.uid,
      actor_id: superAdmin.uid,
      client_id: tenant.clientId,
      ip,
    });
    assert.ok(!JSON.stringify(record).includes('set-by-the-platform'), 'the password is never stored');
    assert.ok(await signIn(tenant.admin.email, 'set-by-the-platform'));
  });

  it('records a password_changed event when a Client Admin sets a Student’s password, and when an admin sets its own', async () => {
    assert.equal((await change(tenant.student.uid, { password: 'set-by-the-school' }, tenant.admin.token)).status, 200);
    assert.equal((await onlyAuditRecord(tenant.student.uid, 'password_changed')).actor_id, tenant.admin.uid);
    assert.equal((await change(tenant.admin.uid, { password: 'my-own-new-password' }, tenant.admin.token)).status, 200);
    assert.equal((await onlyAuditRecord(tenant.admin.uid, 'password_changed')).actor_id, tenant.admin.uid);
  });

  it('records a profile_changed event with the old and new name when a user is renamed, and none when the name is unchanged', async () => {
    assert.equal((await change(tenant.student.uid, { display_name: 'Ada Lovelace' }, tenant.admin.token)).status, 200);
    const record = await onlyAuditRecord(tenant.student.uid, 'profile_changed');
    assertAudit(record, {
      event_type: 'profile_changed',
      user_id: tenant.student.uid,
      actor_id: tenant.admin.uid,
      client_id: tenant.clientId,
      ip,
    });
    assert.deepEqual(record.details, { display_name: { from: 'Test student', to: 'Ada Lovelace' } });
    assert.equal((await change(tenant.student.uid, { display_name: 'Ada Lovelace' }, tenant.admin.token)).status, 200);
    assert.equal((await auditRecordsFor(tenant.student.uid, 'profile_changed')).length, 1);
  });

  it('answers 400 naming body.client_id when anyone tries to move a user with a role to another organization', async () => {
    expectValidation(
      await change(tenant.student.uid, { role: 'client_admin', client_id: m.otherTenant.clientId }, superAdmin.token),
      ['body.client_id'],
    );
    assert.deepEqual(await claimsOf(tenant.student.uid), { role: 'student', client_id: tenant.clientId });
  });

  it('answers 404 NOT_FOUND for a user that does not exist', async () => {
    expectError(
      await change(`no-such-user-${randomUUID()}`, { display_name: 'x' }, tenant.admin.token),
      404,
      'NOT_FOUND',
    );
    expectError(
      await change(`no-such-user-${randomUUID()}`, { display_name: 'x' }, superAdmin.token),
      404,
      'NOT_FOUND',
    );
  });

  it('answers 403 FORBIDDEN to a Student, even about itself', async () => {
    expectError(await change(tenant.student.uid, { display_name: 'x' }, tenant.student.token), 403, 'FORBIDDEN');
    expectError(await change(tenant.admin.uid, { disabled: true }, tenant.student.token), 403, 'FORBIDDEN');
    assert.equal((await adminAuth.getUser(tenant.admin.uid)).disabled, false);
  });

  it('answers 403 FORBIDDEN to an anonymous Guest', async () => {
    expectError(await change(tenant.student.uid, { disabled: true }, m.guest.token), 403, 'FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to a signed-in user with no role', async () => {
    expectError(await change(tenant.student.uid, { disabled: true }, m.noRole.token), 403, 'FORBIDDEN');
  });

  it('answers 401 UNAUTHORIZED without a token, and changes nothing', async () => {
    expectError(await change(tenant.student.uid, { disabled: true }), 401, 'UNAUTHORIZED');
    assert.equal((await adminAuth.getUser(tenant.student.uid)).disabled, false);
  });

  it('answers 403 FORBIDDEN to the Client Admin of a deactivated client', async () => {
    const inactive = await createTenant({ active_status: 0 });
    expectError(await change(inactive.student.uid, { disabled: true }, inactive.admin.token), 403, 'FORBIDDEN');
    assert.equal((await adminAuth.getUser(inactive.student.uid)).disabled, false);
  });

  it('answers 400 VALIDATION_ERROR to an empty body', async () => {
    expectValidation(await change(tenant.student.uid, {}, tenant.admin.token), ['body']);
  });

  it('answers 400 VALIDATION_ERROR to fields that cannot be changed here, such as email, client_id or uid, naming them', async () => {
    expectValidation(await change(tenant.student.uid, { email: newEmail() }, tenant.admin.token), [], ['email']);
    expectValidation(
      await change(tenant.student.uid, { client_id: m.otherTenant.clientId }, superAdmin.token),
      [],
      ['client_id'],
    );
    expectValidation(await change(tenant.student.uid, { uid: 'other' }, tenant.admin.token), [], ['uid']);
    assert.deepEqual(await claimsOf(tenant.student.uid), { role: 'student', client_id: tenant.clientId });
  });

  it('answers 400 VALIDATION_ERROR naming each bad field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ role: 'guest' }, 'body.role'],
      [{ disabled: 'yes' }, 'body.disabled'],
      [{ password: 'short' }, 'body.password'],
      [{ display_name: '   ' }, 'body.display_name'],
    ];
    for (const [body, path] of cases)
      expectValidation(await change(tenant.student.uid, body, tenant.admin.token), [path]);
    assert.equal((await adminAuth.getUser(tenant.student.uid)).disabled, false);
  });
});

describe('DELETE /api/users/{uid}', () => {
  let m: RoleMatrix;
  let tenant: Tenant;
  let superAdmin: TestUser;
  let ip: string;
  before(async () => {
    m = await createRoleMatrix();
  });
  beforeEach(async () => {
    ip = freshIp();
    [tenant, superAdmin] = await Promise.all([createTenant(), createSuperAdmin()]);
  });

  const remove = (uid: string, token?: string) => del(`/api/users/${uid}`, { token, ip });

  it('lets a Client Admin delete a user of its organization: 204, then 404, the Auth user and profile gone, a user_deleted record', async () => {
    const { student } = tenant;
    const res = await remove(student.uid, tenant.admin.token);
    assert.equal(res.status, 204, res.text);
    assert.equal(res.text, '', 'no body');
    expectError(await get(`/api/users/${student.uid}`, { token: tenant.admin.token, ip }), 404, 'NOT_FOUND');
    assert.equal(await authUserExists(student.uid), false, 'the Auth user is gone');
    assert.equal((await profileDoc(student.uid, tenant.clientId).get()).exists, false, 'the profile is gone');
    const record = await onlyAuditRecord(student.uid, 'user_deleted');
    assertAudit(record, {
      event_type: 'user_deleted',
      user_id: student.uid,
      actor_id: tenant.admin.uid,
      client_id: tenant.clientId,
      ip,
    });
    assert.deepEqual(record.details, { email: student.email });
    const list = await get('/api/users', { token: tenant.admin.token, ip });
    assert.deepEqual(
      list.body.data.map((u: any) => u.uid),
      [tenant.admin.uid],
    );
    await assert.rejects(signIn(student.email, student.password), /EMAIL_NOT_FOUND|INVALID_LOGIN_CREDENTIALS/);
  });

  it('refuses the deleted user’s token with 401 on a write', async () => {
    const { student } = tenant;
    const res = await remove(student.uid, tenant.admin.token);
    assert.equal(res.status, 204, res.text);
    const write = await patch(
      `/api/users/${student.uid}`,
      { display_name: 'Ghost' },
      { token: student.token, ip: freshIp() },
    );
    expectError(write, 401, 'UNAUTHORIZED');
  });

  it('answers 404 NOT_FOUND to a second delete of the same user', async () => {
    assert.equal((await remove(tenant.student.uid, tenant.admin.token)).status, 204);
    expectError(await remove(tenant.student.uid, tenant.admin.token), 404, 'NOT_FOUND');
    assert.equal((await auditRecordsFor(tenant.student.uid, 'user_deleted')).length, 1, 'one record only');
  });

  it('lets a Super Admin delete a user of any organization, and another Super Admin', async () => {
    const other = await createSuperAdmin();
    assert.equal((await remove(m.otherTenant.student.uid, superAdmin.token)).status, 204);
    assert.equal((await remove(other.uid, superAdmin.token)).status, 204);
    assert.equal(await authUserExists(other.uid), false);
    assert.equal((await profileDoc(other.uid, null).get()).exists, false);
    assert.equal((await onlyAuditRecord(other.uid, 'user_deleted')).client_id, null);
  });

  it('lets a Super Admin delete a signed-in user who has no role yet', async () => {
    const noRole = await createUser(null);
    assert.equal((await remove(noRole.uid, superAdmin.token)).status, 204);
    assert.equal(await authUserExists(noRole.uid), false);
  });

  it('answers 403 FORBIDDEN to a Client Admin deleting a user of another organization, who stays', async () => {
    const target = m.otherTenant.admin;
    expectError(await remove(target.uid, tenant.admin.token), 403, 'FORBIDDEN');
    assert.equal(await authUserExists(target.uid), true);
    assert.equal((await profileDoc(target.uid, target.clientId).get()).exists, true);
    assert.deepEqual(await auditRecordsFor(target.uid, 'user_deleted'), []);
  });

  it('answers 403 FORBIDDEN to a Client Admin deleting a Super Admin', async () => {
    expectError(await remove(superAdmin.uid, tenant.admin.token), 403, 'FORBIDDEN');
    assert.equal(await authUserExists(superAdmin.uid), true);
  });

  it('answers 403 FORBIDDEN to an administrator deleting itself', async () => {
    expectError(await remove(tenant.admin.uid, tenant.admin.token), 403, 'FORBIDDEN');
    expectError(await remove(superAdmin.uid, superAdmin.token), 403, 'FORBIDDEN');
    assert.equal(await authUserExists(tenant.admin.uid), true);
    assert.equal(await authUserExists(superAdmin.uid), true);
  });

  it('answers 404 NOT_FOUND for a user that does not exist', async () => {
    expectError(await remove(`no-such-user-${randomUUID()}`, tenant.admin.token), 404, 'NOT_FOUND');
    expectError(await remove(`no-such-user-${randomUUID()}`, superAdmin.token), 404, 'NOT_FOUND');
  });

  it('answers 403 FORBIDDEN to a Student, even about itself', async () => {
    expectError(await remove(tenant.student.uid, tenant.student.token), 403, 'FORBIDDEN');
    const classmate = await createUser('student', tenant.clientId);
    expectError(await remove(classmate.uid, tenant.student.token), 403, 'FORBIDDEN');
    assert.equal(await authUserExists(classmate.uid), true);
  });

  it('answers 403 FORBIDDEN to an anonymous Guest', async () => {
    expectError(await remove(tenant.student.uid, m.guest.token), 403, 'FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to a signed-in user with no role', async () => {
    expectError(await remove(tenant.student.uid, m.noRole.token), 403, 'FORBIDDEN');
  });

  it('answers 401 UNAUTHORIZED without a token, and deletes nothing', async () => {
    expectError(await remove(tenant.student.uid), 401, 'UNAUTHORIZED');
    assert.equal(await authUserExists(tenant.student.uid), true);
  });

  it('answers 403 FORBIDDEN to the Client Admin of a deactivated client', async () => {
    const inactive = await createTenant({ active_status: 0 });
    expectError(await remove(inactive.student.uid, inactive.admin.token), 403, 'FORBIDDEN');
    assert.equal(await authUserExists(inactive.student.uid), true);
  });
});
