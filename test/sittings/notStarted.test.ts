import assert from 'node:assert/strict';
import { expectError, expectValidation } from '../support/assertions';
import {
  createRoleMatrix,
  createTenant,
  createUser,
  signInAnonymously,
  type RoleMatrix,
  type TestUser,
} from '../support/fixtures';
import { debugCost, get, type ApiResponse } from '../support/http';
import { as } from '../exams/fixtures';
import { addMember, writeClass } from '../exams/classFixtures';
import { startOk, writeShareCode } from '../attempts/fixtures';
import { sittingTest, submit } from './httpFixtures';

// Who has not started a test, over HTTP (the live view's "Not started"): the
// students of its audience (its classes' members, or the organization's
// students) who have no attempt on it yet, paged by cursor at a bounded cost.

let m: RoleMatrix;

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
});

const notStarted = (token: string, testId: string, query = ''): Promise<ApiResponse> =>
  get(`/api/tests/${testId}/not-started${query}`, as(token));

/** The uids a reply lists, sorted (a page is by uid). */
const uidsOf = (res: ApiResponse): string[] => {
  assert.equal(res.status, 200, res.text);
  return (res.body.data as Array<{ uid: string }>).map((s) => s.uid);
};
const sorted = (users: TestUser[]) => users.map((u) => u.uid).sort();

