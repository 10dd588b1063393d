import assert from 'node:assert/strict';
import { expectError, expectValidation, ISO_UTC } from '../support/assertions';
import { createRoleMatrix, createUser, type RoleMatrix } from '../support/fixtures';
import { api, get } from '../support/http';
import { as, testDoc } from '../exams/fixtures';
import { addMember, writeClass } from '../exams/classFixtures';
import { start, startOk } from '../attempts/fixtures';
import { MAX_CLASSES_PER_TEST } from '../../functions/src/classes/documents';
import { auditOf, fromNow, MIN, msBetween, putOverride, sittingTest, storedAttempt, storedTest } from './httpFixtures';

// Class overrides over HTTP: the same body as a student's override, for every student
// of a class, kept on the test; the student's own wins field by field, else its
// classes' most generous.

let m: RoleMatrix;
const putClassOverride = (token: string, testId: string, classId: string, body: unknown) =>
  api('PUT', `/api/tests/${testId}/class-overrides/${classId}`, { ...as(token), body });
const deleteClassOverride = (token: string, testId: string, classId: string) =>
  api('DELETE', `/api/tests/${testId}/class-overrides/${classId}`, as(token));
const listClassOverrides = (token: string, testId: string) => get(`/api/tests/${testId}/class-overrides`, as(token));

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
});

describe('PUT /api/tests/{testId}/class-overrides/{classId}', () => {
  it('answers 200 with the override as stored, keeps it on the test, and audits class_override_set', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const cls = await writeClass(m.tenant.clientId);
    const res = await putClassOverride(m.tenant.admin.token, test.id, cls.id, {
      timer: 45,
      closes_at: '2031-01-01T10:00:00+01:00',
    });
    assert.equal(res.status, 200, res.text);
    const { updated_at, ...rest } = res.body;
    assert.match(updated_at, ISO_UTC);
    assert.deepEqual(rest, {
      test_id: test.id,
      class_id: cls.id,
      timer: 45,
      closes_at: '2031-01-01T09:00:00.000Z',
      set_by: m.tenant.admin.uid,
    });
    assert.equal((await storedTest(m.tenant.clientId, test.id)).class_overrides[cls.id].timer, 45);
    const records = (await auditOf(m.tenant.clientId, 'class_override_set')).filter(
      (r) => r.details.class_id === cls.id,
    );
    assert.equal(records.length, 1);
    assert.deepEqual(records[0].details.override, { timer: 45, closes_at: '2031-01-01T09:00:00.000Z' });
  });

  it('replaces the whole override: a field absent from the next PUT is no longer overridden', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const cls = await writeClass(m.tenant.clientId);
    await putClassOverride(m.tenant.admin.token, test.id, cls.id, { timer: 45, max_attempts: 3 });
    const res = await putClassOverride(m.tenant.admin.token, test.id, cls.id, { max_attempts: null });
    assert.equal(res.status, 200, res.text);
    assert.equal('timer' in res.body, false);
    assert.equal(res.body.max_attempts, null);
  });

  it('answers 403 for another organization’s class and 404 for a class that does not exist', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const foreign = await writeClass(m.otherTenant.clientId);
    expectError(await putClassOverride(m.tenant.admin.token, test.id, foreign.id, { timer: 40 }), 403, 'FORBIDDEN');
    expectError(
      await putClassOverride(m.tenant.admin.token, test.id, 'no-such-class', { timer: 40 }),
      404,
      'NOT_FOUND',
    );
    assert.equal((await storedTest(m.tenant.clientId, test.id)).class_overrides, undefined);
  });

  it('answers 403 to a student, a Guest and another organization’s administrator', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const cls = await writeClass(m.tenant.clientId);
    for (const token of [m.tenant.student.token, m.guest.token, m.otherTenant.admin.token])
      expectError(await putClassOverride(token, test.id, cls.id, { timer: 40 }), 403, 'FORBIDDEN');
  });

  it('answers 400 for an empty body, a bad field or a window closing before it opens', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { opens_at: fromNow(60 * MIN) });
    const cls = await writeClass(m.tenant.clientId);
    expectValidation(await putClassOverride(m.tenant.admin.token, test.id, cls.id, {}), ['body']);
    expectValidation(await putClassOverride(m.tenant.admin.token, test.id, cls.id, { timer: 0 }), ['body.timer']);
    expectValidation(await putClassOverride(m.tenant.admin.token, test.id, cls.id, { closes_at: fromNow(MIN) }), [
      'body.closes_at',
    ]);
  });

  it(`answers 409 for a class override beyond ${MAX_CLASSES_PER_TEST} on one test`, async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const held = Object.fromEntries(
      Array.from({ length: MAX_CLASSES_PER_TEST }, (_, i) => [
        `held-${i}`,
        { timer: 40, set_by: 'fixture', updated_at: new Date().toISOString() },
      ]),
    );
    await testDoc(m.tenant.clientId, test.id).update({ class_overrides: held });
    const cls = await writeClass(m.tenant.clientId);
    expectError(await putClassOverride(m.tenant.admin.token, test.id, cls.id, { timer: 40 }), 409, 'CONFLICT');
  });
});

