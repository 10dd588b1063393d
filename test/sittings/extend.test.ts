import assert from 'node:assert/strict';
import { expectError, expectValidation } from '../support/assertions';
import { createRoleMatrix, createUser, signInAnonymously, type RoleMatrix } from '../support/fixtures';
import { get } from '../support/http';
import { as } from '../exams/fixtures';
import { startOk, writeShareCode } from '../attempts/fixtures';
import { addMember, writeClass } from '../exams/classFixtures';
import {
  auditOf,
  backdate,
  extendAttempt,
  extendTest,
  fromNow,
  MIN,
  msBetween,
  patchTest,
  sittingTest,
  storedAttempt,
  submit,
} from './httpFixtures';

// Extra time on running attempts over HTTP: one attempt, or every attempt in
// progress of a test at once (a proctor's fire alarm).

let m: RoleMatrix;
const newStudent = () => createUser('student', m.tenant.clientId);

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
});

describe('POST /api/attempts/{attemptId}/extend', () => {
  let test: any;
  before(async () => {
    ({ test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId));
  });

  it('answers 200 with the new expires_at: the old one + the minutes', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    const res = await extendAttempt(m.tenant.admin.token, started.attempt_id, { minutes: 10 });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['attempt_id', 'expires_at']);
    assert.equal(res.body.attempt_id, started.attempt_id);
    assert.equal(msBetween(started.expires_at, res.body.expires_at), 10 * MIN);
    assert.equal((await storedAttempt(m.tenant.clientId, started.attempt_id)).expires_at, res.body.expires_at);
    assert.equal(
      (await get(`/api/attempts/${started.attempt_id}`, as(student.token))).body.expires_at,
      res.body.expires_at,
    );
  });

  it('adds up: two extensions of 5 and 7 minutes give 12 more minutes', async () => {
    const started = await startOk((await newStudent()).token, { test_id: test.id });
    await extendAttempt(m.tenant.admin.token, started.attempt_id, { minutes: 5 });
    const res = await extendAttempt(m.tenant.admin.token, started.attempt_id, { minutes: 7 });
    assert.equal(msBetween(started.expires_at, res.body.expires_at), 12 * MIN);
  });

  it('extends past the test’s closes_at: the extension comes after the closing time', async () => {
    const closes = fromNow(10 * MIN);
    const { test: closing } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { closes_at: closes });
    const started = await startOk((await newStudent()).token, { test_id: closing.id });
    assert.equal(started.expires_at, closes);
    const res = await extendAttempt(m.tenant.admin.token, started.attempt_id, { minutes: 15 });
    assert.equal(res.status, 200, res.text);
    assert.equal(msBetween(closes, res.body.expires_at), 15 * MIN);
  });

  it('keeps the extension when the deadline is recomputed later (closes_at moved)', async () => {
    const { test: moving } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const started = await startOk((await newStudent()).token, { test_id: moving.id });
    await extendAttempt(m.tenant.admin.token, started.attempt_id, { minutes: 5 });
    const closes = fromNow(10 * MIN);
    assert.equal((await patchTest(m.tenant.admin.token, moving.id, { closes_at: closes })).status, 200);
    assert.equal(msBetween(closes, (await storedAttempt(m.tenant.clientId, started.attempt_id)).expires_at), 5 * MIN);
  });

  it('answers 409 for a submitted attempt, its deadline unchanged', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    assert.equal((await submit(student.token, started.attempt_id)).status, 200);
    expectError(await extendAttempt(m.tenant.admin.token, started.attempt_id, { minutes: 10 }), 409, 'CONFLICT');
    assert.equal((await storedAttempt(m.tenant.clientId, started.attempt_id)).expires_at, started.expires_at);
  });

  it('answers 409 for an attempt past its deadline and grace, closing it with submitted_by deadline', async () => {
    const started = await startOk((await newStudent()).token, { test_id: test.id });
    await backdate(m.tenant.clientId, started.attempt_id, 31 * MIN);
    expectError(await extendAttempt(m.tenant.admin.token, started.attempt_id, { minutes: 10 }), 409, 'CONFLICT');
    const stored = await storedAttempt(m.tenant.clientId, started.attempt_id);
    assert.equal(stored.status, 'submitted');
    assert.equal(stored.submitted_by, 'deadline');
  });

  it('answers 400 naming body.minutes for 0, 1441, 1.5 and a missing value', async () => {
    const started = await startOk((await newStudent()).token, { test_id: test.id });
    for (const body of [{ minutes: 0 }, { minutes: 1441 }, { minutes: 1.5 }, {}]) {
      expectValidation(await extendAttempt(m.tenant.admin.token, started.attempt_id, body), ['body.minutes']);
    }
    assert.equal((await storedAttempt(m.tenant.clientId, started.attempt_id)).expires_at, started.expires_at);
  });

  it('answers 404 for an attempt that does not exist', async () => {
    expectError(
      await extendAttempt(m.tenant.admin.token, `${m.tenant.clientId}.nosuchattemptxxxxxxxxx`, { minutes: 5 }),
      404,
      'NOT_FOUND',
    );
  });

  it('answers 403 to its own student, a Guest (its own attempt too) and another organization’s admin; 200 to a Super Admin', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    expectError(await extendAttempt(student.token, started.attempt_id, { minutes: 10 }), 403, 'FORBIDDEN');
    expectError(await extendAttempt(m.otherTenant.admin.token, started.attempt_id, { minutes: 10 }), 403, 'FORBIDDEN');
    const guest = await signInAnonymously();
    const guests = await startOk(guest.token, { share_code: await writeShareCode(m.tenant.clientId, test.id) });
    expectError(await extendAttempt(guest.token, guests.attempt_id, { minutes: 10 }), 403, 'FORBIDDEN');
    assert.equal((await storedAttempt(m.tenant.clientId, started.attempt_id)).expires_at, started.expires_at);
    const res = await extendAttempt(m.superAdmin.token, started.attempt_id, { minutes: 10 });
    assert.equal(res.status, 200, res.text);
  });

  it('records attempt_extended about the student with the actor and the minutes', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    const res = await extendAttempt(m.tenant.admin.token, started.attempt_id, { minutes: 3 });
    const record = (await auditOf(m.tenant.clientId, 'attempt_extended')).find(
      (r) => r.details.attempt_id === started.attempt_id,
    )!;
    assert.ok(record, 'an attempt_extended record for the attempt');
    assert.equal(record.user_id, student.uid);
    assert.equal(record.actor_id, m.tenant.admin.uid);
    assert.equal(record.details.minutes, 3);
    assert.equal(record.details.expires_at, res.body.expires_at);
  });
});

