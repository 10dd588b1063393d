import assert from 'node:assert/strict';
import { adminDb } from '../support/admin';
import { createSuperAdmin, createTenant, createUser } from '../support/fixtures';
import { api, get, post } from '../support/http';
import { as } from '../exams/fixtures';
import { startOk } from '../attempts/fixtures';
import { essayTest } from '../grading/fixtures';

// Replies that mention people by uid carry their names, read for the page in one batch.

describe('People by name in the replies that list them', () => {
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let student: Awaited<ReturnType<typeof createUser>>;
  let test: { id: string };
  let attemptId: string;

  before(async function () {
    this.timeout(60_000);
    tenant = await createTenant();
    student = await createUser('student', tenant.clientId);
    const made = await essayTest(tenant.admin.token, tenant.clientId);
    test = made.test;
    const started = await startOk(student.token, { test_id: test.id });
    attemptId = started.attempt_id;
    const answers = [
      { question_id: made.choice.id, student_answer: '4' },
      { question_id: made.essays[0].id, student_answer: 'Plants turn light into sugar.' },
    ];
    assert.equal((await post(`/api/attempts/${attemptId}/answers`, { answers }, as(student.token))).status, 200);
    assert.equal((await post(`/api/attempts/${attemptId}/submit`, undefined, as(student.token))).status, 200);
  });

  it('names each student in an administrator’s list of attempts, and not in a student’s own', async () => {
    const res = await get(`/api/attempts?test_id=${test.id}`, as(tenant.admin.token));
    assert.equal(res.status, 200, res.text);
    const listed = res.body.data.find((a: { attempt_id: string }) => a.attempt_id === attemptId);
    assert.equal(listed.student_name, 'Test student');
    assert.equal(listed.student_email, student.email);
    const own = await get('/api/attempts', as(student.token));
    assert.equal(own.status, 200, own.text);
    assert.equal(own.body.data[0].student_name, undefined);
  });

  it('names the student of each essay in the grading queue, and nobody when grading blind', async () => {
    const named = await get(`/api/tests/${test.id}/grading`, as(tenant.admin.token));
    assert.equal(named.status, 200, named.text);
    assert.equal(named.body.data[0].student_name, 'Test student');
    assert.equal(named.body.data[0].student_email, student.email);
    const blind = await get(`/api/tests/${test.id}/grading?blind=true`, as(tenant.admin.token));
    assert.equal(blind.status, 200, blind.text);
    const [item] = blind.body.data;
    assert.deepEqual(
      [item.student_id, item.guest_name, item.student_name, item.student_email],
      [null, null, null, null],
    );
    assert.ok(!blind.text.includes(student.email) && !blind.text.includes('Test student'), 'no name anywhere');
  });

  it('names the student of each override in the list', async () => {
    const set = await api('PUT', `/api/tests/${test.id}/overrides/${student.uid}`, {
      ...as(tenant.admin.token),
      body: { timer: 90 },
    });
    assert.equal(set.status, 200, set.text);
    const res = await get(`/api/tests/${test.id}/overrides`, as(tenant.admin.token));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data[0].student_id, student.uid);
    assert.equal(res.body.data[0].student_name, 'Test student');
    assert.equal(res.body.data[0].student_email, student.email);
  });

  it('names who issued each share code, an organization’s administrator or a Super Admin', async () => {
    const superAdmin = await createSuperAdmin();
    for (const token of [tenant.admin.token, superAdmin.token])
      assert.equal((await post(`/api/tests/${test.id}/share-codes`, {}, as(token))).status, 201);
    const res = await get(`/api/tests/${test.id}/share-codes`, as(tenant.admin.token));
    assert.equal(res.status, 200, res.text);
    const byIssuer = new Map(res.body.data.map((c: { created_by: string }) => [c.created_by, c]));
    assert.deepEqual(
      [tenant.admin.uid, superAdmin.uid].map((uid) => {
        const code = byIssuer.get(uid) as { created_by_name: string; created_by_email: string };
        return [code.created_by_name, code.created_by_email];
      }),
      [
        ['Test client_admin', tenant.admin.email],
        ['Test super_admin', superAdmin.email],
      ],
    );
  });

  it('names the user, the actor and the test of each audit record, and gives a missing profile nulls', async () => {
    const res = await get(`/api/audit-logs?user_id=${student.uid}&event_type=override_set`, as(tenant.admin.token));
    assert.equal(res.status, 200, res.text);
    const [record] = res.body.data;
    assert.equal(record.user_name, 'Test student');
    assert.equal(record.user_email, student.email);
    assert.equal(record.actor_name, 'Test client_admin');
    assert.equal(record.actor_email, tenant.admin.email);
    const testName = (await adminDb.doc(`clients/${tenant.clientId}/tests/${test.id}`).get()).get('test_name');
    assert.equal(record.test_name, testName);
    const gone = `gone-${tenant.clientId}`;
    // The stored record: the reply without the names read for the page.
    const { user_name, user_email, actor_name, actor_email, test_name, ...stored } = record;
    void [user_name, user_email, actor_name, actor_email, test_name];
    await adminDb
      .collection('audit_logs')
      .doc(gone)
      .set({ ...stored, id: gone, user_id: gone, details: { test_id: 'no-such-test' } });
    const missing = await get(`/api/audit-logs?user_id=${gone}`, as(tenant.admin.token));
    assert.equal(missing.status, 200, missing.text);
    const [row] = missing.body.data;
    assert.deepEqual([row.user_name, row.user_email, row.test_name], [null, null, null]);
  });
});
