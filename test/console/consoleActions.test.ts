import assert from 'node:assert/strict';
import { adminAuth, adminDb } from '../support/admin';
import { expectError } from '../support/assertions';
import { auditRecordsFor, createSuperAdmin, createTenant, signIn, waitPastAuthTime } from '../support/fixtures';
import { del, get, patch, post, type ApiResponse } from '../support/http';
import { as, clientDoc, testDoc, writeQuestion } from '../exams/fixtures';
import { attemptDoc, publishTest, startOk } from '../attempts/fixtures';

// What the service does when an admin changes data in the Firebase console
// instead of through the API (docs/console.md). Each change is made here with
// the Admin SDK, as the console makes it; the reaction is read over HTTP through
// the Hosting emulator. Under the Auth emulator firebase-admin checks revocation
// and disabled accounts on reads too, so a student keeping its reads until its
// token expires shows only in production and is not asserted here.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function expectOk(res: ApiResponse, status = 200): void {
  assert.equal(res.status, status, res.text);
}

function expectRefusedToken(res: ApiResponse, reason: RegExp): void {
  expectError(res, 401, 'UNAUTHORIZED');
  assert.match(res.body.message, reason);
}

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** A published test of the tenant with two questions, made through the API. */
const publishedTestOf = async (tenant: Tenant, extra: Record<string, unknown> = {}) =>
  (await publishTest(tenant.admin.token, tenant.clientId, { count: 2, extra })).test;

async function submitAsStudent(token: string, testId: string): Promise<string> {
  const started = await startOk(token, { test_id: testId });
  expectOk(await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(token)));
  return started.attempt_id;
}

describe("Console: set a client's active_status to 0", () => {
  it('refuses its Client Admin and Student with 403 on their very next request, and serves them again once it is set back to 1', async () => {
    const tenant = await createTenant();
    expectOk(await get('/api/users', as(tenant.admin.token)));
    expectOk(await get(`/api/clients/${tenant.clientId}`, as(tenant.student.token)));

    await clientDoc(tenant.clientId).update({ active_status: 0 });
    const adminRead = await get('/api/users', as(tenant.admin.token));
    expectError(adminRead, 403, 'FORBIDDEN');
    assert.match(adminRead.body.message, /not active/);
    expectError(
      await patch(`/api/clients/${tenant.clientId}`, { address: '9 Closed Road' }, as(tenant.admin.token)),
      403,
      'FORBIDDEN',
    );
    expectError(await get('/api/tests', as(tenant.student.token)), 403, 'FORBIDDEN');
    expectOk(await get('/api/me', as(tenant.student.token)));

    await clientDoc(tenant.clientId).update({ active_status: 1 });
    expectOk(await get('/api/users', as(tenant.admin.token)));
    expectOk(await get('/api/tests', as(tenant.student.token)));
  });

  it('leaves a Super Admin able to read the inactive organization and reactivate it through the API', async () => {
    const [tenant, superAdmin] = await Promise.all([createTenant(), createSuperAdmin()]);
    await clientDoc(tenant.clientId).update({ active_status: 0 });
    const read = await get(`/api/clients/${tenant.clientId}`, as(superAdmin.token));
    expectOk(read);
    assert.equal(read.body.active_status, 0);
    expectOk(await patch(`/api/clients/${tenant.clientId}`, { active_status: 1 }, as(superAdmin.token)));
    expectOk(await get('/api/users', as(tenant.admin.token)));
  });
});

describe('Console: disable a user in Authentication', () => {
  it('refuses the disabled user’s writes at once with 401 "disabled"', async () => {
    const tenant = await createTenant();
    const test = await publishedTestOf(tenant);
    await Promise.all([
      adminAuth.updateUser(tenant.student.uid, { disabled: true }),
      adminAuth.updateUser(tenant.admin.uid, { disabled: true }),
    ]);
    expectRefusedToken(await post('/api/attempts', { test_id: test.id }, as(tenant.student.token)), /disabled/);
    expectRefusedToken(
      await patch(`/api/clients/${tenant.clientId}`, { address: '4 New Street' }, as(tenant.admin.token)),
      /disabled/,
    );
  });

  it('refuses a disabled Client Admin’s reads within 60 s with 401', async () => {
    const tenant = await createTenant();
    await adminAuth.updateUser(tenant.admin.uid, { disabled: true });
    expectRefusedToken(await get('/api/users', as(tenant.admin.token)), /disabled/);
  });

  it('shows the account disabled in GET /api/users/{uid}, while the list keeps the profile’s "disabled": false', async () => {
    const tenant = await createTenant();
    await adminAuth.updateUser(tenant.student.uid, { disabled: true });
    const one = await get(`/api/users/${tenant.student.uid}`, as(tenant.admin.token));
    expectOk(one);
    assert.equal(one.body.disabled, true);
    const list = await get('/api/users', as(tenant.admin.token));
    expectOk(list);
    assert.equal(list.body.data.find((u: any) => u.uid === tenant.student.uid)?.disabled, false);
    assert.deepEqual(
      await auditRecordsFor(tenant.student.uid, 'user_disabled'),
      [],
      'the console writes no audit record',
    );
  });
});