describe('POST /api/tests/{testId}/extend', () => {
  it('extends every attempt in progress of the test once, answering how many; submitted attempts and other tests are untouched', async () => {
    const [{ test }, { test: other }] = await Promise.all([
      sittingTest(m.tenant.admin.token, m.tenant.clientId),
      sittingTest(m.tenant.admin.token, m.tenant.clientId),
    ]);
    const students = await Promise.all([newStudent(), newStudent(), newStudent()]);
    const running = await Promise.all(students.slice(0, 2).map((s) => startOk(s.token, { test_id: test.id })));
    const guest = await signInAnonymously();
    running.push(await startOk(guest.token, { share_code: await writeShareCode(m.tenant.clientId, test.id) }));
    const done = await startOk(students[2].token, { test_id: test.id });
    assert.equal((await submit(students[2].token, done.attempt_id)).status, 200);
    const elsewhere = await startOk(students[0].token, { test_id: other.id });

    const res = await extendTest(m.tenant.admin.token, test.id, { minutes: 20 });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { extended: 3 });
    for (const started of running) {
      assert.equal(
        msBetween(started.expires_at, (await storedAttempt(m.tenant.clientId, started.attempt_id)).expires_at),
        20 * MIN,
      );
    }
    const submitted = await storedAttempt(m.tenant.clientId, done.attempt_id);
    assert.equal(submitted.expires_at, done.expires_at);
    assert.equal(submitted.extensions, undefined);
    assert.equal((await storedAttempt(m.tenant.clientId, elsewhere.attempt_id)).expires_at, elsewhere.expires_at);

    const perAttempt = (await auditOf(m.tenant.clientId, 'attempt_extended')).filter(
      (r) => r.details.test_id === test.id,
    );
    assert.deepEqual(perAttempt.map((r) => r.details.attempt_id).sort(), running.map((r) => r.attempt_id).sort());
    for (const record of perAttempt) {
      assert.equal(record.actor_id, m.tenant.admin.uid);
      assert.equal(record.details.minutes, 20);
    }
    const [sitting] = (await auditOf(m.tenant.clientId, 'test_extended')).filter((r) => r.details.test_id === test.id);
    assert.ok(sitting, 'a test_extended record for the test');
    assert.equal(sitting.actor_id, m.tenant.admin.uid);
    assert.equal(sitting.details.minutes, 20);
  });

  it('answers { extended: 0 } for a test with no attempt in progress', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const res = await extendTest(m.tenant.admin.token, test.id, { minutes: 5 });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { extended: 0 });
  });

  it('does not reach an attempt started after the extension', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    assert.equal((await extendTest(m.tenant.admin.token, test.id, { minutes: 5 })).status, 200);
    const later = await startOk((await newStudent()).token, { test_id: test.id });
    assert.equal(msBetween(later.started_at, later.expires_at), 30 * MIN);
    assert.equal((await storedAttempt(m.tenant.clientId, later.attempt_id)).extensions, undefined);
  });

  it('answers 400 naming body.minutes for 0, 1441, 1.5 and a missing value', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const admin = await createUser('client_admin', m.tenant.clientId);
    for (const body of [{ minutes: 0 }, { minutes: 1441 }, { minutes: 1.5 }, {}])
      expectValidation(await extendTest(admin.token, test.id, body), ['body.minutes']);
  });

  it('answers 403 to a Student, a Guest and another organization’s admin, extending nothing; 200 to a Super Admin', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    for (const token of [student.token, m.guest.token, m.otherTenant.admin.token])
      expectError(await extendTest(token, test.id, { minutes: 10 }), 403, 'FORBIDDEN');
    assert.equal((await storedAttempt(m.tenant.clientId, started.attempt_id)).expires_at, started.expires_at);
    const res = await extendTest(m.superAdmin.token, test.id, { minutes: 10 });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { extended: 1 });
  });

  it('answers 404 for a test that does not exist', async () => {
    expectError(await extendTest(m.tenant.admin.token, 'no-such-test', { minutes: 5 }), 404, 'NOT_FOUND');
  });

  describe('with class_id', () => {
    it('extends only the attempts that started in the class, audited with the class', async () => {
      const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
      const [inClass, outside] = await Promise.all([newStudent(), newStudent()]);
      const cls = await writeClass(m.tenant.clientId);
      await addMember(m.tenant.clientId, cls.id, inClass);
      const [mine, theirs] = await Promise.all([
        startOk(inClass.token, { test_id: test.id }),
        startOk(outside.token, { test_id: test.id }),
      ]);
      const res = await extendTest(m.tenant.admin.token, test.id, { minutes: 7, class_id: cls.id });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { extended: 1 });
      assert.equal(
        msBetween(mine.expires_at, (await storedAttempt(m.tenant.clientId, mine.attempt_id)).expires_at),
        7 * MIN,
      );
      assert.equal((await storedAttempt(m.tenant.clientId, theirs.attempt_id)).expires_at, theirs.expires_at);
      const [sitting] = (await auditOf(m.tenant.clientId, 'test_extended')).filter(
        (r) => r.details.test_id === test.id,
      );
      assert.equal(sitting.details.class_id, cls.id);
      const perAttempt = (await auditOf(m.tenant.clientId, 'attempt_extended')).filter(
        (r) => r.details.test_id === test.id,
      );
      assert.deepEqual(
        perAttempt.map((r) => [r.details.attempt_id, r.details.class_id]),
        [[mine.attempt_id, cls.id]],
      );
    });

    it('extends the members of a class the test is not assigned to (open to the organization)', async () => {
      const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
      const student = await newStudent();
      const cls = await writeClass(m.tenant.clientId);
      await addMember(m.tenant.clientId, cls.id, student);
      const started = await startOk(student.token, { test_id: test.id });
      const res = await extendTest(m.tenant.admin.token, test.id, { minutes: 4, class_id: cls.id });
      assert.deepEqual(res.body, { extended: 1 }, res.text);
      assert.equal(
        msBetween(started.expires_at, (await storedAttempt(m.tenant.clientId, started.attempt_id)).expires_at),
        4 * MIN,
      );
    });

    it('answers 404 for another organization’s class and for a class that does not exist, extending nothing', async () => {
      const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
      const started = await startOk((await newStudent()).token, { test_id: test.id });
      const theirs = await writeClass(m.otherTenant.clientId);
      for (const classId of [theirs.id, 'nosuchclass'])
        expectError(
          await extendTest(m.tenant.admin.token, test.id, { minutes: 5, class_id: classId }),
          404,
          'NOT_FOUND',
        );
      assert.equal((await storedAttempt(m.tenant.clientId, started.attempt_id)).expires_at, started.expires_at);
      assert.equal(
        (await auditOf(m.tenant.clientId, 'test_extended')).filter((r) => r.details.test_id === test.id).length,
        0,
      );
    });

    it('answers 400 naming body.class_id for an id that cannot name a document', async () => {
      const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
      expectValidation(await extendTest(m.tenant.admin.token, test.id, { minutes: 5, class_id: 'a/b' }), [
        'body.class_id',
      ]);
    });
  });
});
