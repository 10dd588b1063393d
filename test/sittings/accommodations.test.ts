import assert from 'node:assert/strict';
import { expectError, expectValidation, ISO_UTC } from '../support/assertions';
import { createRoleMatrix, createUser, type RoleMatrix } from '../support/fixtures';
import { get } from '../support/http';
import { as, clientDoc } from '../exams/fixtures';
import { startOk } from '../attempts/fixtures';
import {
  auditOf,
  backdate,
  getAccommodation,
  MIN,
  msBetween,
  putAccommodation,
  saveAnswer,
  sittingTest,
  storedAttempt,
} from './httpFixtures';

// A student's standing accommodation over HTTP: extra time on every test of
// its organization, new attempts and attempts in progress alike.

let m: RoleMatrix;
const newStudent = () => createUser('student', m.tenant.clientId);
const storedAccommodation = async (uid: string) =>
  (await clientDoc(m.tenant.clientId).collection('accommodations').doc(uid).get()).data();

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
});

describe('GET /api/users/{uid}/accommodations', () => {
  it('answers 0 and 0 with updated_at null for a student who has none', async () => {
    const student = await newStudent();
    const res = await getAccommodation(m.tenant.admin.token, student.uid);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { student_id: student.uid, extra_time_percent: 0, extra_minutes: 0, updated_at: null });
  });

  it('answers the accommodation as set', async () => {
    const student = await newStudent();
    await putAccommodation(m.tenant.admin.token, student.uid, { extra_time_percent: 25, extra_minutes: 10 });
    const res = await getAccommodation(m.tenant.admin.token, student.uid);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.extra_time_percent, 25);
    assert.equal(res.body.extra_minutes, 10);
    assert.match(res.body.updated_at, ISO_UTC);
  });

  it('answers 400 naming params.uid for an administrator’s uid', async () => {
    expectValidation(await getAccommodation(m.tenant.admin.token, m.tenant.admin.uid), ['params.uid']);
  });

  it('answers 403 to the student itself, a Guest and another organization’s admin; 200 to a Super Admin', async () => {
    const student = await newStudent();
    for (const token of [student.token, m.guest.token, m.otherTenant.admin.token])
      expectError(await getAccommodation(token, student.uid), 403, 'FORBIDDEN');
    assert.equal((await getAccommodation(m.superAdmin.token, student.uid)).status, 200);
  });

  it('answers 404 for a user that does not exist', async () => {
    expectError(await getAccommodation(m.tenant.admin.token, 'no-such-user'), 404, 'NOT_FOUND');
  });
});

