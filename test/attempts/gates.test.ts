import assert from 'node:assert/strict';
import { adminAuth } from '../support/admin';
import { expectError } from '../support/assertions';
import { auditRecordsWritten, createTenant, createUser, signInAnonymously } from '../support/fixtures';
import { del, freshIp, get, patch, post } from '../support/http';
import { as, clientDoc } from '../exams/fixtures';
import { attemptDoc, publishTest, startOk, tokenQuery, writeShareCode } from './fixtures';

// Every way into an attempt (bearer token, attempt token, share code) checks
// who and where, over HTTP through the emulators. Organizations are
// deactivated and accounts disabled with the Admin SDK, as an operator would
// in the Firebase console.

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const setActive = (clientId: string, active: 0 | 1) => clientDoc(clientId).update({ active_status: active });
const byToken = (attemptId: string, token: string, tail = '') =>
  `/api/attempts/${attemptId}${tail}${tokenQuery(token)}`;
const answer = (started: any, n = 0) => ({ question_id: started.test_details.questions[n].id, student_answer: 'x' });

/** A tenant with a published test of three questions and a share code for it. */
async function tenantWithTest(): Promise<{ tenant: Tenant; test: any; code: string }> {
  const tenant = await createTenant();
  const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 3 });
  const code = await writeShareCode(tenant.clientId, test.id);
  return { tenant, test, code };
}

