import assert from 'node:assert/strict';
import { expectError, expectValidation, ISO_UTC } from '../support/assertions';
import { createRoleMatrix, createUser, type RoleMatrix } from '../support/fixtures';
import { api, get } from '../support/http';
import { as, testDoc } from '../exams/fixtures';
import { start, startOk } from '../attempts/fixtures';
import {
  auditOf,
  backdate,
  deleteOverride,
  fromNow,
  listOverrides,
  MIN,
  msBetween,
  patchTest,
  putAccommodation,
  putOverride,
  saveAnswer,
  sittingTest,
  storedAttempt,
  storedOverride,
  submit,
} from './httpFixtures';

// Per-(test, student) overrides over HTTP: PUT replaces the test's window,
// timer or attempts for one student, and reaches its attempt in progress.

let m: RoleMatrix;
const newStudent = () => createUser('student', m.tenant.clientId);

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
});

describe('PUT /api/tests/{testId}/overrides/{studentId}', () => {
  it('answers 200 with the override as stored: the fields sent, who set it and when', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    const res = await putOverride(m.tenant.admin.token, test.id, student.uid, { timer: 45, max_attempts: 3 });
    assert.equal(res.status, 200, res.text);
    const { updated_at, ...rest } = res.body;
    assert.match(updated_at, ISO_UTC);
    assert.deepEqual(rest, {
      test_id: test.id,
      student_id: student.uid,
      timer: 45,
      max_attempts: 3,
      set_by: m.tenant.admin.uid,
    });
  });

  it('stores instants in UTC and keeps null (no limit) apart from absent (the test’s value)', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    const res = await putOverride(m.tenant.admin.token, test.id, student.uid, {
      opens_at: '2030-01-01T10:00:00+01:00',
      closes_at: null,
      max_attempts: null,
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.opens_at, '2030-01-01T09:00:00.000Z');
    assert.equal(res.body.closes_at, null);
    assert.equal(res.body.max_attempts, null);
    assert.equal('timer' in res.body, false);
  });

  it('replaces the whole override: a field absent from the next PUT is the test’s again', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    await putOverride(m.tenant.admin.token, test.id, student.uid, { timer: 45, max_attempts: 3 });
    const res = await putOverride(m.tenant.admin.token, test.id, student.uid, { timer: 50 });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.timer, 50);
    assert.equal('max_attempts' in res.body, false);
    assert.equal((await storedOverride(m.tenant.clientId, test.id, student.uid))!.max_attempts, undefined);
  });

  it('answers 400 naming params.studentId for an administrator’s uid and for an unknown uid', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    expectValidation(await putOverride(m.tenant.admin.token, test.id, m.tenant.admin.uid, { timer: 10 }), [
      'params.studentId',
    ]);
    expectValidation(await putOverride(m.tenant.admin.token, test.id, 'no-such-user', { timer: 10 }), [
      'params.studentId',
    ]);
    expectValidation(await putOverride(m.tenant.admin.token, test.id, m.otherTenant.student.uid, { timer: 10 }), [
      'params.studentId',
    ]);
  });

  it('answers 400 naming body.closes_at when its closes_at is not after the test’s stored opens_at', async () => {
    const opens = fromNow(120 * MIN);
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { opens_at: opens });
    const student = await newStudent();
    expectValidation(await putOverride(m.tenant.admin.token, test.id, student.uid, { closes_at: fromNow(60 * MIN) }), [
      'body.closes_at',
    ]);
    expectValidation(await putOverride(m.tenant.admin.token, test.id, student.uid, { closes_at: opens }), [
      'body.closes_at',
    ]);
    assert.equal(await storedOverride(m.tenant.clientId, test.id, student.uid), undefined);
  });

  it('answers 400 naming body.opens_at when its opens_at is not before the test’s stored closes_at', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { closes_at: fromNow(60 * MIN) });
    const student = await newStudent();
    expectValidation(await putOverride(m.tenant.admin.token, test.id, student.uid, { opens_at: fromNow(120 * MIN) }), [
      'body.opens_at',
    ]);
  });

  it('answers 400 naming the field for a window inverted in its own body, timer 0 or 1441, max_attempts 0, an unknown field, and an empty body', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    const put = (body: unknown) => putOverride(m.tenant.admin.token, test.id, student.uid, body);
    expectValidation(await put({ opens_at: fromNow(60 * MIN), closes_at: fromNow(30 * MIN) }), ['body.closes_at']);
    expectValidation(await put({ timer: 0 }), ['body.timer']);
    expectValidation(await put({ timer: 1441 }), ['body.timer']);
    expectValidation(await put({ max_attempts: 0 }), ['body.max_attempts']);
    expectValidation(await put({ access_code: 'abcd' }), ['body'], ['access_code']);
    expectValidation(await put({}), ['body']);
  });

  it('answers 404 for a test that does not exist', async () => {
    const student = await newStudent();
    expectError(await putOverride(m.tenant.admin.token, 'no-such-test', student.uid, { timer: 10 }), 404, 'NOT_FOUND');
  });

  it('answers 403 to a Student (even for itself), a Guest and another organization’s admin; 200 to a Super Admin', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    expectError(await putOverride(student.token, test.id, student.uid, { timer: 60 }), 403, 'FORBIDDEN');
    expectError(await putOverride(m.guest.token, test.id, student.uid, { timer: 60 }), 403, 'FORBIDDEN');
    expectError(await putOverride(m.otherTenant.admin.token, test.id, student.uid, { timer: 60 }), 403, 'FORBIDDEN');
    assert.equal(await storedOverride(m.tenant.clientId, test.id, student.uid), undefined);
    const res = await putOverride(m.superAdmin.token, test.id, student.uid, { timer: 60 });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.set_by, m.superAdmin.uid);
  });

  it('records override_set about the student with the actor, the test and the values', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    assert.equal((await putOverride(m.tenant.admin.token, test.id, student.uid, { timer: 40 })).status, 200);
    const record = (await auditOf(m.tenant.clientId, 'override_set')).find((r) => r.user_id === student.uid)!;
    assert.ok(record, 'an override_set record about the student');
    assert.equal(record.actor_id, m.tenant.admin.uid);
    assert.equal(record.details.test_id, test.id);
    assert.equal(record.details.override.timer, 40);
  });
});

