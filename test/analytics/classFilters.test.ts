import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { expectError } from '../support/assertions';
import { createTenant, createUser, type TestUser } from '../support/fixtures';
import { get, post, debugCost } from '../support/http';
import { as } from '../exams/fixtures';
import { attemptDoc, publishTest, startOk } from '../attempts/fixtures';
import { writeClass } from './classFixtures';

// The class filter (?class_id=) on a test's analytics, its results export and
// its live view (GET /api/attempts), through the emulators with real tokens.
// The start is expected to record the student's classes on the attempt
// (class_ids); here they are written on the attempt directly after it starts.

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** Starts as `student`, records `classes` on the attempt, answers Question 1 and submits unless `open`. */
async function take(
  tenant: Tenant,
  student: TestUser,
  testId: string,
  classes: string[],
  { answer = 'A', open = false }: { answer?: string; open?: boolean } = {},
): Promise<string> {
  const started = await startOk(student.token, { test_id: testId });
  await attemptDoc(tenant.clientId, started.attempt_id).update({ class_ids: classes });
  const first = (started.test_details.questions as Array<{ id: string; question_text: string }>).find(
    (q) => q.question_text === 'Question 1',
  )!;
  const saved = await post(
    `/api/attempts/${started.attempt_id}/answers`,
    { question_id: first.id, student_answer: answer },
    as(student.token),
  );
  assert.equal(saved.status, 200, saved.text);
  if (!open) {
    const done = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
    assert.equal(done.status, 200, done.text);
  }
  return started.attempt_id;
}