describe('Attempts of a deactivated organization', function () {
  this.timeout(60_000);

  it('refuses attempt-token reads, saves and submits with 403 "not active", and serves them again once reactivated', async () => {
    const { tenant, test } = await tenantWithTest();
    const started = await startOk(tenant.student.token, { test_id: test.id });
    const ip = freshIp();
    await setActive(tenant.clientId, 0);
    const read = await get(byToken(started.attempt_id, started.attempt_token), { ip });
    expectError(read, 403, 'FORBIDDEN');
    assert.match(read.body.message, /organization is not active/);
    expectError(
      await post(byToken(started.attempt_id, started.attempt_token, '/answers'), answer(started), { ip }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await post(byToken(started.attempt_id, started.attempt_token, '/submit'), undefined, { ip }),
      403,
      'FORBIDDEN',
    );
    const stored = (await attemptDoc(tenant.clientId, started.attempt_id).get()).data()!;
    assert.deepEqual([stored.status, stored.answers], ['in_progress', {}], 'nothing was written');

    await setActive(tenant.clientId, 1);
    assert.equal((await get(byToken(started.attempt_id, started.attempt_token), { ip })).status, 200);
    assert.equal(
      (await post(byToken(started.attempt_id, started.attempt_token, '/answers'), answer(started), { ip })).status,
      200,
    );
    assert.equal(
      (await post(byToken(started.attempt_id, started.attempt_token, '/submit'), undefined, { ip })).status,
      200,
    );
  });

  it('refuses a Guest’s own ID token (no organization claim: the attempt’s counts) on reads, saves and submits with 403, until reactivated', async () => {
    const { tenant, code } = await tenantWithTest();
    const guest = await signInAnonymously();
    const started = await startOk(guest.token, { share_code: code });
    const path = `/api/attempts/${started.attempt_id}`;
    await setActive(tenant.clientId, 0);
    expectError(await get(path, as(guest.token)), 403, 'FORBIDDEN');
    const saved = await post(`${path}/answers`, answer(started), as(guest.token));
    expectError(saved, 403, 'FORBIDDEN');
    assert.match(saved.body.message, /organization is not active/);
    expectError(await post(`${path}/submit`, undefined, as(guest.token)), 403, 'FORBIDDEN');
    await setActive(tenant.clientId, 1);
    assert.equal((await post(`${path}/answers`, answer(started), as(guest.token))).status, 200);
  });

  it('refuses a new Guest start with the organization’s share code with 403 (taking no seat), and takes it again once reactivated', async () => {
    const { tenant, code } = await tenantWithTest();
    const guest = await signInAnonymously();
    await setActive(tenant.clientId, 0);
    const refused = await post('/api/attempts', { share_code: code }, as(guest.token));
    expectError(refused, 403, 'FORBIDDEN');
    assert.match(refused.body.message, /organization is not active/);
    await setActive(tenant.clientId, 1);
    const started = await post('/api/attempts', { share_code: code }, as(guest.token));
    assert.equal(started.status, 201, started.text);
  });

  it('still refuses its Student’s bearer token with 403, as before', async () => {
    const { tenant, test } = await tenantWithTest();
    const started = await startOk(tenant.student.token, { test_id: test.id });
    await setActive(tenant.clientId, 0);
    expectError(
      await post(`/api/attempts/${started.attempt_id}/answers`, answer(started), as(tenant.student.token)),
      403,
      'FORBIDDEN',
    );
  });
});

describe('Attempts whose taker’s account was disabled or deleted', function () {
  this.timeout(60_000);

  // The start read the taker's account, and an instance trusts what it read for 60 s (docs/security.md): an
  // account disabled or deleted through the API is forgotten there at once, which is what these first tests send.
  it('refuses a disabled Student’s attempt token on reads, saves and submits with 401 and records token_rejected "disabled", as its bearer token is refused', async () => {
    const { tenant, test } = await tenantWithTest();
    const student = await createUser('student', tenant.clientId);
    const started = await startOk(student.token, { test_id: test.id });
    const disabled = await patch(`/api/users/${student.uid}`, { disabled: true }, as(tenant.admin.token));
    assert.equal(disabled.status, 200, disabled.text);
    const ip = freshIp();
    expectError(
      await post(`/api/attempts/${started.attempt_id}/answers`, answer(started), as(student.token)),
      401,
      'UNAUTHORIZED',
    );
    const read = await get(byToken(started.attempt_id, started.attempt_token), { ip });
    expectError(read, 401, 'UNAUTHORIZED');
    assert.match(read.body.message, /disabled/);
    expectError(
      await post(byToken(started.attempt_id, started.attempt_token, '/answers'), answer(started), { ip }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await post(byToken(started.attempt_id, started.attempt_token, '/submit'), undefined, { ip }),
      401,
      'UNAUTHORIZED',
    );
    const stored = (await attemptDoc(tenant.clientId, started.attempt_id).get()).data()!;
    assert.deepEqual([stored.status, stored.answers], ['in_progress', {}], 'nothing was written');
    const fromIp = (await auditRecordsWritten(student.uid, 'token_rejected', 4)).filter((r) => r.ip_address === ip);
    assert.deepEqual(
      fromIp.map((r) => r.reason),
      ['disabled', 'disabled', 'disabled'],
    );
  });

  it('refuses a Guest’s attempt token with 401 within 60 s of its account being disabled in Authentication (the console)', async function () {
    this.timeout(120_000);
    const { code } = await tenantWithTest();
    const guest = await signInAnonymously();
    const started = await startOk(guest.token, { share_code: code });
    await adminAuth.updateUser(guest.uid, { disabled: true });
    const disabledAt = Date.now();
    let res = await post(byToken(started.attempt_id, started.attempt_token, '/answers'), answer(started), {
      ip: freshIp(),
    });
    while (res.status === 200 && Date.now() - disabledAt < 65_000) {
      await new Promise((r) => setTimeout(r, 2_000));
      res = await post(byToken(started.attempt_id, started.attempt_token, '/answers'), answer(started), {
        ip: freshIp(),
      });
    }
    expectError(res, 401, 'UNAUTHORIZED');
    assert.ok(
      Date.now() - disabledAt <= 63_000,
      `refused ${Date.now() - disabledAt} ms after the account was disabled`,
    );
  });

  it('refuses the attempt token of a deleted account with 401 and records token_rejected "revoked"', async () => {
    const { tenant, test } = await tenantWithTest();
    const student = await createUser('student', tenant.clientId);
    const started = await startOk(student.token, { test_id: test.id });
    const deleted = await del(`/api/users/${student.uid}`, as(tenant.admin.token));
    assert.equal(deleted.status, 204, deleted.text);
    const res = await post(byToken(started.attempt_id, started.attempt_token, '/answers'), answer(started), {
      ip: freshIp(),
    });
    expectError(res, 401, 'UNAUTHORIZED');
    assert.match(res.body.message, /no longer exists/);
    assert.deepEqual(
      (await auditRecordsWritten(student.uid, 'token_rejected', 1)).map((r) => r.reason),
      ['revoked'],
    );
  });

  it('still opens an enabled taker’s attempt with its token (200)', async () => {
    const { tenant, test } = await tenantWithTest();
    const started = await startOk(tenant.student.token, { test_id: test.id });
    assert.equal(
      (await post(byToken(started.attempt_id, started.attempt_token, '/answers'), answer(started), { ip: freshIp() }))
        .status,
      200,
    );
  });
});

describe('Attempts of an archived test', function () {
  this.timeout(60_000);

  it('refuses saves to an open attempt with 409 naming the archive; reads still work and submit scores the answers saved before', async () => {
    const tenant = await createTenant();
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
    const student = await createUser('student', tenant.clientId);
    const started = await startOk(student.token, { test_id: test.id });
    const first = started.test_details.questions[0];
    assert.equal(
      (
        await post(
          `/api/attempts/${started.attempt_id}/answers`,
          { question_id: first.id, student_answer: '4' },
          as(student.token),
        )
      ).status,
      200,
    );
    assert.equal((await post(`/api/tests/${test.id}/archive`, undefined, as(tenant.admin.token))).status, 200);

    const refused = await post(`/api/attempts/${started.attempt_id}/answers`, answer(started, 1), as(student.token));
    expectError(refused, 409, 'CONFLICT');
    assert.match(refused.body.message, /archived/);
    expectError(
      await post(byToken(started.attempt_id, started.attempt_token, '/answers'), answer(started, 1), { ip: freshIp() }),
      409,
      'CONFLICT',
    );
    const read = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(
      read.body.answers.map((a: any) => a.question_id),
      [first.id],
    );
    const submitted = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
    assert.equal(submitted.status, 200, submitted.text);
    assert.equal(submitted.body.score, 2, 'the answer saved before the archive is scored (2 marks)');
  });

  it('refuses a resume (a second POST /api/attempts) of the archived test with 409', async () => {
    const tenant = await createTenant();
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 1 });
    const student = await createUser('student', tenant.clientId);
    await startOk(student.token, { test_id: test.id });
    assert.equal((await post(`/api/tests/${test.id}/archive`, undefined, as(tenant.admin.token))).status, 200);
    expectError(await post('/api/attempts', { test_id: test.id }, as(student.token)), 409, 'CONFLICT');
  });

  it('leaves other tests’ attempts taking answers (200)', async () => {
    const tenant = await createTenant();
    const [{ test: archived }, { test: kept }] = await Promise.all([
      publishTest(tenant.admin.token, tenant.clientId, { count: 1 }),
      publishTest(tenant.admin.token, tenant.clientId, { count: 1 }),
    ]);
    const started = await startOk(tenant.student.token, { test_id: kept.id });
    assert.equal((await post(`/api/tests/${archived.id}/archive`, undefined, as(tenant.admin.token))).status, 200);
    assert.equal(
      (await post(`/api/attempts/${started.attempt_id}/answers`, answer(started), as(tenant.student.token))).status,
      200,
    );
  });
});