describe('Overrides at the start of an attempt', () => {
  it('lets the student start before the test’s opens_at with an earlier opens_at; other students still wait (409)', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { opens_at: fromNow(120 * MIN) });
    const [early, other] = await Promise.all([newStudent(), newStudent()]);
    assert.equal(
      (await putOverride(m.tenant.admin.token, test.id, early.uid, { opens_at: fromNow(-MIN) })).status,
      200,
    );
    assert.equal((await start(early.token, { test_id: test.id })).status, 201);
    expectError(await start(other.token, { test_id: test.id }), 409, 'CONFLICT');
  });

  it('lets the student start after the test’s closes_at with a later closes_at, which is then its deadline', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { closes_at: fromNow(MIN) });
    const student = await newStudent();
    const closes = fromNow(20 * MIN);
    assert.equal((await putOverride(m.tenant.admin.token, test.id, student.uid, { closes_at: closes })).status, 200);
    const started = await startOk(student.token, { test_id: test.id });
    assert.equal(started.expires_at, closes);
  });

  it('replaces max_attempts: 1 on the test, 2 for the student (a third start is 409); null lifts it', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { max_attempts: 1 });
    const [twice, unlimited] = await Promise.all([newStudent(), newStudent()]);
    await putOverride(m.tenant.admin.token, test.id, twice.uid, { max_attempts: 2 });
    await putOverride(m.tenant.admin.token, test.id, unlimited.uid, { max_attempts: null });
    for (let i = 0; i < 2; i++)
      assert.equal(
        (await submit(twice.token, (await startOk(twice.token, { test_id: test.id })).attempt_id)).status,
        200,
      );
    expectError(await start(twice.token, { test_id: test.id }), 409, 'CONFLICT');
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await submit(unlimited.token, (await startOk(unlimited.token, { test_id: test.id })).attempt_id)).status,
        200,
      );
  });

  it('replaces the timer of a new attempt: timer 5 gives expires_at = started_at + 5 minutes', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    await putOverride(m.tenant.admin.token, test.id, student.uid, { timer: 5 });
    const started = await startOk(student.token, { test_id: test.id });
    assert.equal(msBetween(started.started_at, started.expires_at), 5 * MIN);
  });

  it('still adds the student’s accommodation to an overridden timer: 10 minutes +50% = 15 minutes', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    await putOverride(m.tenant.admin.token, test.id, student.uid, { timer: 10 });
    assert.equal(
      (await putAccommodation(m.tenant.admin.token, student.uid, { extra_time_percent: 50, extra_minutes: 0 })).status,
      200,
    );
    const started = await startOk(student.token, { test_id: test.id });
    assert.equal(msBetween(started.started_at, started.expires_at), 15 * MIN);
  });
});

