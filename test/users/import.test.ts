import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { adminAuth, adminDb } from '../support/admin';
import { expectError } from '../support/assertions';
import { auditRecordsFor, createSuperAdmin, createTenant, createUser, signIn } from '../support/fixtures';
import { patch, post } from '../support/http';
import { csvUpload, postBytes } from '../support/multipart';

// POST /api/users/import, POST /api/users without a password and POST /api/users/{uid}/invitation over
// real HTTP. Each is sensitive (10 a minute per user), so each test acts as an administrator of its own.

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const freshEmail = (tag = 'new') => `${tag}-${randomUUID().slice(0, 12)}@users-import.example`;
const admin = async (t: Tenant) => (await createUser('client_admin', t.clientId)).token;
const accountOf = (email: string) => adminAuth.getUserByEmail(email).catch(() => undefined);

function importUsers(csv: string, token: string, query: Record<string, string> = {}) {
  const upload = csvUpload(csv, 'students.csv');
  const search = new URLSearchParams(query).toString();
  return postBytes(`/api/users/import${search ? `?${search}` : ''}`, upload.body, upload.contentType, { token });
}

/** Follows an invitation link as the student would: its token (from the fragment) and a password, then a sign-in. */
async function acceptInvitation(link: string, email: string): Promise<string> {
  const token = new URL(link).hash.replace(/^#token=/, '');
  assert.match(token, /^[A-Za-z0-9_-]{43}$/, `a token in ${link}`);
  const password = 'chosen-by-the-student';
  const res = await post('/api/invitations/redeem', { token, password });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.email, email);
  return signIn(email, password);
}

let tenant: Tenant;
let other: Tenant;
before(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
});