/** Every page of the list, walked by cursor: the uids in order, and the pages' replies. */
async function walk(token: string, testId: string, query: string): Promise<{ uids: string[]; pages: ApiResponse[] }> {
  const pages: ApiResponse[] = [];
  const uids: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await notStarted(token, testId, `?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    uids.push(...uidsOf(res));
    pages.push(res);
    cursor = res.body.next_cursor;
    assert.ok(pages.length < 50, 'the walk ends');
  } while (cursor);
  return { uids, pages };
}

describe('GET /api/tests/{testId}/not-started', function () {
  this.timeout(60_000);

  describe('a test assigned to two classes', () => {
    let test: any;
    let classA: { id: string };
    let classB: { id: string };
    let onlyA: TestUser;
    let both: TestUser;
    let onlyB: TestUser;
    let outside: TestUser;
    before(async () => {
      const clientId = m.tenant.clientId;
      [classA, classB] = await Promise.all([writeClass(clientId), writeClass(clientId)]);
      [onlyA, both, onlyB, outside] = await Promise.all([1, 2, 3, 4].map(() => createUser('student', clientId)));
      await addMember(clientId, classA.id, onlyA);
      await addMember(clientId, classA.id, both);
      await addMember(clientId, classB.id, both);
      await addMember(clientId, classB.id, onlyB);
      ({ test } = await sittingTest(m.tenant.admin.token, clientId, {
        assigned_class_ids: [classA.id, classB.id],
      }));
    });

    it('lists the members of its classes by uid, a student of both classes once, nobody outside them', async () => {
      const res = await notStarted(m.tenant.admin.token, test.id);
      assert.deepEqual(uidsOf(res), sorted([onlyA, both, onlyB]));
      assert.equal(res.body.next_cursor, null);
      assert.ok(!uidsOf(res).includes(outside.uid));
      assert.ok(!uidsOf(res).includes(m.tenant.student.uid), 'a student of no assigned class is not of the audience');
      const entry = res.body.data.find((s: any) => s.uid === both.uid);
      assert.deepEqual(entry, {
        uid: both.uid,
        display_name: 'Test student',
        email: both.email,
        class_ids: [classA.id, classB.id],
      });
    });

    it('with class_id, lists only that class’s members', async () => {
      assert.deepEqual(
        uidsOf(await notStarted(m.tenant.admin.token, test.id, `?class_id=${classA.id}`)),
        sorted([onlyA, both]),
      );
      assert.deepEqual(
        uidsOf(await notStarted(m.tenant.admin.token, test.id, `?class_id=${classB.id}`)),
        sorted([both, onlyB]),
      );
    });

    it('with a class it is not assigned to: not refused, its members who are in an assigned class (here none)', async () => {
      const other = await writeClass(m.tenant.clientId);
      await addMember(m.tenant.clientId, other.id, outside);
      const res = await notStarted(m.tenant.admin.token, test.id, `?class_id=${other.id}`);
      assert.deepEqual(uidsOf(res), []);
      assert.equal(res.body.next_cursor, null);
      await addMember(m.tenant.clientId, other.id, onlyB);
      assert.deepEqual(uidsOf(await notStarted(m.tenant.admin.token, test.id, `?class_id=${other.id}`)), [onlyB.uid]);
    });

    it('leaves out a student once it has started, and still once it has submitted', async () => {
      const clientId = m.tenant.clientId;
      const cls = await writeClass(clientId);
      const [first, second] = await Promise.all([createUser('student', clientId), createUser('student', clientId)]);
      await addMember(clientId, cls.id, first);
      await addMember(clientId, cls.id, second);
      const { test } = await sittingTest(m.tenant.admin.token, clientId, { assigned_class_ids: [cls.id] });
      assert.deepEqual(uidsOf(await notStarted(m.tenant.admin.token, test.id)), sorted([first, second]));
      const started = await startOk(first.token, { test_id: test.id });
      assert.deepEqual(uidsOf(await notStarted(m.tenant.admin.token, test.id)), [second.uid]);
      assert.equal((await submit(first.token, started.attempt_id)).status, 200);
      assert.deepEqual(uidsOf(await notStarted(m.tenant.admin.token, test.id)), [second.uid]);
      // An administrator starting for the student counts as its start too.
      await startOk(m.tenant.admin.token, { test_id: test.id, student_id: second.uid });
      const none = await notStarted(m.tenant.admin.token, test.id);
      assert.deepEqual(uidsOf(none), []);
      assert.equal(none.body.next_cursor, null);
    });
  });

  describe('a test assigned to no class (open to the organization)', () => {
    let tenant: Awaited<ReturnType<typeof createTenant>>;
    let students: TestUser[];
    let test: any;
    before(async () => {
      tenant = await createTenant();
      students = [
        tenant.student,
        ...(await Promise.all([1, 2, 3, 4].map(() => createUser('student', tenant.clientId)))),
      ];
      await createUser('client_admin', tenant.clientId);
      ({ test } = await sittingTest(tenant.admin.token, tenant.clientId));
    });

    it('lists every student of the organization, no administrator, no Guest who took it by share code', async () => {
      const guest = await signInAnonymously();
      const code = await writeShareCode(tenant.clientId, test.id);
      await startOk(guest.token, { share_code: code, guest_name: 'Visitor' });
      const res = await notStarted(tenant.admin.token, test.id);
      assert.deepEqual(uidsOf(res), sorted(students));
      assert.equal(res.body.next_cursor, null);
    });

    it('with class_id, lists the class’s members', async () => {
      const cls = await writeClass(tenant.clientId);
      await addMember(tenant.clientId, cls.id, students[2]);
      const res = await notStarted(tenant.admin.token, test.id, `?class_id=${cls.id}`);
      assert.deepEqual(uidsOf(res), [students[2].uid]);
      assert.deepEqual(res.body.data[0].class_ids, [cls.id]);
    });

    it('walks the audience by cursor with a small limit: each student once, in uid order, pages of at most limit', async () => {
      const { uids, pages } = await walk(tenant.admin.token, test.id, 'limit=2');
      assert.deepEqual(uids, sorted(students));
      assert.ok(pages.length >= 3, `${pages.length} pages`);
      for (const page of pages) assert.ok(page.body.data.length <= 2);
      assert.equal(pages[pages.length - 1].body.next_cursor, null);
    });

    it('walks on past a page whose students have all started: it holds fewer than limit, even none', async () => {
      const { test } = await sittingTest(tenant.admin.token, tenant.clientId);
      const ordered = [...students].sort((a, b) => (a.uid < b.uid ? -1 : 1));
      // The first two by uid start: the first page (limit 2) lists nobody, and carries a cursor on.
      await Promise.all(ordered.slice(0, 2).map((s) => startOk(s.token, { test_id: test.id })));
      const first = await notStarted(tenant.admin.token, test.id, '?limit=2');
      assert.deepEqual(uidsOf(first), []);
      assert.equal(typeof first.body.next_cursor, 'string');
      const { uids } = await walk(tenant.admin.token, test.id, 'limit=2');
      assert.deepEqual(
        uids,
        ordered.slice(2).map((s) => s.uid),
      );
    });

    it('reads about limit profiles and their slots per page, whatever the audience', async () => {
      const page = await notStarted(tenant.admin.token, test.id, '?limit=2');
      const whole = await notStarted(tenant.admin.token, test.id, '?limit=200');
      const pageReads = debugCost(page).reads;
      assert.ok(Number.isFinite(pageReads), `X-Debug-Cost: ${page.headers.get('x-debug-cost')}`);
      // The test, the organization and the limiter, then limit + 1 profiles and limit slots.
      assert.ok(pageReads <= 12, `reads for a page of 2: ${pageReads}`);
      assert.ok(
        debugCost(whole).reads - pageReads >= students.length - 3,
        'a longer page reads more: the page is what costs',
      );
    });

    it('lets a Super Admin read another organization’s test', async () => {
      assert.deepEqual(uidsOf(await notStarted(m.superAdmin.token, test.id)), sorted(students));
    });
  });

  describe('refusals', () => {
    let test: any;
    before(async () => {
      ({ test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId));
    });

    it('answers 403 for another organization’s test, 404 for none', async () => {
      expectError(await notStarted(m.otherTenant.admin.token, test.id), 403, 'FORBIDDEN');
      expectError(await notStarted(m.tenant.admin.token, 'no-such-test'), 404, 'NOT_FOUND');
    });

    it('answers 403 for another organization’s class, 404 for a class that does not exist', async () => {
      const theirs = await writeClass(m.otherTenant.clientId);
      expectError(await notStarted(m.tenant.admin.token, test.id, `?class_id=${theirs.id}`), 403, 'FORBIDDEN');
      expectError(await notStarted(m.tenant.admin.token, test.id, '?class_id=nosuchclass'), 404, 'NOT_FOUND');
    });

    it('answers 403 to a Student, a Guest and a user with no role; 401 without a token', async () => {
      for (const token of [m.tenant.student.token, m.guest.token, m.noRole.token])
        expectError(await notStarted(token, test.id), 403, 'FORBIDDEN');
      expectError(await get(`/api/tests/${test.id}/not-started`, as()), 401, 'UNAUTHORIZED');
    });

    it('answers 400 naming query.limit for a limit out of 1 to 200 or not a number', async () => {
      for (const limit of ['0', '201', 'many', '1.5'])
        expectValidation(await notStarted(m.tenant.admin.token, test.id, `?limit=${limit}`), ['query.limit']);
    });

    it('answers 400 naming query.cursor for a cursor this list did not issue', async () => {
      const foreign = Buffer.from(JSON.stringify([1, 'a', 'b'])).toString('base64url');
      for (const cursor of ['not-a-cursor', foreign, Buffer.from(JSON.stringify([1, 'a/b'])).toString('base64url')])
        expectValidation(await notStarted(m.tenant.admin.token, test.id, `?cursor=${cursor}`), ['query.cursor']);
      expectValidation(await notStarted(m.tenant.admin.token, test.id, `?cursor=${'x'.repeat(1025)}`), [
        'query.cursor',
      ]);
    });

    it('answers 400 for a class id that cannot name a document, and for an unknown parameter', async () => {
      expectValidation(await notStarted(m.tenant.admin.token, test.id, '?class_id=a%2Fb'), ['query.class_id']);
      expectError(await notStarted(m.tenant.admin.token, test.id, '?page=2'), 400, 'VALIDATION_ERROR');
    });
  });
});
