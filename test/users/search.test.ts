import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { FieldValue } from 'firebase-admin/firestore';
import type { Role } from '../../functions/src/auth/principal';
import { newProfile } from '../../functions/src/users/profiles';
import { adminDb } from '../support/admin';
import { createRoleMatrix, createSuperAdmin, createTenant, type RoleMatrix } from '../support/fixtures';
import { freshIp, get, patch, post, debugCost, type ApiResponse } from '../support/http';
import { expectError, expectValidation } from '../support/assertions';

// Searching an organization's users by the start of their email or name
// (`GET /api/users?q=`). Most people here are profiles written straight to
// Firestore: the search reads profiles only, and the organizations need many.

/** A profile as the service writes it, with no Auth account behind it: its uid. */
async function person(clientId: string, name: string, email: string, role: Role = 'student'): Promise<string> {
  const uid = `p-${randomUUID()}`;
  const profile = newProfile({ uid, email, display_name: name, role, client_id: clientId }, new Date().toISOString());
  await adminDb.collection('clients').doc(clientId).collection('users').doc(uid).set(profile);
  return uid;
}

const tag = () => randomUUID().slice(0, 8);

describe('GET /api/users?q= (search by the start of an email or a name)', function () {
  this.timeout(60_000);
  let m: RoleMatrix;
  let ada: string;
  let zoe: string;
  let adamant: string;
  before(async () => {
    m = await createRoleMatrix();
    [ada, zoe, adamant] = await Promise.all([
      person(m.tenant.clientId, 'Ada Lovelace', 'countess@analytical.example'),
      person(m.tenant.clientId, 'Zoë Ångström', 'zoe.a@physics.example'),
      // Matches "ada" by both its email and its name: listed once.
      person(m.tenant.clientId, 'Adamant Admin', 'adamant@school.example', 'client_admin'),
    ]);
    // The same name in another organization: never seen from this one.
    await person(m.otherTenant.clientId, 'Ada Elsewhere', 'ada@other.example');
  });

  const search = (query: string, token: string) => get(`/api/users?${query}`, { token, ip: freshIp() });
  const uids = (res: ApiResponse) => res.body.data.map((u: { uid: string }) => u.uid);

  it('finds users by the start of their name, case aside, as one page by email', async () => {
    const res = await search('q=ADA', m.tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(uids(res), [adamant, ada], 'by email: adamant@ before countess@');
    assert.deepEqual(res.body.pagination, { page: 1, limit: 20, total: 2, pages: 1, next_cursor: null });
    // A list says whether each user can sign in yet (from Auth).
    assert.deepEqual(Object.keys(res.body.data[0]).sort(), [
      'can_sign_in',
      'client_id',
      'created_at',
      'disabled',
      'display_name',
      'email',
      'role',
      'uid',
      'updated_at',
    ]);
  });

  it('finds users by the start of their email', async () => {
    const res = await search('q=Countess%40Ana', m.tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(uids(res), [ada]);
  });

  it('finds a name with accents by its letters without them, and the other way round', async () => {
    for (const q of ['zoe ang', 'ZOË Å']) {
      const res = await search(`q=${encodeURIComponent(q)}`, m.tenant.admin.token);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(uids(res), [zoe], q);
    }
  });

  it('matches the start only, not the middle of a name or an email', async () => {
    for (const q of ['lovelace', 'analytical']) {
      const res = await search(`q=${q}`, m.tenant.admin.token);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(uids(res), [], q);
    }
  });

  it('combines with role and disabled', async () => {
    const students = await search('q=ada&role=student', m.tenant.admin.token);
    assert.deepEqual(uids(students), [ada]);
    const admins = await search('q=ada&role=client_admin&disabled=false', m.tenant.admin.token);
    assert.deepEqual(uids(admins), [adamant]);
    const disabled = await search('q=ada&disabled=true', m.tenant.admin.token);
    assert.deepEqual(uids(disabled), []);
  });

  it('keeps a Client Admin to its own organization: another one’s users are not found, and naming it is 403', async () => {
    const own = await search('q=ada%20e', m.tenant.admin.token);
    assert.deepEqual(uids(own), []);
    expectError(await search(`q=ada&client_id=${m.otherTenant.clientId}`, m.tenant.admin.token), 403, 'FORBIDDEN');
  });

  it('searches the organization a Super Admin names, and needs one named', async () => {
    const res = await search(`q=ada&client_id=${m.otherTenant.clientId}`, m.superAdmin.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.data.map((u: { email: string }) => u.email),
      ['ada@other.example'],
    );
    expectValidation(await search('q=ada', m.superAdmin.token), ['query.client_id']);
  });

  it('searches the Super Admins for a Super Admin asking for role=super_admin', async () => {
    const other = await createSuperAdmin();
    const prefix = other.email.slice(0, other.email.indexOf('@'));
    const res = await search(`q=${prefix}&role=super_admin`, m.superAdmin.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(uids(res), [other.uid]);
  });

  it('answers 403 FORBIDDEN to a Student', async () => {
    expectError(await search('q=ada', m.tenant.student.token), 403, 'FORBIDDEN');
  });

  for (const [query, path] of [
    ['q=', 'query.q'],
    ['q=%20%20%20', 'query.q'],
    [`q=${'a'.repeat(101)}`, 'query.q'],
    // 50 characters that fold to 900: the folded text keeps the bound.
    [`q=${encodeURIComponent('\uFDFA'.repeat(50))}`, 'query.q'],
    ['q=ada&limit=51', 'query.limit'],
    ['q=ada&page=2', 'query.page'],
    ['q=ada&cursor=abc', 'query.cursor'],
  ]) {
    it(`answers 400 VALIDATION_ERROR naming ${path} for ?${query.slice(0, 30)}`, async () => {
      expectValidation(await search(query, m.tenant.admin.token), [path]);
    });
  }

  it('accepts q of 100 characters', async () => {
    const res = await search(`q=${'a'.repeat(100)}`, m.tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(uids(res), []);
  });

  it('accepts a character that folds to 18 (U+FDFA), 5 of them folding to 90', async () => {
    const res = await search(`q=${encodeURIComponent('\uFDFA'.repeat(5))}`, m.tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(uids(res), []);
  });

  it('finds no one for text that folds to nothing (accents alone)', async () => {
    const res = await search(`q=${encodeURIComponent('\u0301')}`, m.tenant.admin.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(uids(res), []);
  });
});

describe('GET /api/users?q=: limits and cost', function () {
  this.timeout(120_000);

  it('answers at most `limit` users (20 unless told), the first by email', async () => {
    const tenant = await createTenant();
    const t = tag();
    const made = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        person(tenant.clientId, `Sam ${t} ${i}`, `sam-${t}-${String(i).padStart(2, '0')}@x.example`),
      ),
    );
    const all = await get(`/api/users?q=sam`, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(
      all.body.data.map((u: { uid: string }) => u.uid),
      made.slice(0, 20),
    );
    const five = await get(`/api/users?q=sam&limit=5`, { token: tenant.admin.token, ip: freshIp() });
    assert.deepEqual(
      five.body.data.map((u: { uid: string }) => u.uid),
      made.slice(0, 5),
    );
    assert.deepEqual(five.body.pagination, { page: 1, limit: 5, total: 5, pages: 1, next_cursor: null });
  });

  it('reads the same few documents in an organization of 12 and of 300 matching users', async () => {
    const reads: number[] = [];
    for (const size of [12, 300]) {
      const tenant = await createTenant();
      const t = tag();
      for (let start = 0; start < size; start += 100) {
        const batch = adminDb.batch();
        for (let i = start; i < Math.min(size, start + 100); i++) {
          const uid = `p-${t}-${i}`;
          batch.set(
            adminDb.collection('clients').doc(tenant.clientId).collection('users').doc(uid),
            newProfile(
              {
                uid,
                email: `kim-${t}-${i}@x.example`,
                display_name: `Kim ${i}`,
                role: 'student',
                client_id: tenant.clientId,
              },
              new Date().toISOString(),
            ),
          );
        }
        await batch.commit();
      }
      const res = await get('/api/users?q=kim&limit=10', { token: tenant.admin.token, ip: freshIp() });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.length, 10);
      const figures = debugCost(res);
      assert.ok(Number.isFinite(figures.reads), `X-Debug-Cost: ${res.headers.get('x-debug-cost')}`);
      reads.push(figures.reads);
    }
    // Two queries of at most 10 each, the page's 10 students' accommodations (one getAll, a read per
    // student asked for, held or not), plus what every request reads (rate limits, the organization).
    assert.equal(reads[0], reads[1], `reads with 12 and 300 matching users: ${reads.join(', ')}`);
    assert.ok(reads[1] <= 2 * 10 + 10 + 5, `${reads[1]} reads`);
  });
});

describe('user search keys on profile writes', function () {
  this.timeout(60_000);

  it('gives a user created through the API its keys, so the search finds it at once', async () => {
    const tenant = await createTenant();
    const t = tag();
    const made = await post(
      '/api/users',
      {
        email: `Quill-${t}@x.example`,
        password: 'a-long-enough-password',
        display_name: 'Élodie Quill',
        role: 'student',
      },
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.email_lower, undefined, 'the keys are not part of the reply');
    for (const q of ['elodie', `quill-${t}`]) {
      const res = await get(`/api/users?q=${q}`, { token: tenant.admin.token, ip: freshIp() });
      assert.deepEqual(
        res.body.data.map((u: { uid: string }) => u.uid),
        [made.body.uid],
        q,
      );
    }
  });

  it('follows a change of name, and gives keys to a profile written before they existed', async () => {
    const tenant = await createTenant();
    const ref = adminDb.collection('clients').doc(tenant.clientId).collection('users').doc(tenant.student.uid);
    await ref.update({ email_lower: FieldValue.delete(), name_lower: FieldValue.delete() });
    const find = async (q: string) =>
      (await get(`/api/users?q=${q}`, { token: tenant.admin.token, ip: freshIp() })).body.data.map(
        (u: { uid: string }) => u.uid,
      );
    assert.deepEqual(await find('test%20student'), [], 'an old profile is not found before its keys are written');
    const renamed = await patch(
      `/api/users/${tenant.student.uid}`,
      { display_name: 'Renée Marsh' },
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual(await find('renee'), [tenant.student.uid]);
    assert.deepEqual(await find('test%20student'), [], 'the old name is gone');
    assert.deepEqual(await find(tenant.student.email.slice(0, 10)), [tenant.student.uid], 'the email too');
  });
});