describe('POST /api/users/import', () => {
  it('creates the missing students (with the row’s password, or an invitation link), reports existing ones, and audits each', async () => {
    const token = await admin(tenant);
    const [withPassword, invited] = [freshEmail('pw'), freshEmail('inv')];
    const res = await importUsers(
      `email,name,password\r\n${withPassword.toUpperCase()},Ada Lovelace,analytical-engine\r\n${invited},"Hopper, Grace",\r\n${tenant.student.email},Student,\r\n`,
      token,
    );
    assert.equal(res.status, 200, res.text);
    const [a, b] = [await adminAuth.getUserByEmail(withPassword), await adminAuth.getUserByEmail(invited)];
    const { rows, ...counts } = res.body;
    assert.deepEqual(counts, {
      client_id: tenant.clientId,
      dry_run: false,
      mode: 'all_or_nothing',
      rows_total: 3,
      created: 2,
      already_members: 1,
      failed: 0,
    });
    assert.deepEqual(rows[0], { line: 2, email: withPassword, name: 'Ada Lovelace', status: 'created', uid: a.uid });
    assert.equal(rows[1].status, 'created');
    assert.equal(rows[1].uid, b.uid);
    assert.match(rows[1].invitation_link, /\/invitation#token=/);
    assert.deepEqual(rows[2], {
      line: 4,
      email: tenant.student.email,
      name: 'Student',
      status: 'already_member',
      uid: tenant.student.uid,
    });
    // Students of the organization, with their profiles (found by the search) and a user_created record each.
    for (const account of [a, b]) {
      assert.deepEqual(account.customClaims, { role: 'student', client_id: tenant.clientId });
      const profile = await adminDb.doc(`clients/${tenant.clientId}/users/${account.uid}`).get();
      assert.equal(profile.get('role'), 'student');
      assert.equal(profile.get('email_lower'), account.email);
      assert.equal((await auditRecordsFor(account.uid, 'user_created')).length, 1);
    }
    assert.equal(b.passwordHash, undefined, 'no password until the student chooses one');
    assert.ok(await signIn(withPassword, 'analytical-engine'), 'the row’s password signs in');
    assert.ok(await acceptInvitation(rows[1].invitation_link, invited), 'the invitation leads to a sign-in');
  });

  it('refuses the whole file when a row is in error (all or nothing), writing nothing, and lists the rows', async () => {
    const email = freshEmail();
    const res = await importUsers(
      `email,name,password\n${email},New,\nnot-an-email,Bad,\n${freshEmail()},Short,abc\n${other.student.email},Other,\n`,
      await admin(tenant),
    );
    expectError(res, 400, 'VALIDATION_ERROR');
    assert.deepEqual(
      res.body.rows.map((r: { line: number; message: string }) => [r.line, r.message]),
      [
        [3, 'email is not a valid email address'],
        [4, 'password must be 8 to 128 characters'],
        [5, 'cannot be added: the account is not a student of this organization'],
      ],
    );
    assert.equal(await accountOf(email), undefined);
  });

  it('imports the valid rows in partial mode, and a dry run reports what would be done without an account or a link', async () => {
    const token = await admin(tenant);
    const email = freshEmail();
    const csv = `email,name\n${email},Partial Student\n${email},Again\n${tenant.admin.email},An admin\n`;
    const dry = await importUsers(csv, token, { mode: 'partial', dry_run: 'true' });
    assert.equal(dry.status, 200, dry.text);
    assert.deepEqual(
      dry.body.rows.map((r: { status: string; message?: string }) => [r.status, r.message]),
      [
        ['created', undefined],
        ['error', 'email repeats line 2'],
        ['error', 'cannot be added: the account is not a student of this organization'],
      ],
    );
    assert.equal(dry.body.dry_run, true);
    assert.equal(dry.body.rows[0].invitation_link, undefined);
    assert.equal(await accountOf(email), undefined, 'a dry run makes no account');

    const res = await importUsers(csv, token, { mode: 'partial' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.created, res.body.failed], [1, 2]);
    assert.ok(await accountOf(email));
    // Sent again, the student is there: nothing to do, no second record.
    const again = await importUsers(`email,name\n${email},Partial Student\n`, token);
    assert.equal(again.body.rows[0].status, 'already_member');
    assert.equal((await auditRecordsFor(again.body.rows[0].uid, 'user_created')).length, 1);
  });

  it('answers 400 for a file that is not a roster (bad header, a new student without a name, no row valid)', async () => {
    const token = await admin(tenant);
    const header = await importUsers('mail,fullname\na@b.example,A\n', token);
    expectError(header, 400, 'VALIDATION_ERROR');
    assert.match(header.body.message, /unknown column "mail"/);
    const noName = await importUsers(`email,name\n${freshEmail()},\n`, token, { mode: 'partial' });
    expectError(noName, 400, 'VALIDATION_ERROR');
    assert.match(noName.body.message, /None of the 1 rows/);
    assert.equal(noName.body.rows[0].message, 'name is required to create a new student account');
    const unquoted = await importUsers('email,name\n"a@b.example,A\n', token);
    expectError(unquoted, 400, 'VALIDATION_ERROR');
  });

  it('keeps each organization to its own: a Client Admin cannot name another, a Super Admin names one, a student gets 403', async () => {
    const email = freshEmail();
    const csv = `email,name\n${email},Isolated\n`;
    expectError(await importUsers(csv, await admin(tenant), { client_id: other.clientId }), 403, 'FORBIDDEN');
    expectError(await importUsers(csv, tenant.student.token), 403, 'FORBIDDEN');
    assert.equal(await accountOf(email), undefined);

    const superAdmin = await createSuperAdmin();
    expectError(await importUsers(csv, superAdmin.token), 400, 'VALIDATION_ERROR');
    const res = await importUsers(csv, superAdmin.token, { client_id: other.clientId });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual((await adminAuth.getUserByEmail(email)).customClaims, {
      role: 'student',
      client_id: other.clientId,
    });
    // The other organization's student is not this one's to import.
    const across = await importUsers(csv, await admin(tenant), { mode: 'partial' });
    expectError(across, 400, 'VALIDATION_ERROR');
  });
});

describe('POST /api/users without a password', () => {
  it('creates the student with no password and answers an invitation link that leads to a sign-in', async () => {
    const email = freshEmail('one');
    const res = await post(
      '/api/users',
      { email, display_name: 'Invited One', role: 'student' },
      { token: await admin(tenant) },
    );
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.role, 'student');
    assert.match(res.body.invitation_link, /\/invitation#token=/);
    assert.ok(await acceptInvitation(res.body.invitation_link, email));
  });

  it('answers no link when a password is set', async () => {
    const res = await post(
      '/api/users',
      { email: freshEmail('pw'), display_name: 'With Password', role: 'student', password: 'long-enough-1' },
      { token: await admin(tenant) },
    );
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.invitation_link, undefined);
  });
});

describe('POST /api/users/{uid}/invitation', () => {
  it('makes a new link for a student of the organization, audited as invitation_issued', async () => {
    const student = await createUser('student', tenant.clientId);
    const res = await post(`/api/users/${student.uid}/invitation`, undefined, { token: await admin(tenant) });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.email, student.email);
    assert.ok(await acceptInvitation(res.body.invitation_link, student.email));
    assert.equal((await auditRecordsFor(student.uid, 'invitation_issued')).length, 1);
  });

  it('refuses another organization’s user (403), a peer administrator (403), a student (403) and a deactivated account (409)', async () => {
    const token = await admin(tenant);
    expectError(await post(`/api/users/${other.student.uid}/invitation`, undefined, { token }), 403, 'FORBIDDEN');
    expectError(await post(`/api/users/${tenant.admin.uid}/invitation`, undefined, { token }), 403, 'FORBIDDEN');
    expectError(
      await post(`/api/users/${tenant.admin.uid}/invitation`, undefined, { token: tenant.student.token }),
      403,
      'FORBIDDEN',
    );
    const student = await createUser('student', tenant.clientId);
    assert.equal((await patch(`/api/users/${student.uid}`, { disabled: true }, { token })).status, 200);
    expectError(await post(`/api/users/${student.uid}/invitation`, undefined, { token }), 409, 'CONFLICT');
  });
});