describe('GET /api/tests/{testId}/class-overrides', () => {
  it('lists the test’s class overrides by class id, to its administrators only', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const [a, b] = await Promise.all([writeClass(m.tenant.clientId), writeClass(m.tenant.clientId)]);
    await putClassOverride(m.tenant.admin.token, test.id, a.id, { timer: 40 });
    await putClassOverride(m.tenant.admin.token, test.id, b.id, { max_attempts: 2 });
    const res = await listClassOverrides(m.tenant.admin.token, test.id);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.data.map((o: any) => o.class_id),
      [a.id, b.id].sort(),
    );
    expectError(await listClassOverrides(m.tenant.student.token, test.id), 403, 'FORBIDDEN');
    expectError(await listClassOverrides(m.otherTenant.admin.token, test.id), 403, 'FORBIDDEN');
    expectError(await listClassOverrides(m.tenant.admin.token, 'no-such-test'), 404, 'NOT_FOUND');
  });
});

describe('DELETE /api/tests/{testId}/class-overrides/{classId}', () => {
  it('answers 204, removes it and audits class_override_deleted; 404 when the class has none', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const cls = await writeClass(m.tenant.clientId);
    await putClassOverride(m.tenant.admin.token, test.id, cls.id, { timer: 40 });
    assert.equal((await deleteClassOverride(m.tenant.admin.token, test.id, cls.id)).status, 204);
    assert.deepEqual((await storedTest(m.tenant.clientId, test.id)).class_overrides, {});
    assert.equal(
      (await auditOf(m.tenant.clientId, 'class_override_deleted')).filter((r) => r.details.class_id === cls.id).length,
      1,
    );
    expectError(await deleteClassOverride(m.tenant.admin.token, test.id, cls.id), 404, 'NOT_FOUND');
    const foreign = await writeClass(m.otherTenant.clientId);
    expectError(await deleteClassOverride(m.tenant.admin.token, test.id, foreign.id), 403, 'FORBIDDEN');
  });
});

describe('class overrides at a start', () => {
  it('give a class’s students its timer, the most generous of their classes’, with the student’s own winning', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const [a, b] = await Promise.all([writeClass(m.tenant.clientId), writeClass(m.tenant.clientId)]);
    await putClassOverride(m.tenant.admin.token, test.id, a.id, { timer: 40 });
    await putClassOverride(m.tenant.admin.token, test.id, b.id, { timer: 50 });
    const [both, own, none] = await Promise.all([
      createUser('student', m.tenant.clientId),
      createUser('student', m.tenant.clientId),
      createUser('student', m.tenant.clientId),
    ]);
    await Promise.all([
      addMember(m.tenant.clientId, a.id, both).then(() => addMember(m.tenant.clientId, b.id, both)),
      addMember(m.tenant.clientId, b.id, own),
    ]);
    await putOverride(m.tenant.admin.token, test.id, own.uid, { timer: 35 });
    const minutesOf = async (student: { token: string }) => {
      const started = await startOk(student.token, { test_id: test.id });
      return msBetween(started.started_at, started.expires_at) / MIN;
    };
    assert.equal(await minutesOf(both), 50);
    assert.equal(await minutesOf(own), 35);
    assert.equal(await minutesOf(none), 30);
  });

  it('refuses a new attempt past a class’s max_attempts', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const cls = await writeClass(m.tenant.clientId);
    await putClassOverride(m.tenant.admin.token, test.id, cls.id, { max_attempts: 1 });
    const pupil = await createUser('student', m.tenant.clientId);
    await addMember(m.tenant.clientId, cls.id, pupil);
    const first = await startOk(pupil.token, { test_id: test.id });
    await api('POST', `/api/attempts/${first.attempt_id}/submit`, as(pupil.token));
    expectError(await start(pupil.token, { test_id: test.id }), 409, 'CONFLICT');
  });

  it('reaches an attempt in progress of the class when it changes, and no other', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const cls = await writeClass(m.tenant.clientId);
    const [inClass, outside] = await Promise.all([
      createUser('student', m.tenant.clientId),
      createUser('student', m.tenant.clientId),
    ]);
    await addMember(m.tenant.clientId, cls.id, inClass);
    const [mine, theirs] = await Promise.all([
      startOk(inClass.token, { test_id: test.id }),
      startOk(outside.token, { test_id: test.id }),
    ]);
    const res = await putClassOverride(m.tenant.admin.token, test.id, cls.id, { timer: 60 });
    assert.equal(res.status, 200, res.text);
    const moved = await storedAttempt(m.tenant.clientId, mine.attempt_id);
    assert.equal(msBetween(moved.started_at, moved.expires_at) / MIN, 60);
    assert.equal((await storedAttempt(m.tenant.clientId, theirs.attempt_id)).expires_at, theirs.expires_at);
    assert.equal((await deleteClassOverride(m.tenant.admin.token, test.id, cls.id)).status, 204);
    const back = await storedAttempt(m.tenant.clientId, mine.attempt_id);
    assert.equal(msBetween(back.started_at, back.expires_at) / MIN, 30);
  });
});