describe('Console: delete a user in Authentication', () => {
  it('refuses the deleted user’s writes at once and a deleted Client Admin’s reads within 60 s, with 401', async () => {
    const tenant = await createTenant();
    const test = await publishedTestOf(tenant);
    await Promise.all([adminAuth.deleteUser(tenant.student.uid), adminAuth.deleteUser(tenant.admin.uid)]);
    expectRefusedToken(await post('/api/attempts', { test_id: test.id }, as(tenant.student.token)), /revoked/);
    expectRefusedToken(await get('/api/users', as(tenant.admin.token)), /revoked/);
  });

  it('answers 404 for the deleted user, keeps its orphaned profile in GET /api/users, and records no user_deleted', async () => {
    const [tenant, other] = await Promise.all([createTenant(), createTenant()]);
    await adminAuth.deleteUser(tenant.student.uid);
    expectError(await get(`/api/users/${tenant.student.uid}`, as(tenant.admin.token)), 404, 'NOT_FOUND');
    const list = await get('/api/users', as(tenant.admin.token));
    expectOk(list);
    assert.ok(
      list.body.data.some((u: any) => u.uid === tenant.student.uid),
      'the profile document is still listed',
    );
    assert.deepEqual(await auditRecordsFor(tenant.student.uid, 'user_deleted'), []);
    // Through the API instead: the account, its profile and the record go together.
    expectOk(await del(`/api/users/${other.student.uid}`, as(other.admin.token)), 204);
    const after = await get('/api/users', as(other.admin.token));
    expectOk(after);
    assert.ok(!after.body.data.some((u: any) => u.uid === other.student.uid));
    assert.equal((await auditRecordsFor(other.student.uid, 'user_deleted')).length, 1);
  });
});

describe('Console: change custom claims without revoking refresh tokens', () => {
  it('refuses a demoted Client Admin’s reads and writes with 401 within 60 s', async function () {
    this.timeout(120_000);
    const tenant = await createTenant();
    // The service describes the account to itself during this read, and trusts that description for at most 60 s.
    const describedFrom = Date.now();
    expectOk(await get('/api/users', as(tenant.admin.token)));
    await adminAuth.setCustomUserClaims(tenant.admin.uid, { role: 'student', client_id: tenant.clientId });
    let sentAt = Date.now();
    let read = await get('/api/users', as(tenant.admin.token));
    while (read.status === 200) {
      assert.ok(
        sentAt - describedFrom < 60_000,
        `a read sent ${sentAt - describedFrom} ms after the account was described was still served`,
      );
      await sleep(1000);
      sentAt = Date.now();
      read = await get('/api/users', as(tenant.admin.token));
    }
    expectRefusedToken(read, /revoked/);
    expectRefusedToken(
      await patch(`/api/clients/${tenant.clientId}`, { address: '5 New Street' }, as(tenant.admin.token)),
      /revoked/,
    );
  });

  it('keeps serving a Student under its old claims until its ID token is replaced; a new sign-in carries the new ones', async () => {
    const tenant = await createTenant();
    await adminAuth.setCustomUserClaims(tenant.student.uid, {});
    expectOk(await get('/api/tests', as(tenant.student.token)));
    const fresh = await signIn(tenant.student.email, tenant.student.password);
    const refused = await get('/api/tests', as(fresh));
    expectError(refused, 403, 'FORBIDDEN');
    assert.match(refused.body.message, /no role/);
  });
});

describe('Console: revoke refresh tokens', () => {
  it('refuses a Student’s writes at once and a Super Admin’s reads within 60 s, with 401 "revoked"', async () => {
    const [tenant, superAdmin] = await Promise.all([createTenant(), createSuperAdmin()]);
    const test = await publishedTestOf(tenant);
    await Promise.all([waitPastAuthTime(tenant.student.token), waitPastAuthTime(superAdmin.token)]); // revocation is to the second
    await Promise.all([
      adminAuth.revokeRefreshTokens(tenant.student.uid),
      adminAuth.revokeRefreshTokens(superAdmin.uid),
    ]);
    expectRefusedToken(await post('/api/attempts', { test_id: test.id }, as(tenant.student.token)), /revoked/);
    expectRefusedToken(await get('/api/clients', as(superAdmin.token)), /revoked/);
    expectOk(await get('/api/tests', as(await signIn(tenant.student.email, tenant.student.password))));
  });
});