describe('?class_id= on the analytics, the results export and the live view', function () {
  this.timeout(120_000);
  let tenant: Tenant;
  let other: Tenant;
  let test: any;
  let nine: string;
  let ten: string;
  let foreign: string;
  const inNine: string[] = [];
  const inTen: string[] = [];
  let openInNine: string;

  before(async () => {
    [tenant, other] = await Promise.all([createTenant(), createTenant()]);
    ({ test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 }));
    [nine, ten, foreign] = await Promise.all([
      writeClass(tenant.clientId, '9C'),
      writeClass(tenant.clientId, '10A'),
      writeClass(other.clientId, 'Elsewhere'),
    ]);
    const students = await Promise.all(Array.from({ length: 5 }, () => createUser('student', tenant.clientId)));
    // Two in 9C only, one in both, one in 10A only, one in none; and one attempt of 9C left open.
    inNine.push(await take(tenant, students[0], test.id, [nine], { answer: 'A' }));
    inNine.push(await take(tenant, students[1], test.id, [nine], { answer: 'B' }));
    const both = await take(tenant, students[2], test.id, [nine, ten], { answer: 'A' });
    inNine.push(both);
    inTen.push(both);
    inTen.push(await take(tenant, students[3], test.id, [ten], { answer: 'B' }));
    await take(tenant, students[4], test.id, [], { answer: 'A' });
    openInNine = await take(tenant, tenant.student, test.id, [nine], { open: true });
  });

  describe('GET /api/analytics/tests/{testId}?class_id=', () => {
    it('answers the test’s figures over the class’s attempts only, naming the class', async () => {
      const res = await get(`/api/analytics/tests/${test.id}?class_id=${nine}`, as(tenant.admin.token));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.class_id, nine);
      assert.equal(res.body.completed, 3);
      assert.equal(res.body.in_progress, 1);
      assert.equal(res.body.total_attempts, 4);
      const whole = await get(`/api/analytics/tests/${test.id}`, as(tenant.admin.token));
      assert.equal(whole.body.completed, 5);
      assert.equal(whole.body.class_id, undefined);
      const tenth = await get(`/api/analytics/tests/${test.id}?class_id=${ten}`, as(tenant.admin.token));
      assert.equal(tenth.body.completed, 2);
      assert.equal(tenth.body.in_progress, 0);
      assert.equal(tenth.body.questions[0].times_answered, 2);
    });

    it('answers zero attempts for a class with none, and with ?version=', async () => {
      const empty = await writeClass(tenant.clientId);
      const res = await get(`/api/analytics/tests/${test.id}?class_id=${empty}&version=1`, as(tenant.admin.token));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.total_attempts, 0);
      assert.equal(res.body.highest_score, null);
    });

    it('refuses another organization’s class (403), an unknown class (404), a Student (403) and a bad id (400)', async () => {
      const path = (classId: string) => `/api/analytics/tests/${test.id}?class_id=${encodeURIComponent(classId)}`;
      expectError(await get(path(foreign), as(tenant.admin.token)), 403, 'FORBIDDEN');
      expectError(await get(path('no-such-class'), as(tenant.admin.token)), 404, 'NOT_FOUND');
      expectError(await get(path(nine), as(tenant.student.token)), 403, 'FORBIDDEN');
      expectError(await get(path('a/b'), as(tenant.admin.token)), 400, 'VALIDATION_ERROR');
      // Another organization's administrator is refused by the test before the class is looked at.
      expectError(await get(path(nine), as(other.admin.token)), 403, 'FORBIDDEN');
    });

    it('lets a Super Admin filter any organization’s test by that organization’s class only', async () => {
      const root = await createUser('super_admin');
      const res = await get(`/api/analytics/tests/${test.id}?class_id=${nine}`, as(root.token));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.completed, 3);
      expectError(await get(`/api/analytics/tests/${test.id}?class_id=${foreign}`, as(root.token)), 403, 'FORBIDDEN');
    });

    it('keeps the recompute’s query strict: it recomputes every class and takes no class_id', async () => {
      const res = await post(
        `/api/analytics/tests/${test.id}/recompute?class_id=${nine}`,
        undefined,
        as(tenant.admin.token),
      );
      expectError(res, 400, 'VALIDATION_ERROR');
    });
  });

  describe('GET /api/analytics/tests/{testId}/results.csv?class_id=', () => {
    const csv = async (query: string, token = tenant.admin.token) => {
      const admin = token === tenant.admin.token ? (await createUser('client_admin', tenant.clientId)).token : token;
      return get(`/api/analytics/tests/${test.id}/results.csv${query}`, as(admin));
    };

    it('has a row for each submitted attempt of the class’s students, and none of the others', async () => {
      const res = await csv(`?class_id=${nine}`);
      assert.equal(res.status, 200, res.text);
      const [, ...rows] = parse(res.text) as string[][];
      assert.deepEqual(rows.map((r) => r[0]).sort(), [...inNine].sort());
      assert.match(res.headers.get('content-disposition') ?? '', new RegExp(`class-${nine}`));
      const tenth = parse((await csv(`?class_id=${ten}`)).text) as string[][];
      assert.deepEqual(
        tenth
          .slice(1)
          .map((r) => r[0])
          .sort(),
        [...inTen].sort(),
      );
    });

    it('refuses another organization’s class (403), an unknown class (404) and a Student (403)', async () => {
      expectError(await csv(`?class_id=${foreign}`), 403, 'FORBIDDEN');
      expectError(await csv('?class_id=no-such-class'), 404, 'NOT_FOUND');
      expectError(await csv(`?class_id=${nine}`, tenant.student.token), 403, 'FORBIDDEN');
    });
  });

  describe('GET /api/attempts?test_id=…&class_id=… (the live view)', () => {
    const list = (query: string, token = tenant.admin.token) => get(`/api/attempts${query}`, as(token));

    it('lists the class’s students’ attempts of the test, in progress too, paged as the other lists', async () => {
      const res = await list(`?test_id=${test.id}&class_id=${nine}`);
      assert.equal(res.status, 200, res.text);
      const ids = res.body.data.map((a: any) => a.attempt_id ?? a.id);
      assert.deepEqual([...ids].sort(), [...inNine, openInNine].sort());
      assert.equal(res.body.pagination.total, 4);
      const open = await list(`?test_id=${test.id}&class_id=${nine}&status=in_progress`);
      assert.deepEqual(
        open.body.data.map((a: any) => a.attempt_id ?? a.id),
        [openInNine],
      );
      // Page by page with the cursor: every attempt once.
      const seen: string[] = [];
      let query = `?test_id=${test.id}&class_id=${nine}&limit=1`;
      for (let page = 0; page < 6; page++) {
        const one = await list(query);
        assert.equal(one.status, 200, one.text);
        seen.push(...one.body.data.map((a: any) => a.attempt_id ?? a.id));
        if (!one.body.pagination.next_cursor) break;
        query = `?test_id=${test.id}&class_id=${nine}&limit=1&cursor=${encodeURIComponent(one.body.pagination.next_cursor)}`;
      }
      assert.deepEqual([...seen].sort(), [...inNine, openInNine].sort());
    });

    it('needs test_id (400), and refuses another organization’s class (403), an unknown class (404) and a Student (403)', async () => {
      expectError(await list(`?class_id=${nine}`), 400, 'VALIDATION_ERROR');
      expectError(await list(`?test_id=${test.id}&class_id=${foreign}`), 403, 'FORBIDDEN');
      expectError(await list(`?test_id=${test.id}&class_id=no-such-class`), 404, 'NOT_FOUND');
      expectError(await list(`?test_id=${test.id}&class_id=${nine}`, tenant.student.token), 403, 'FORBIDDEN');
    });
  });
});

describe('GET /api/analytics/tests/{testId}?class_id=: cost (X-Debug-Cost)', function () {
  this.timeout(120_000);

  it('reads the same documents in the same round trips with 1 attempt of the class and with 10: no attempt is read', async () => {
    const tenant = await createTenant();
    const figures: Array<Record<string, number>> = [];
    for (const takers of [1, 10]) {
      const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 3 });
      const classId = await writeClass(tenant.clientId);
      const students = await Promise.all(Array.from({ length: takers }, () => createUser('student', tenant.clientId)));
      for (const [i, s] of students.entries()) await take(tenant, s, test.id, [classId], { answer: i % 2 ? 'A' : 'B' });
      const path = `/api/analytics/tests/${test.id}?class_id=${classId}`;
      // A fresh administrator: an ID token older than a minute adds the account's re-check to the reads.
      const reader = await createUser('client_admin', tenant.clientId);
      await get(path, as(reader.token)); // the frozen version is read once per instance, then cached
      const res = await get(path, as(reader.token));
      assert.equal(res.body.completed, takers);
      const { reads, round_trips, sequential_round_trips } = debugCost(res);
      figures.push({ reads, round_trips, sequential_round_trips });
    }
    assert.deepEqual(figures[1], figures[0], JSON.stringify(figures));
  });
});