describe('Overrides on an attempt in progress', () => {
  it('recomputes expires_at from started_at when set (PUT) and again when deleted (DELETE)', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    const put = await putOverride(m.tenant.admin.token, test.id, student.uid, { timer: 50 });
    assert.equal(put.status, 200, put.text);
    const extended = await storedAttempt(m.tenant.clientId, started.attempt_id);
    assert.equal(msBetween(extended.started_at, extended.expires_at), 50 * MIN);
    assert.equal(extended.status, 'in_progress');
    const read = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
    assert.equal(read.body.expires_at, extended.expires_at);
    const deleted = await deleteOverride(m.tenant.admin.token, test.id, student.uid);
    assert.equal(deleted.status, 204, deleted.text);
    const back = await storedAttempt(m.tenant.clientId, started.attempt_id);
    assert.equal(msBetween(back.started_at, back.expires_at), 30 * MIN);
  });

  it('closes the attempt at once when its new deadline has already passed: submitted_by deadline, its saved answers counted', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    await backdate(m.tenant.clientId, started.attempt_id, 20 * MIN);
    const [q] = started.test_details.questions;
    assert.equal((await saveAnswer(student.token, started.attempt_id, q.id, '4')).status, 200);
    // Started 20 minutes ago, the student's timer becomes 5 minutes: its deadline passed 15 minutes ago.
    const res = await putOverride(m.tenant.admin.token, test.id, student.uid, { timer: 5 });
    assert.equal(res.status, 200, res.text);
    const closed = await storedAttempt(m.tenant.clientId, started.attempt_id);
    assert.equal(closed.status, 'submitted');
    assert.equal(closed.submitted_by, 'deadline');
    assert.equal(closed.auto_submitted, true);
    assert.equal(closed.score, 2, 'the answer saved before the override counts');
    const read = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
    assert.equal(read.body.submitted_by, 'deadline');
    // The slot is free: the student may start again (no max_attempts).
    assert.equal((await start(student.token, { test_id: test.id })).status, 201);
  });

  it('keeps a student’s later closes_at when the test’s closes_at moves earlier: only the others are cut short', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const [excused, other] = await Promise.all([newStudent(), newStudent()]);
    assert.equal(
      (await putOverride(m.tenant.admin.token, test.id, excused.uid, { closes_at: fromNow(120 * MIN) })).status,
      200,
    );
    const [theirs, others] = await Promise.all([
      startOk(excused.token, { test_id: test.id }),
      startOk(other.token, { test_id: test.id }),
    ]);
    const closes = fromNow(5 * MIN);
    assert.equal((await patchTest(m.tenant.admin.token, test.id, { closes_at: closes })).status, 200);
    assert.equal((await storedAttempt(m.tenant.clientId, theirs.attempt_id)).expires_at, theirs.expires_at);
    assert.equal((await storedAttempt(m.tenant.clientId, others.attempt_id)).expires_at, closes);
  });

  it('leaves another student’s attempt on the test untouched', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const [a, b] = await Promise.all([newStudent(), newStudent()]);
    const [, theirs] = await Promise.all([
      startOk(a.token, { test_id: test.id }),
      startOk(b.token, { test_id: test.id }),
    ]);
    await putOverride(m.tenant.admin.token, test.id, a.uid, { timer: 60 });
    assert.equal((await storedAttempt(m.tenant.clientId, theirs.attempt_id)).expires_at, theirs.expires_at);
  });
});