describe('Attempts started with a revoked share code', function () {
  this.timeout(60_000);

  it('refuses the Guest’s saves with 409 naming the revocation; reading and submitting still work; the test’s other attempts keep taking answers', async () => {
    const { tenant, test, code } = await tenantWithTest();
    const otherCode = await writeShareCode(tenant.clientId, test.id);
    const [guest, other] = await Promise.all([signInAnonymously(), signInAnonymously()]);
    const started = await startOk(guest.token, { share_code: code });
    const untouched = await startOk(other.token, { share_code: otherCode });
    const student = await startOk(tenant.student.token, { test_id: test.id });
    assert.equal(
      (await post(byToken(started.attempt_id, started.attempt_token, '/answers'), answer(started), { ip: freshIp() }))
        .status,
      200,
    );

    assert.equal((await del(`/api/tests/${test.id}/share-codes/${code}`, as(tenant.admin.token))).status, 204);
    const refused = await post(byToken(started.attempt_id, started.attempt_token, '/answers'), answer(started, 1), {
      ip: freshIp(),
    });
    expectError(refused, 409, 'CONFLICT');
    assert.match(refused.body.message, /revoked/);
    expectError(
      await post(`/api/attempts/${started.attempt_id}/answers`, answer(started, 1), as(guest.token)),
      409,
      'CONFLICT',
    );
    assert.equal((await get(byToken(started.attempt_id, started.attempt_token), { ip: freshIp() })).status, 200);
    expectError(await post('/api/attempts', { share_code: code }, as(guest.token)), 403, 'FORBIDDEN');

    assert.equal(
      (await post(`/api/attempts/${untouched.attempt_id}/answers`, answer(untouched), as(other.token))).status,
      200,
    );
    assert.equal(
      (await post(`/api/attempts/${student.attempt_id}/answers`, answer(student), as(tenant.student.token))).status,
      200,
    );
    const submitted = await post(byToken(started.attempt_id, started.attempt_token, '/submit'), undefined, {
      ip: freshIp(),
    });
    assert.equal(submitted.status, 200, submitted.text);
    const stored = (await attemptDoc(tenant.clientId, started.attempt_id).get()).data()!;
    assert.deepEqual(
      Object.keys(stored.answers),
      [started.test_details.questions[0].id],
      'the answer saved before the revocation is kept and scored',
    );
  });
});
