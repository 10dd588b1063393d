import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_MEMBERS_PER_CLASS, type StoredClass } from '../../functions/src/classes/documents';
import { MAX_ROSTER_ROWS } from '../../functions/src/classes/rosterSchemas';
import { adminAuth, adminDb } from '../support/admin';
import { expectError, expectValidation } from '../support/assertions';
import { createTenant, createUser, type TestUser } from '../support/fixtures';
import { csvUpload, multipartBody, postBytes, type Multipart } from '../support/multipart';

// POST /api/classes/{classId}/roster over real HTTP, with real tokens. The import is
// sensitive (10 per minute per user), so each test uploads as an administrator of its own.

const EXAMPLE = readFileSync(join(__dirname, '..', '..', 'examples', 'roster.csv'));
const NEUTRAL = 'cannot be added: the account is not a student of this organization';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** A class stored as the classes feature stores one. */
async function createClass(clientId: string, memberCount = 0): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const cls: StoredClass = {
    id,
    client_id: clientId,
    name: `Class ${id.slice(0, 8)}`,
    code: null,
    member_count: memberCount,
    created_at: now,
    updated_at: now,
  };
  await adminDb.doc(`clients/${clientId}/classes/${id}`).set(cls);
  return id;
}

const freshEmail = (tag = 'new') => `${tag}-${randomUUID().slice(0, 12)}@roster.example`;
const admin = async (t: Tenant) => (await createUser('client_admin', t.clientId)).token;

function roster(classId: string, file: string | Buffer | Multipart, token: string, query: Record<string, string> = {}) {
  const upload = typeof file === 'string' || Buffer.isBuffer(file) ? csvUpload(file, 'roster.csv') : file;
  const search = new URLSearchParams(query).toString();
  return postBytes(`/api/classes/${classId}/roster${search ? `?${search}` : ''}`, upload.body, upload.contentType, {
    token,
  });
}

const memberIds = async (clientId: string, classId: string) =>
  (await adminDb.collection(`clients/${clientId}/classes/${classId}/members`).get()).docs.map((d) => d.id).sort();
const memberCount = async (clientId: string, classId: string) =>
  (await adminDb.doc(`clients/${clientId}/classes/${classId}`).get()).get('member_count') as number;
const accountOf = (email: string) => adminAuth.getUserByEmail(email).catch(() => undefined);

/** Runs `act` and checks it left the class, its members and Auth as they were (no account for `newEmails`). */
async function writesNothing(clientId: string, classId: string, newEmails: string[], act: () => Promise<void>) {
  const [members, count] = await Promise.all([memberIds(clientId, classId), memberCount(clientId, classId)]);
  await act();
  assert.deepEqual(await memberIds(clientId, classId), members, 'no member written');
  assert.equal(await memberCount(clientId, classId), count, 'member_count unchanged');
  for (const email of newEmails) assert.equal(await accountOf(email), undefined, `no account for ${email}`);
}

let tenant: Tenant;
let other: Tenant;
before(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
});

