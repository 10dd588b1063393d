import assert from 'node:assert/strict';
import { expectError, expectValidation } from '../support/assertions';
import { auditRecordsFor, createTenant } from '../support/fixtures';
import { api, del } from '../support/http';
import { as, clientDoc } from '../exams/fixtures';
import { attemptDoc, publishTest, slotDoc, startOk } from '../attempts/fixtures';

// Writing an override: the transaction that stores it also brings the
// student's attempt in progress to its new deadline, and stores (and audits)
// only the fields sent. A student id that could name no document is refused
// as no student, never a server error. Over HTTP through the emulators.

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const overridePath = (testId: string, studentId: string) =>
  `/api/tests/${testId}/overrides/${encodeURIComponent(studentId)}`;
const putOverride = (token: string, testId: string, studentId: string, body: unknown) =>
  api('PUT', overridePath(testId, studentId), { ...as(token), body });
const overrideDoc = (clientId: string, testId: string, studentId: string) =>
  clientDoc(clientId).collection('tests').doc(testId).collection('overrides').doc(studentId);

/** A tenant with a published 45-minute test (through the API). */
async function tenantWithTest(): Promise<{ tenant: Tenant; testId: string }> {
  const tenant = await createTenant();
  const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
  return { tenant, testId: test.id };
}

describe('PUT /api/tests/{testId}/overrides/{studentId}', function () {
  this.timeout(60_000);

  it("answers 200 for a student with an attempt in progress, and moves that attempt's deadline and its slot's to started_at + the new timer", async () => {
    const { tenant, testId } = await tenantWithTest();
    const started = await startOk(tenant.student.token, { test_id: testId });
    const res = await putOverride(tenant.admin.token, testId, tenant.student.uid, { timer: 90 });
    assert.equal(res.status, 200, res.text);
    const attempt = (await attemptDoc(tenant.clientId, started.attempt_id).get()).data()!;
    const expected = new Date(Date.parse(attempt.started_at) + 90 * 60_000).toISOString();
    assert.equal(attempt.expires_at, expected);
    assert.equal(
      (await slotDoc(tenant.clientId, testId, tenant.student.uid).get()).get('in_progress.expires_at'),
      expected,
    );
    const [audit] = await auditRecordsFor(tenant.student.uid, 'override_set');
    assert.equal(audit.details.attempt_id, started.attempt_id);
    assert.equal(audit.details.expires_at, expected);
  });

  it("answers 200 for one field alone, storing and auditing that field only (the others stay the test's own)", async () => {
    const { tenant, testId } = await tenantWithTest();
    const res = await putOverride(tenant.admin.token, testId, tenant.student.uid, { max_attempts: null });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['max_attempts', 'set_by', 'student_id', 'test_id', 'updated_at']);
    assert.equal(res.body.max_attempts, null);
    const stored = (await overrideDoc(tenant.clientId, testId, tenant.student.uid).get()).data()!;
    for (const field of ['opens_at', 'closes_at', 'timer']) assert.ok(!(field in stored), field);
    const [audit] = await auditRecordsFor(tenant.student.uid, 'override_set');
    assert.deepEqual(audit.details.override, { max_attempts: null });
  });

  for (const studentId of ['a/b', '__x__', '__name__']) {
    it(`answers 400 naming params.studentId for ${JSON.stringify(studentId)}, which could name no document`, async () => {
      const { tenant, testId } = await tenantWithTest();
      expectValidation(await putOverride(tenant.admin.token, testId, studentId, { timer: 30 }), ['params.studentId']);
    });
  }
});

describe('DELETE /api/tests/{testId}/overrides/{studentId}', function () {
  this.timeout(60_000);

  it("answers 204 for a student with an attempt in progress, and gives that attempt the test's own timer back", async () => {
    const { tenant, testId } = await tenantWithTest();
    const started = await startOk(tenant.student.token, { test_id: testId });
    assert.equal((await putOverride(tenant.admin.token, testId, tenant.student.uid, { timer: 90 })).status, 200);
    const res = await del(overridePath(testId, tenant.student.uid), as(tenant.admin.token));
    assert.equal(res.status, 204, res.text);
    const attempt = (await attemptDoc(tenant.clientId, started.attempt_id).get()).data()!;
    assert.equal(attempt.expires_at, new Date(Date.parse(attempt.started_at) + 45 * 60_000).toISOString());
    assert.ok(!(await overrideDoc(tenant.clientId, testId, tenant.student.uid).get()).exists);
  });

  for (const studentId of ['a/b', '__x__', '__name__']) {
    it(`answers 404 for ${JSON.stringify(studentId)}, which could name no document (so has no override)`, async () => {
      const { tenant, testId } = await tenantWithTest();
      expectError(await del(overridePath(testId, studentId), as(tenant.admin.token)), 404, 'NOT_FOUND');
    });
  }
});