describe('PUT /api/users/{uid}/accommodations', () => {
  it('answers 200 with the accommodation as stored', async () => {
    const student = await newStudent();
    const res = await putAccommodation(m.tenant.admin.token, student.uid, { extra_time_percent: 50, extra_minutes: 5 });
    assert.equal(res.status, 200, res.text);
    const { updated_at, ...rest } = res.body;
    assert.match(updated_at, ISO_UTC);
    assert.deepEqual(rest, { student_id: student.uid, extra_time_percent: 50, extra_minutes: 5 });
    assert.equal((await storedAccommodation(student.uid))!.set_by, m.tenant.admin.uid);
  });

  it('removes the accommodation with 0 and 0: the stored document goes, GET answers the defaults', async () => {
    const student = await newStudent();
    await putAccommodation(m.tenant.admin.token, student.uid, { extra_time_percent: 50, extra_minutes: 0 });
    const res = await putAccommodation(m.tenant.admin.token, student.uid, { extra_time_percent: 0, extra_minutes: 0 });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { student_id: student.uid, extra_time_percent: 0, extra_minutes: 0, updated_at: null });
    assert.equal(await storedAccommodation(student.uid), undefined);
    assert.equal((await getAccommodation(m.tenant.admin.token, student.uid)).body.updated_at, null);
  });

  it('shows the student its own in GET /api/me, and null once removed', async () => {
    const student = await newStudent();
    await putAccommodation(m.tenant.admin.token, student.uid, { extra_time_percent: 50, extra_minutes: 15 });
    const me = await get('/api/me', as(student.token));
    assert.equal(me.status, 200, me.text);
    assert.deepEqual(me.body.accommodation, { extra_time_percent: 50, extra_minutes: 15 });
    await putAccommodation(m.tenant.admin.token, student.uid, { extra_time_percent: 0, extra_minutes: 0 });
    assert.equal((await get('/api/me', as(student.token))).body.accommodation, null);
  });

  it('gives a new attempt timer × 1.5 for +50%: 30 minutes become 45', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    await putAccommodation(m.tenant.admin.token, student.uid, { extra_time_percent: 50, extra_minutes: 0 });
    const started = await startOk(student.token, { test_id: test.id });
    assert.equal(msBetween(started.started_at, started.expires_at), 45 * MIN);
  });

  it('applies to every test of the organization, with extra minutes: 30 minutes +10% +3 minutes = 36 minutes', async () => {
    const [{ test: first }, { test: second }] = await Promise.all([
      sittingTest(m.tenant.admin.token, m.tenant.clientId),
      sittingTest(m.tenant.admin.token, m.tenant.clientId, { timer: 20 }),
    ]);
    const student = await newStudent();
    await putAccommodation(m.tenant.admin.token, student.uid, { extra_time_percent: 10, extra_minutes: 3 });
    const a = await startOk(student.token, { test_id: first.id });
    const b = await startOk(student.token, { test_id: second.id });
    assert.equal(msBetween(a.started_at, a.expires_at), 36 * MIN);
    assert.equal(msBetween(b.started_at, b.expires_at), 25 * MIN);
  });

  it('recomputes the deadline of the student’s attempt in progress from its started_at, and back when removed', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    assert.equal(
      (await putAccommodation(m.tenant.admin.token, student.uid, { extra_time_percent: 50, extra_minutes: 0 })).status,
      200,
    );
    const extended = await storedAttempt(m.tenant.clientId, started.attempt_id);
    assert.equal(extended.started_at, started.started_at);
    assert.equal(msBetween(extended.started_at, extended.expires_at), 45 * MIN);
    assert.equal(
      (await get(`/api/attempts/${started.attempt_id}`, as(student.token))).body.expires_at,
      extended.expires_at,
    );
    assert.equal(
      (await putAccommodation(m.tenant.admin.token, student.uid, { extra_time_percent: 0, extra_minutes: 0 })).status,
      200,
    );
    const back = await storedAttempt(m.tenant.clientId, started.attempt_id);
    assert.equal(msBetween(back.started_at, back.expires_at), 30 * MIN);
  });

  it('closes the student’s attempt in progress at once when removing the accommodation puts its deadline in the past, with its answers counted', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    await putAccommodation(m.tenant.admin.token, student.uid, { extra_time_percent: 100, extra_minutes: 0 });
    const started = await startOk(student.token, { test_id: test.id });
    // Started 40 minutes ago: inside its 60 minutes, past the 30 it has without the accommodation.
    await backdate(m.tenant.clientId, started.attempt_id, 40 * MIN);
    const [q] = started.test_details.questions;
    assert.equal((await saveAnswer(student.token, started.attempt_id, q.id, '4')).status, 200);
    assert.equal(
      (await putAccommodation(m.tenant.admin.token, student.uid, { extra_time_percent: 0, extra_minutes: 0 })).status,
      200,
    );
    const closed = await storedAttempt(m.tenant.clientId, started.attempt_id);
    assert.equal(closed.status, 'submitted');
    assert.equal(closed.submitted_by, 'deadline');
    assert.equal(closed.score, 2);
  });

  it('answers 400 naming params.uid for an administrator’s uid, storing nothing', async () => {
    expectValidation(
      await putAccommodation(m.tenant.admin.token, m.tenant.admin.uid, { extra_time_percent: 50, extra_minutes: 0 }),
      ['params.uid'],
    );
    expectValidation(
      await putAccommodation(m.superAdmin.token, m.superAdmin.uid, { extra_time_percent: 50, extra_minutes: 0 }),
      ['params.uid'],
    );
    assert.equal(await storedAccommodation(m.tenant.admin.uid), undefined);
  });

  it('answers 400 naming the field for 401 %, -1 %, 1.5 %, -1 minutes, 1441 minutes, 1.5 minutes, a missing field and an unknown one', async () => {
    const student = await newStudent();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ extra_time_percent: 401, extra_minutes: 0 }, 'body.extra_time_percent'],
      [{ extra_time_percent: -1, extra_minutes: 0 }, 'body.extra_time_percent'],
      [{ extra_time_percent: 1.5, extra_minutes: 0 }, 'body.extra_time_percent'],
      [{ extra_time_percent: 0, extra_minutes: -1 }, 'body.extra_minutes'],
      [{ extra_time_percent: 0, extra_minutes: 1441 }, 'body.extra_minutes'],
      [{ extra_time_percent: 0, extra_minutes: 1.5 }, 'body.extra_minutes'],
      [{ extra_time_percent: 10 }, 'body.extra_minutes'],
    ];
    for (const [body, path] of cases)
      expectValidation(await putAccommodation(m.tenant.admin.token, student.uid, body), [path]);
    expectValidation(
      await putAccommodation(m.tenant.admin.token, student.uid, {
        extra_time_percent: 10,
        extra_minutes: 0,
        note: 'x',
      }),
      ['body'],
      ['note'],
    );
    assert.equal(await storedAccommodation(student.uid), undefined);
    // The bounds themselves are accepted.
    assert.equal(
      (await putAccommodation(m.tenant.admin.token, student.uid, { extra_time_percent: 400, extra_minutes: 1440 }))
        .status,
      200,
    );
  });

  it('answers 403 to a Student (even for itself), a Guest and another organization’s admin; 200 to a Super Admin', async () => {
    const student = await newStudent();
    const body = { extra_time_percent: 50, extra_minutes: 0 };
    for (const token of [student.token, m.tenant.student.token, m.guest.token, m.otherTenant.admin.token]) {
      expectError(await putAccommodation(token, student.uid, body), 403, 'FORBIDDEN');
    }
    assert.equal(await storedAccommodation(student.uid), undefined);
    const res = await putAccommodation(m.superAdmin.token, student.uid, body);
    assert.equal(res.status, 200, res.text);
    assert.equal((await storedAccommodation(student.uid))!.set_by, m.superAdmin.uid);
  });

  it('records accommodation_set about the student with the actor and the change', async () => {
    const student = await newStudent();
    await putAccommodation(m.tenant.admin.token, student.uid, { extra_time_percent: 50, extra_minutes: 0 });
    await putAccommodation(m.tenant.admin.token, student.uid, { extra_time_percent: 25, extra_minutes: 10 });
    const records = (await auditOf(m.tenant.clientId, 'accommodation_set')).filter((r) => r.user_id === student.uid);
    assert.equal(records.length, 2);
    assert.equal(records[0].actor_id, m.tenant.admin.uid);
    assert.deepEqual(records[0].details, {
      extra_time_percent: { from: 50, to: 25 },
      extra_minutes: { from: 0, to: 10 },
    });
  });
});