describe('Console: edit a question document', () => {
  it('serves the edit to admins at once, while takers of a published test keep the frozen version', async () => {
    const tenant = await createTenant();
    const question = await writeQuestion(tenant.clientId, {
      question_text: 'What is 3 + 3?',
      options: ['5', '6'],
      correct_answer: '6',
    });
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { questions: [question] });
    await clientDoc(tenant.clientId)
      .collection('questions')
      .doc(question.id)
      .update({ question_text: 'What is 3 + 4?', options: ['6', '7'], correct_answer: '7' });

    const read = await get(`/api/questions/${question.id}`, as(tenant.admin.token));
    expectOk(read);
    assert.equal(read.body.question_text, 'What is 3 + 4?');
    const attempt = await startOk(tenant.student.token, { test_id: test.id });
    assert.deepEqual(
      attempt.test_details.questions.map((q: any) => [q.question_text, q.options]),
      [['What is 3 + 3?', ['5', '6']]],
    );
  });
});

describe('Console: edit a test document', () => {
  it('shows an edited name and timer on the test, while new attempts keep the frozen version’s', async () => {
    const tenant = await createTenant();
    const test = await publishedTestOf(tenant, { timer: 45 });
    await testDoc(tenant.clientId, test.id).update({ test_name: 'Renamed in the console', timer: 5 });

    const read = await get(`/api/tests/${test.id}`, as(tenant.admin.token));
    expectOk(read);
    assert.equal(read.body.test_name, 'Renamed in the console');
    assert.equal(read.body.timer, 5);
    const attempt = await startOk(tenant.student.token, { test_id: test.id });
    assert.equal(attempt.test_details.test_name, test.test_name);
    assert.equal(attempt.test_details.timer, 45);
    assert.equal(Date.parse(attempt.expires_at) - Date.parse(attempt.started_at), 45 * 60_000);
  });
});

describe('Console: delete an attempt', () => {
  it('answers 404 for it at once, drops it from the student’s analytics, and keeps it in the test’s analytics until the repair', async () => {
    const tenant = await createTenant();
    const test = await publishedTestOf(tenant);
    const attemptId = await submitAsStudent(tenant.student.token, test.id);
    const before = await get(`/api/analytics/tests/${test.id}`, as(tenant.admin.token));
    expectOk(before);
    assert.equal(before.body.completed, 1);

    await attemptDoc(tenant.clientId, attemptId).delete();
    expectError(await get(`/api/attempts/${attemptId}`, as(tenant.student.token)), 404, 'NOT_FOUND');
    const student = await get(`/api/analytics/students/${tenant.student.uid}`, as(tenant.admin.token));
    expectOk(student);
    assert.equal(student.body.completed, 0);
    const stale = await get(`/api/analytics/tests/${test.id}`, as(tenant.admin.token));
    expectOk(stale);
    assert.equal(stale.body.completed, 1, 'the running sums still hold it');

    const repair = await post(`/api/analytics/tests/${test.id}/recompute`, undefined, as(tenant.admin.token));
    expectOk(repair);
    assert.equal(repair.body.changed, true);
    assert.equal(repair.body.attempts_read, 0);
    assert.equal(repair.body.analytics.completed, 0);
  });

  it('still counts a deleted attempt against max_attempts', async () => {
    const tenant = await createTenant();
    const test = await publishedTestOf(tenant, { max_attempts: 1 });
    const attemptId = await submitAsStudent(tenant.student.token, test.id);
    await attemptDoc(tenant.clientId, attemptId).delete();
    const again = await post('/api/attempts', { test_id: test.id }, as(tenant.student.token));
    expectError(again, 409, 'CONFLICT');
    assert.match(again.body.message, /attempts allowed/);
  });

  it('lets the student start afresh (201, a new attempt) when the attempt deleted was still in progress', async () => {
    const tenant = await createTenant();
    const test = await publishedTestOf(tenant);
    const running = await startOk(tenant.student.token, { test_id: test.id });
    await attemptDoc(tenant.clientId, running.attempt_id).delete();
    const again = await post('/api/attempts', { test_id: test.id }, as(tenant.student.token));
    expectOk(again, 201);
    assert.notEqual(again.body.attempt_id, running.attempt_id);
    assert.equal(again.body.resumed, false);
    expectOk(await post(`/api/attempts/${again.body.attempt_id}/submit`, undefined, as(tenant.student.token)));
  });
});

describe('Console: revoke a share code by setting revoked: true', () => {
  it('lists the code as revoked at once', async () => {
    const tenant = await createTenant();
    const test = await publishedTestOf(tenant);
    const issued = await post(`/api/tests/${test.id}/share-codes`, { max_uses: 10 }, as(tenant.admin.token));
    expectOk(issued, 201);
    await adminDb
      .collection('share_codes')
      .doc(issued.body.code)
      .update({ revoked: true, revoked_at: new Date().toISOString() });
    const list = await get(`/api/tests/${test.id}/share-codes`, as(tenant.admin.token));
    expectOk(list);
    assert.equal(list.body.data.find((c: any) => c.code === issued.body.code)?.revoked, true);
  });
});