describe('GET /api/tests/{testId}/overrides', () => {
  let test: any;
  let students: Array<Awaited<ReturnType<typeof newStudent>>>;
  before(async () => {
    ({ test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId));
    students = await Promise.all([newStudent(), newStudent(), newStudent()]);
    for (const [i, s] of students.entries()) {
      const res = await putOverride(m.tenant.admin.token, test.id, s.uid, { timer: 10 + i });
      assert.equal(res.status, 200, res.text);
    }
  });

  it('lists the test’s overrides by student id, with pagination', async () => {
    const res = await listOverrides(m.tenant.admin.token, test.id);
    assert.equal(res.status, 200, res.text);
    const ids = students.map((s) => s.uid).sort();
    assert.deepEqual(
      res.body.data.map((o: any) => o.student_id),
      ids,
    );
    assert.equal(res.body.pagination.total, 3);
    for (const o of res.body.data) assert.equal(o.test_id, test.id);
    assert.equal(JSON.stringify(res.body).includes('client_id'), false);
  });

  it('pages with limit and next_cursor, each override once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 1; page <= 3; page++) {
      const res = await listOverrides(m.tenant.admin.token, test.id, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.length, 1);
      assert.equal(res.body.pagination.pages, 3);
      seen.push(res.body.data[0].student_id);
      cursor = res.body.pagination.next_cursor;
    }
    assert.equal(cursor, null);
    assert.deepEqual(seen, students.map((s) => s.uid).sort());
  });

  it('answers 403 to a Student, a Guest and another organization’s admin; 200 to a Super Admin', async () => {
    for (const token of [m.tenant.student.token, m.guest.token, m.otherTenant.admin.token])
      expectError(await listOverrides(token, test.id), 403, 'FORBIDDEN');
    const res = await listOverrides(m.superAdmin.token, test.id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.length, 3);
  });
});

describe('DELETE /api/tests/{testId}/overrides/{studentId}', () => {
  it('answers 204 and removes the override; deleting it again is 404', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    await putOverride(m.tenant.admin.token, test.id, student.uid, { timer: 10 });
    const res = await deleteOverride(m.tenant.admin.token, test.id, student.uid);
    assert.equal(res.status, 204, res.text);
    assert.equal(res.text, '');
    assert.equal(await storedOverride(m.tenant.clientId, test.id, student.uid), undefined);
    expectError(await deleteOverride(m.tenant.admin.token, test.id, student.uid), 404, 'NOT_FOUND');
  });

  it('answers 404 for a student who never had one', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    expectError(await deleteOverride(m.tenant.admin.token, test.id, (await newStudent()).uid), 404, 'NOT_FOUND');
  });

  it('answers 403 to a Student, a Guest and another organization’s admin; 204 to a Super Admin', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    await putOverride(m.tenant.admin.token, test.id, student.uid, { timer: 10 });
    for (const token of [student.token, m.guest.token, m.otherTenant.admin.token]) {
      expectError(await deleteOverride(token, test.id, student.uid), 403, 'FORBIDDEN');
    }
    assert.ok(await storedOverride(m.tenant.clientId, test.id, student.uid));
    assert.equal((await deleteOverride(m.superAdmin.token, test.id, student.uid)).status, 204);
  });

  it('records override_deleted about the student with the actor', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    await putOverride(m.tenant.admin.token, test.id, student.uid, { timer: 10 });
    assert.equal((await deleteOverride(m.superAdmin.token, test.id, student.uid)).status, 204);
    const record = (await auditOf(m.tenant.clientId, 'override_deleted')).find((r) => r.user_id === student.uid)!;
    assert.ok(record, 'an override_deleted record about the student');
    assert.equal(record.actor_id, m.superAdmin.uid);
    assert.equal(record.details.test_id, test.id);
  });
});

describe('DELETE /api/tests/{testId} with overrides', () => {
  it('deletes the test’s overrides and their counter with it', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    assert.equal((await putOverride(m.tenant.admin.token, test.id, student.uid, { timer: 45 })).status, 200);
    const res = await api('DELETE', `/api/tests/${test.id}`, as(m.tenant.admin.token));
    assert.equal(res.status, 204, res.text);
    assert.equal(await storedOverride(m.tenant.clientId, test.id, student.uid), undefined);
    const counters = await testDoc(m.tenant.clientId, test.id).collection('sitting_counts').get();
    assert.equal(counters.size, 0);
  });
});
