import assert from 'node:assert/strict';
import { auditRecordsFor, createRoleMatrix, createUser, signInAnonymously, type RoleMatrix } from '../support/fixtures';
import { freshIp, get, post } from '../support/http';
import { as } from '../exams/fixtures';
import { expire, publishTest, startOk, tokenQuery, writeShareCode } from './fixtures';

// submitted_by over HTTP: who closed an attempt (its taker, an administrator of
// its organization, or the service at the deadline), in GET /api/attempts/{id}
// and in the list.

let m: RoleMatrix;
let test: any;
const newStudent = () => createUser('student', m.tenant.clientId);
const submitAs = (token: string, attemptId: string) => post(`/api/attempts/${attemptId}/submit`, undefined, as(token));
const submittedByOf = async (attemptId: string) => {
  const res = await get(`/api/attempts/${attemptId}`, as(m.tenant.admin.token));
  assert.equal(res.status, 200, res.text);
  return res.body.submitted_by;
};

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
  ({ test } = await publishTest(m.tenant.admin.token, m.tenant.clientId, { count: 2, extra: { timer: 30 } }));
});

describe('submitted_by', () => {
  it('is null while the attempt is in progress', async () => {
    const started = await startOk((await newStudent()).token, { test_id: test.id });
    assert.equal(await submittedByOf(started.attempt_id), null);
  });

  it('is taker when the student submits its own attempt', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    assert.equal((await submitAs(student.token, started.attempt_id)).status, 200);
    const mine = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
    assert.equal(mine.body.submitted_by, 'taker');
    const [record] = await auditRecordsFor(student.uid, 'attempt_submitted');
    assert.equal(record.details.submitted_by, 'taker');
    assert.equal(record.actor_id, student.uid);
  });

  it('is taker when the holder of the attempt token submits it, without signing in (a student’s and a Guest’s)', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    const guest = await signInAnonymously();
    const guests = await startOk(guest.token, { share_code: await writeShareCode(m.tenant.clientId, test.id) });
    for (const attempt of [started, guests]) {
      const res = await post(
        `/api/attempts/${attempt.attempt_id}/submit${tokenQuery(attempt.attempt_token)}`,
        undefined,
        { ip: freshIp() },
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(await submittedByOf(attempt.attempt_id), 'taker');
    }
  });

  it('is admin when a Client Admin of the organization submits a student’s attempt with its own token, audited with the admin as actor', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    const res = await submitAs(m.tenant.admin.token, started.attempt_id);
    assert.equal(res.status, 200, res.text);
    assert.equal(await submittedByOf(started.attempt_id), 'admin');
    const mine = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
    assert.equal(mine.body.submitted_by, 'admin');
    assert.equal(mine.body.auto_submitted, false);
    const [record] = await auditRecordsFor(student.uid, 'attempt_submitted');
    assert.equal(record.details.submitted_by, 'admin');
    assert.equal(record.actor_id, m.tenant.admin.uid);
  });

  it('is admin when the attempt token an administrator received by starting the attempt for a student is used to submit, audited with the admin as actor', async () => {
    const student = await newStudent();
    const started = await startOk(m.tenant.admin.token, { test_id: test.id, student_id: student.uid });
    const res = await post(
      `/api/attempts/${started.attempt_id}/submit${tokenQuery(started.attempt_token)}`,
      undefined,
      { ip: freshIp() },
    );
    assert.equal(res.status, 200, res.text);
    assert.equal(await submittedByOf(started.attempt_id), 'admin');
    const [record] = await auditRecordsFor(student.uid, 'attempt_submitted');
    assert.equal(record.details.submitted_by, 'admin');
    assert.equal(record.actor_id, m.tenant.admin.uid);
    assert.equal(record.details.actor_role, 'client_admin');
  });

  it('is taker when the student resumes an attempt an administrator started and submits with its own fresh token', async () => {
    const student = await newStudent();
    const byAdmin = await startOk(m.tenant.admin.token, { test_id: test.id, student_id: student.uid });
    const resumed = await startOk(student.token, { test_id: test.id });
    assert.equal(resumed.attempt_id, byAdmin.attempt_id);
    // The administrator's token stopped working with the resume: it cannot be used to pass as the admin.
    const stale = await post(
      `/api/attempts/${byAdmin.attempt_id}/submit${tokenQuery(byAdmin.attempt_token)}`,
      undefined,
      { ip: freshIp() },
    );
    assert.equal(stale.status, 403, stale.text);
    const res = await post(
      `/api/attempts/${resumed.attempt_id}/submit${tokenQuery(resumed.attempt_token)}`,
      undefined,
      { ip: freshIp() },
    );
    assert.equal(res.status, 200, res.text);
    assert.equal(await submittedByOf(resumed.attempt_id), 'taker');
    const [record] = await auditRecordsFor(student.uid, 'attempt_submitted');
    assert.equal(record.actor_id, student.uid);
  });

  it('is admin when a Super Admin submits a student’s attempt', async () => {
    const started = await startOk((await newStudent()).token, { test_id: test.id });
    assert.equal((await submitAs(m.superAdmin.token, started.attempt_id)).status, 200);
    assert.equal(await submittedByOf(started.attempt_id), 'admin');
  });

  it('is deadline when the service closes an attempt left open past its deadline (on a read)', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    await expire(m.tenant.clientId, started.attempt_id, 60);
    const res = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
    assert.equal(res.body.status, 'submitted');
    assert.equal(res.body.submitted_by, 'deadline');
    assert.equal(res.body.auto_submitted, true);
  });

  it('is deadline when the taker submits after the deadline and its grace', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    await expire(m.tenant.clientId, started.attempt_id, 60);
    assert.equal((await submitAs(student.token, started.attempt_id)).status, 200);
    assert.equal(await submittedByOf(started.attempt_id), 'deadline');
  });

  it('is listed with every attempt in GET /api/attempts: taker, admin, deadline, and null in progress', async () => {
    const { test: listed } = await publishTest(m.tenant.admin.token, m.tenant.clientId, {
      count: 1,
      extra: { timer: 30 },
    });
    const [a, b, c, d] = await Promise.all([newStudent(), newStudent(), newStudent(), newStudent()]);
    const [byTaker, byAdmin, byDeadline, running] = await Promise.all(
      [a, b, c, d].map((s) => startOk(s.token, { test_id: listed.id })),
    );
    assert.equal((await submitAs(a.token, byTaker.attempt_id)).status, 200);
    assert.equal((await submitAs(m.tenant.admin.token, byAdmin.attempt_id)).status, 200);
    await expire(m.tenant.clientId, byDeadline.attempt_id, 60);
    const res = await get(`/api/attempts?test_id=${listed.id}&limit=100`, as(m.tenant.admin.token));
    assert.equal(res.status, 200, res.text);
    const byId = Object.fromEntries(res.body.data.map((row: any) => [row.attempt_id, row.submitted_by]));
    assert.deepEqual(byId, {
      [byTaker.attempt_id]: 'taker',
      [byAdmin.attempt_id]: 'admin',
      [byDeadline.attempt_id]: 'deadline',
      [running.attempt_id]: null,
    });
    const own = await get(`/api/attempts?test_id=${listed.id}`, as(b.token));
    assert.deepEqual(
      own.body.data.map((row: any) => row.submitted_by),
      ['admin'],
    );
  });
});
