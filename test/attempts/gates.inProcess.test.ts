import assert from 'node:assert/strict';
import { claimsFor } from '../../functions/src/auth/claims';
import { forgetAccountFacts } from '../../functions/src/http/authenticate';
import { adminAuth } from '../support/admin';
import { expectError } from '../support/assertions';
import { authInternalError, duringFault, failReads, failWrites, replaceAuth } from '../support/faults';
import { auditRecordsWritten, createTenant, signInAnonymously } from '../support/fixtures';
import { api, freshIp, type RequestOptions } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { attemptDoc, publishTest, seatsUsed, writeShareCode } from './fixtures';

// The checks every way into an attempt makes, with Firestore or Auth failing
// underneath them (the app served in-process, against the real emulators),
// and the staleness the taker's account check allows.

let server: InProcessApi;
before(async () => {
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
});
after(() => server.close());

const at = (token?: string): RequestOptions => ({ token, ip: freshIp(), baseUrl: server.baseUrl });
const call = (method: string, path: string, options: RequestOptions) =>
  api(method, path, { ...options, baseUrl: server.baseUrl });
const tokenPath = (started: any, tail = '') =>
  `/api/attempts/${started.attempt_id}${tail}?attempt_token=${encodeURIComponent(started.attempt_token)}`;
const answer = (started: any) => ({ question_id: started.test_details.questions[0].id, student_answer: 'x' });

async function startedByStudent() {
  const tenant = await createTenant();
  const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
  const res = await call('POST', '/api/attempts', { ...at(tenant.student.token), body: { test_id: test.id } });
  assert.equal(res.status, 201, res.text);
  return { tenant, test, started: res.body };
}

describe('Attempts: a backend failing during the who-and-where checks is 503', function () {
  this.timeout(60_000);

  it('answers 503 (never 401/403/500) when the organization cannot be read on attempt-token reads, saves and submits, and writes nothing', async () => {
    const { tenant, started } = await startedByStudent();
    const outcome = await duringFault(
      () => failReads(new RegExp(`^clients/${tenant.clientId}$`)),
      async () => [
        await call('GET', tokenPath(started), at()),
        await call('POST', tokenPath(started, '/answers'), { ...at(), body: answer(started) }),
        await call('POST', tokenPath(started, '/submit'), at()),
      ],
    );
    for (const res of outcome.result) expectError(res, 503, 'SERVICE_UNAVAILABLE');
    const stored = (await attemptDoc(tenant.clientId, started.attempt_id).get()).data()!;
    assert.deepEqual([stored.status, stored.answers], ['in_progress', {}]);
  });

  it('answers 503 when Auth cannot describe the taker’s account on an attempt-token save, and writes nothing', async () => {
    const { tenant, started } = await startedByStudent();
    forgetAccountFacts();
    const failGetUser = () =>
      replaceAuth('getUser', () => async () => {
        throw authInternalError();
      });
    const { result } = await duringFault(failGetUser, () =>
      call('POST', tokenPath(started, '/answers'), { ...at(), body: answer(started) }),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    assert.deepEqual((await attemptDoc(tenant.clientId, started.attempt_id).get()).get('answers'), {});
  });

  it('answers 503 when the share code’s organization cannot be read on a Guest start, and takes no seat', async () => {
    const tenant = await createTenant();
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 1 });
    const code = await writeShareCode(tenant.clientId, test.id);
    const guest = await signInAnonymously();
    const { result } = await duringFault(
      () => failReads(new RegExp(`^clients/${tenant.clientId}$`)),
      () => call('POST', '/api/attempts', { ...at(guest.token), body: { share_code: code } }),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    assert.equal(await seatsUsed(code), 0);
  });

  it('answers 503 when the open attempts cannot be stopped after an archive; archiving again (409) finishes the stop', async () => {
    const { tenant, test, started } = await startedByStudent();
    const { result } = await duringFault(
      () => failWrites(new RegExp(`^clients/${tenant.clientId}/attempts/`)),
      () => call('POST', `/api/tests/${test.id}/archive`, at(tenant.admin.token)),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    expectError(await call('POST', `/api/tests/${test.id}/archive`, at(tenant.admin.token)), 409, 'CONFLICT');
    expectError(
      await call('POST', tokenPath(started, '/answers'), { ...at(), body: answer(started) }),
      409,
      'CONFLICT',
    );
  });
});

describe('Attempts: a disabled taker’s attempt token is refused within the 60 s account staleness', function () {
  this.timeout(60_000);

  it('serves it from an account description taken before the disable, and refuses it (401) once the account is described again', async () => {
    forgetAccountFacts();
    const { started, tenant } = await startedByStudent();
    assert.equal((await call('POST', tokenPath(started, '/answers'), { ...at(), body: answer(started) })).status, 200);
    await adminAuth.updateUser(tenant.student.uid, { disabled: true });
    assert.equal(
      (await call('GET', tokenPath(started), at())).status,
      200,
      'within ACCOUNT_RECHECK_MS the description in hand stands',
    );
    forgetAccountFacts(); // as after ACCOUNT_RECHECK_MS (60 s)
    const res = await call('POST', tokenPath(started, '/submit'), at());
    expectError(res, 401, 'UNAUTHORIZED');
    assert.match(res.body.message, /disabled/);
  });
});

describe('Attempts: a token an administrator received by starting for a student speaks for it only while it administers the attempt’s organization', function () {
  this.timeout(60_000);

  async function startedByAdmin() {
    const tenant = await createTenant();
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
    const res = await call('POST', '/api/attempts', {
      ...at(tenant.admin.token),
      body: { test_id: test.id, student_id: tenant.student.uid },
    });
    assert.equal(res.status, 201, res.text);
    return { tenant, started: res.body };
  }

  it('refuses it (401, token_rejected "revoked") once the Client Admin’s account is another organization’s administrator, and writes nothing', async () => {
    const { tenant, started } = await startedByAdmin();
    const other = await createTenant();
    // As edited in the console: the same role, in another organization (its own ID token is refused the same way).
    await adminAuth.setCustomUserClaims(tenant.admin.uid, claimsFor('client_admin', other.clientId));
    forgetAccountFacts(); // as after ACCOUNT_RECHECK_MS (60 s)
    expectError(
      await call('POST', tokenPath(started, '/answers'), { ...at(), body: answer(started) }),
      401,
      'UNAUTHORIZED',
    );
    expectError(await call('POST', tokenPath(started, '/submit'), at()), 401, 'UNAUTHORIZED');
    const stored = (await attemptDoc(tenant.clientId, started.attempt_id).get()).data()!;
    assert.deepEqual([stored.status, stored.answers, stored.submitted_by], ['in_progress', {}, null]);
    const rejected = await auditRecordsWritten(tenant.admin.uid, 'token_rejected', 2);
    assert.deepEqual(
      rejected.map((r) => r.reason),
      ['revoked', 'revoked'],
    );
  });

  it('refuses it (401) once the Client Admin is made a student of the same organization', async () => {
    const { tenant, started } = await startedByAdmin();
    await adminAuth.setCustomUserClaims(tenant.admin.uid, claimsFor('student', tenant.clientId));
    forgetAccountFacts();
    expectError(await call('POST', tokenPath(started, '/submit'), at()), 401, 'UNAUTHORIZED');
    assert.equal((await attemptDoc(tenant.clientId, started.attempt_id).get()).get('status'), 'in_progress');
  });
});