describe('POST /api/classes/{classId}/roster', () => {
  describe('a valid roster', () => {
    it('creates the missing students, adds the existing ones and reports members already there, each row with its uid', async () => {
      const classId = await createClass(tenant.clientId);
      const token = await admin(tenant);
      const [existing, member] = await Promise.all([
        createUser('student', tenant.clientId),
        createUser('student', tenant.clientId),
      ]);
      const first = await roster(classId, `email,name\n${member.email},Member\n`, token);
      assert.equal(first.status, 200, first.text);

      const created = freshEmail();
      const res = await roster(
        classId,
        `Name,EMAIL\r\nNew Student,${created.toUpperCase()}\r\n"Lovelace, Ada",${existing.email}\r\nMember,${member.email}\r\n`,
        token,
      );
      assert.equal(res.status, 200, res.text);
      const account = await adminAuth.getUserByEmail(created);
      assert.deepEqual(res.body, {
        class_id: classId,
        dry_run: false,
        mode: 'all_or_nothing',
        rows_total: 3,
        created: 1,
        added: 1,
        already_members: 1,
        failed: 0,
        rows: [
          { line: 2, email: created, name: 'New Student', status: 'created', uid: account.uid },
          { line: 3, email: existing.email, name: 'Lovelace, Ada', status: 'added', uid: existing.uid },
          { line: 4, email: member.email, name: 'Member', status: 'already_member', uid: member.uid },
        ],
      });
      assert.deepEqual(await memberIds(tenant.clientId, classId), [account.uid, existing.uid, member.uid].sort());
      assert.equal(await memberCount(tenant.clientId, classId), 3);
    });

    it('makes a new student an account without a password, with the claims and profile a student created through /api/users has', async () => {
      const classId = await createClass(tenant.clientId);
      const email = freshEmail();
      const res = await roster(classId, `email,name\n${email},Grace Hopper\n`, await admin(tenant));
      assert.equal(res.status, 200, res.text);
      const account = await adminAuth.getUserByEmail(email);
      assert.deepEqual(account.customClaims, { role: 'student', client_id: tenant.clientId });
      assert.equal(account.displayName, 'Grace Hopper');
      assert.equal(
        account.passwordHash,
        undefined,
        'no password: the student signs in after a reset or a sign-in link',
      );
      assert.equal(account.disabled, false);
      const profile = (await adminDb.doc(`clients/${tenant.clientId}/users/${account.uid}`).get()).data();
      assert.ok(profile);
      assert.equal(profile.role, 'student');
      assert.equal(profile.client_id, tenant.clientId);
      assert.equal(profile.email, email);
      assert.equal(profile.display_name, 'Grace Hopper');
      assert.deepEqual(profile.class_ids, [classId]);
    });

    it('imports examples/roster.csv: a student account for each row', async () => {
      const t = await createTenant();
      const classId = await createClass(t.clientId);
      const res = await roster(classId, EXAMPLE, t.admin.token);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.rows_total, 4);
      assert.equal(res.body.created, 4);
      assert.equal(res.body.rows[2].name, 'Hopper, Grace');
    });

    it('writes one class_members_imported audit record naming the class', async () => {
      const classId = await createClass(tenant.clientId);
      const res = await roster(classId, `email,name\n${freshEmail()},A\n${freshEmail()},B\n`, await admin(tenant));
      assert.equal(res.status, 200, res.text);
      const records = await adminDb
        .collection('audit_logs')
        .where('event_type', '==', 'class_members_imported')
        .where('client_id', '==', tenant.clientId)
        .get();
      assert.equal(records.docs.filter((d) => JSON.stringify(d.get('details')).includes(classId)).length, 1);
    });
  });

  describe('an import cut short', () => {
    it('completes a student whose account an earlier import made but whose profile it never wrote: sent again, the roster adds it and writes its profile', async () => {
      const classId = await createClass(tenant.clientId);
      const email = freshEmail('cut');
      // What a process stopping between the Auth bulk import and the membership transaction leaves behind.
      const account = await adminAuth.createUser({ email, displayName: 'Cut Short' });
      await adminAuth.setCustomUserClaims(account.uid, { role: 'student', client_id: tenant.clientId });
      const res = await roster(classId, `email,name\n${email},Cut Short\n`, await admin(tenant));
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body.rows.map((r: { status: string; uid: string }) => [r.status, r.uid]),
        [['added', account.uid]],
      );
      const profile = (await adminDb.doc(`clients/${tenant.clientId}/users/${account.uid}`).get()).data()!;
      assert.equal(profile.role, 'student');
      assert.equal(profile.client_id, tenant.clientId);
      assert.deepEqual(profile.class_ids, [classId]);
      assert.deepEqual(await memberIds(tenant.clientId, classId), [account.uid]);
    });
  });

  describe('dry run', () => {
    it('reports what would happen and writes nothing: no member, no account', async () => {
      const classId = await createClass(tenant.clientId);
      const [token, existing] = await Promise.all([admin(tenant), createUser('student', tenant.clientId)]);
      const email = freshEmail();
      await writesNothing(tenant.clientId, classId, [email], async () => {
        const res = await roster(classId, `email,name\n${email},New\n${existing.email},Old\n`, token, {
          dry_run: 'true',
        });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.dry_run, true);
        assert.deepEqual(
          res.body.rows.map((r: { status: string }) => r.status),
          ['created', 'added'],
        );
        assert.equal(res.body.created, 1);
        assert.equal(res.body.added, 1);
      });
    });
  });

  describe('rows in error', () => {
    it('refuses duplicate emails (case aside) whole: 400 with the later rows, nothing written', async () => {
      const classId = await createClass(tenant.clientId);
      const [a, b] = [freshEmail(), freshEmail()];
      await writesNothing(tenant.clientId, classId, [a, b], async () => {
        const res = await roster(
          classId,
          `email,name\n${a},A\n${b},B\n${a.toUpperCase()},A again\n`,
          await admin(tenant),
        );
        expectValidation(res, ['row 4.email']);
        assert.match(res.body.message, /nothing was imported \(send \?mode=partial/);
        assert.deepEqual(res.body.rows, [
          { line: 4, email: a, name: 'A again', status: 'error', message: 'email repeats line 2' },
        ]);
      });
    });

    it('refuses another organization’s student and this organization’s admin with one neutral message that names no organization', async () => {
      const classId = await createClass(tenant.clientId);
      const foreign = await createUser('student', other.clientId);
      const res = await roster(
        classId,
        `email,name\n${foreign.email},Foreign\n${tenant.admin.email},Admin\n${freshEmail()},New\n`,
        await admin(tenant),
      );
      expectValidation(res, ['row 2.email', 'row 3.email']);
      assert.deepEqual(
        res.body.rows.map((r: { line: number; message: string }) => [r.line, r.message]),
        [
          [2, NEUTRAL],
          [3, NEUTRAL],
        ],
      );
      assert.ok(!res.text.includes(other.clientId), 'the other organization is not named');
      assert.ok(!res.text.includes(foreign.uid) && !res.text.includes(tenant.admin.uid), 'no uid of a refused account');
      const profile = await adminDb.doc(`clients/${other.clientId}/users/${foreign.uid}`).get();
      assert.equal(profile.get('class_ids'), undefined, 'the foreign student was not touched');
    });

    it('refuses a super admin’s and a user-without-role’s email the same way', async () => {
      const classId = await createClass(tenant.clientId);
      const [superAdmin, noRole] = await Promise.all([createUser('super_admin'), createUser(null)]);
      const res = await roster(classId, `email,name\n${superAdmin.email},S\n${noRole.email},N\n`, await admin(tenant));
      expectValidation(res, ['row 2.email', 'row 3.email'], [NEUTRAL]);
    });

    it('refuses invalid emails, a new student without a name and a name over 100 characters, each on its row', async () => {
      const classId = await createClass(tenant.clientId);
      const res = await roster(
        classId,
        `email,name\nnot-an-email,X\n,Nobody\n${freshEmail()},\n${freshEmail()},${'n'.repeat(101)}\n`,
        await admin(tenant),
      );
      expectValidation(res, ['row 2.email', 'row 3.email', 'row 4.email', 'row 5.email']);
      assert.deepEqual(
        res.body.rows.map((r: { message: string }) => r.message),
        [
          'email is not a valid email address',
          'email is required',
          'name is required to create a new student account',
          'name is longer than 100 characters',
        ],
      );
    });
  });

  describe('partial mode', () => {
    it('imports the valid rows and reports the others in the 200', async () => {
      const classId = await createClass(tenant.clientId);
      const [ok, dup] = [freshEmail(), freshEmail()];
      const foreign = await createUser('student', other.clientId);
      const res = await roster(
        classId,
        `email,name\n${ok},Ok\n${dup},Dup\n${dup},Dup again\n${foreign.email},F\nbad,B\n`,
        await admin(tenant),
        { mode: 'partial' },
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.mode, 'partial');
      assert.equal(res.body.created, 2);
      assert.equal(res.body.failed, 3);
      assert.deepEqual(
        res.body.rows.map((r: { status: string }) => r.status),
        ['created', 'created', 'error', 'error', 'error'],
      );
      assert.equal((await memberIds(tenant.clientId, classId)).length, 2);
    });

    it('answers 400 when no row is valid', async () => {
      const classId = await createClass(tenant.clientId);
      const res = await roster(classId, 'email,name\nbad,B\n', await admin(tenant), { mode: 'partial' });
      expectValidation(res, ['row 2.email']);
      assert.match(res.body.message, /None of the 1 rows/);
    });
  });

  describe('bounds', () => {
    it(`answers 409 for a roster that would take the class past ${MAX_MEMBERS_PER_CLASS} members, in either mode, dry run or not, and writes nothing (no account either)`, async () => {
      const classId = await createClass(tenant.clientId, MAX_MEMBERS_PER_CLASS - 1);
      const emails = [freshEmail(), freshEmail()];
      const file = `email,name\n${emails.map((e) => `${e},X`).join('\n')}\n`;
      const token = await admin(tenant);
      await writesNothing(tenant.clientId, classId, emails, async () => {
        for (const query of [{}, { mode: 'partial' }, { dry_run: 'true' }] as Array<Record<string, string>>)
          expectError(await roster(classId, file, token, query), 409, 'CONFLICT');
      });
    });

    it(`refuses a file of more than ${MAX_ROSTER_ROWS} rows with 400`, async () => {
      const classId = await createClass(tenant.clientId);
      const rows = Array.from({ length: MAX_ROSTER_ROWS + 1 }, (_, i) => `s${i}-${randomUUID()}@roster.example,S`);
      const res = await roster(classId, `email,name\n${rows.join('\n')}\n`, await admin(tenant));
      expectValidation(res, ['file'], [`more than ${MAX_ROSTER_ROWS} student rows`]);
    });
  });

  describe('the largest roster', () => {
    it(`imports ${MAX_ROSTER_ROWS} new students in one file: every account, member and profile written in one transaction`, async function () {
      this.timeout(180_000);
      const classId = await createClass(tenant.clientId);
      const emails = Array.from({ length: MAX_ROSTER_ROWS }, () => freshEmail('full'));
      const res = await roster(
        classId,
        `email,name\n${emails.map((e, i) => `${e},Student ${i}`).join('\n')}\n`,
        await admin(tenant),
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.created, MAX_ROSTER_ROWS);
      assert.equal(await memberCount(tenant.clientId, classId), MAX_ROSTER_ROWS);
      assert.equal((await memberIds(tenant.clientId, classId)).length, MAX_ROSTER_ROWS);
    });
  });

  describe('broken files and uploads', () => {
    const cases: Array<[string, () => Multipart, RegExp]> = [
      ['an unclosed quote', () => csvUpload('email,name\n"a@b.example,A\n'), /not valid CSV/],
      ['a wrong header', () => csvUpload('mail,fullname\na@b.example,A\n'), /header row/],
      ['a header without name', () => csvUpload('email\na@b.example\n'), /missing column name/],
      ['a row with a column too many', () => csvUpload('email,name\na@b.example,A,extra\n'), /line 2/],
      [
        'a binary file',
        () => csvUpload(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe]), randomBytes(512)])),
        /not UTF-8 text/,
      ],
      ['an empty file', () => csvUpload(''), /empty/],
      ['a header and no rows', () => csvUpload('email,name\n\n'), /no students/],
      [
        'a part with another name',
        () => multipartBody([{ field: 'upload', filename: 'r.csv', content: 'email,name\n' }]),
        /named "file"/,
      ],
    ];
    for (const [what, build, message] of cases)
      it(`refuses ${what} with 400 naming the problem`, async () => {
        const classId = await createClass(tenant.clientId);
        const res = await roster(classId, build(), await admin(tenant));
        expectError(res, 400, 'VALIDATION_ERROR');
        assert.match(res.body.message, message);
      });

    it('refuses a JSON body with 400', async () => {
      const classId = await createClass(tenant.clientId);
      const res = await postBytes(`/api/classes/${classId}/roster`, Buffer.from('{}'), 'application/json', {
        token: await admin(tenant),
      });
      expectError(res, 400, 'VALIDATION_ERROR');
    });
  });

  describe('who may import', () => {
    let classId: string;
    before(async () => {
      classId = await createClass(tenant.clientId);
    });
    const file = () => `email,name\n${freshEmail()},X\n`;

    it('answers 403 to another organization’s admin and leaves the class alone', async () => {
      await writesNothing(tenant.clientId, classId, [], async () =>
        expectError(await roster(classId, file(), await admin(other)), 403, 'FORBIDDEN'),
      );
    });

    it('answers 403 to a student', async () => {
      expectError(await roster(classId, file(), tenant.student.token), 403, 'FORBIDDEN');
    });

    it('answers 404 for a class that does not exist', async () => {
      expectError(await roster(randomUUID(), file(), await admin(tenant)), 404, 'NOT_FOUND');
    });

    it('lets a Super Admin import into any organization’s class', async () => {
      const superAdmin: TestUser = await createUser('super_admin');
      const res = await roster(classId, file(), superAdmin.token, { dry_run: 'true' });
      assert.equal(res.status, 200, res.text);
    });

    it('answers 401 without a token', async () => {
      const upload = csvUpload(file());
      expectError(
        await postBytes(`/api/classes/${classId}/roster`, upload.body, upload.contentType),
        401,
        'UNAUTHORIZED',
      );
    });
  });
});
