import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { forgetRegisteredNetworks } from '../../functions/src/networks/registry';
import { writeNetworks } from '../../functions/src/networks/store';
import { expectError } from '../support/assertions';
import { duringFault, failReads } from '../support/faults';
import { createTenant, createUser, signInAnonymously, type TestUser } from '../support/fixtures';
import { get, patch, post, type ApiResponse, type RequestOptions } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { attemptDoc, publishTest, writeShareCode } from '../attempts/fixtures';

// on_site_only: a sitting in the hall. Starting, answering (one answer or a
// batch) and submitting come only from the organization's registered networks,
// whichever way the caller comes in (ID token, attempt token, share code);
// reading does not. Served in-process, so that the networks written here are
// read at once (forgetRegisteredNetworks), as a fresh instance would read them;
// the caller's address is what the trusted front end appends to X-Forwarded-For.

const ONLY_ON_SITE = 'This test can be taken only on site';

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;
let hallNetwork: string;
let onSiteTest: { test: any; questions: Array<{ id: string }> };

/** An address in the hall's registered /24, and one in no registered network. */
const inHall = () => `${hallNetwork}.${randomInt(1, 255)}`;
const offSite = () => `192.0.2.${randomInt(1, 255)}`;

const from = (ip: string, token?: string): RequestOptions => ({ ip, token, baseUrl: server.baseUrl });
const offSiteRefusal = (res: ApiResponse) => {
  expectError(res, 403, 'FORBIDDEN');
  assert.equal(res.body.message, ONLY_ON_SITE);
};

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
  // A /24 of the benchmarking range, of this run only, so no other test's caller is inside it.
  hallNetwork = `198.18.${randomInt(0, 256)}`;
  await writeNetworks(tenant.clientId, [`${hallNetwork}.0/24`], 'test');
  forgetRegisteredNetworks();
  onSiteTest = await publishTest(tenant.admin.token, tenant.clientId, { count: 3, extra: { on_site_only: 1 } });
});
after(() => server.close());

async function startedOnSite(student?: TestUser) {
  const taker = student ?? (await createUser('student', tenant.clientId));
  const res = await post('/api/attempts', { test_id: onSiteTest.test.id }, from(inHall(), taker.token));
  assert.equal(res.status, 201, res.text);
  return {
    taker,
    id: res.body.attempt_id as string,
    token: res.body.attempt_token as string,
    q: res.body.test_details.questions.map((q: any) => q.id) as string[],
  };
}

const storedAnswers = async (id: string) => (await attemptDoc(tenant.clientId, id).get()).get('answers');

describe('on_site_only 1', function () {
  this.timeout(60_000);

  it('shows on_site_only in the test’s replies', () => assert.equal(onSiteTest.test.on_site_only, 1));

  it('refuses starting from outside the organization’s networks (403, nothing started); starts from inside, the attempt keeping on_site_only 1', async () => {
    const student = await createUser('student', tenant.clientId);
    offSiteRefusal(await post('/api/attempts', { test_id: onSiteTest.test.id }, from(offSite(), student.token)));
    const none = await attemptDoc(tenant.clientId, 'x').parent.where('student_id', '==', student.uid).get();
    assert.equal(none.size, 0);
    const { id } = await startedOnSite(student);
    assert.equal((await attemptDoc(tenant.clientId, id).get()).get('on_site_only'), 1);
    // Resuming is starting: refused off site too, taken in the hall.
    offSiteRefusal(await post('/api/attempts', { test_id: onSiteTest.test.id }, from(offSite(), student.token)));
    const resumed = await post('/api/attempts', { test_id: onSiteTest.test.id }, from(inHall(), student.token));
    assert.equal(resumed.status, 200, resumed.text);
    assert.equal(resumed.body.resumed, true);
  });

  it('refuses a Guest redeeming a share code from outside, and lets it in from the hall', async () => {
    const code = await writeShareCode(tenant.clientId, onSiteTest.test.id);
    const guest = await signInAnonymously();
    offSiteRefusal(await post('/api/attempts', { share_code: code }, from(offSite(), guest.token)));
    assert.equal((await post('/api/attempts', { share_code: code }, from(inHall(), guest.token))).status, 201);
  });

  it('refuses answering from outside, one answer and a batch, saving nothing; takes both from the hall', async () => {
    const a = await startedOnSite();
    const path = `/api/attempts/${a.id}/answers`;
    offSiteRefusal(await post(path, { question_id: a.q[0], student_answer: 'x' }, from(offSite(), a.taker.token)));
    offSiteRefusal(
      await post(
        path,
        {
          answers: [
            { question_id: a.q[0], student_answer: 'x', client_seq: 1 },
            { question_id: a.q[1], student_answer: 'y' },
          ],
        },
        from(offSite(), a.taker.token),
      ),
    );
    assert.deepEqual(await storedAnswers(a.id), {});
    assert.equal(
      (await post(path, { question_id: a.q[0], student_answer: 'x' }, from(inHall(), a.taker.token))).status,
      200,
    );
    const batch = await post(
      path,
      { answers: [{ question_id: a.q[1], student_answer: 'y', client_seq: 1 }] },
      from(inHall(), a.taker.token),
    );
    assert.equal(batch.status, 200, batch.text);
    assert.deepEqual(Object.keys(await storedAnswers(a.id)).sort(), [a.q[0], a.q[1]].sort());
  });

  it('binds the attempt token as well, in the query and in X-Attempt-Token', async () => {
    const a = await startedOnSite();
    const path = `/api/attempts/${a.id}/answers`;
    const body = { answers: [{ question_id: a.q[0], student_answer: 'by token' }] };
    offSiteRefusal(await post(`${path}?attempt_token=${encodeURIComponent(a.token)}`, body, from(offSite())));
    offSiteRefusal(await post(path, body, { ...from(offSite()), headers: { 'X-Attempt-Token': a.token } }));
    offSiteRefusal(
      await post(`/api/attempts/${a.id}/submit`, undefined, {
        ...from(offSite()),
        headers: { 'X-Attempt-Token': a.token },
      }),
    );
    assert.equal((await post(path, body, { ...from(inHall()), headers: { 'X-Attempt-Token': a.token } })).status, 200);
    assert.equal(
      (
        await post(`/api/attempts/${a.id}/submit`, undefined, {
          ...from(inHall()),
          headers: { 'X-Attempt-Token': a.token },
        })
      ).status,
      200,
    );
  });

  it('refuses submitting from outside (the attempt stays in progress), an administrator’s too; submits from the hall', async () => {
    const a = await startedOnSite();
    offSiteRefusal(await post(`/api/attempts/${a.id}/submit`, undefined, from(offSite(), a.taker.token)));
    offSiteRefusal(await post(`/api/attempts/${a.id}/submit`, undefined, from(offSite(), tenant.admin.token)));
    assert.equal((await attemptDoc(tenant.clientId, a.id).get()).get('status'), 'in_progress');
    const submitted = await post(`/api/attempts/${a.id}/submit`, undefined, from(inHall(), a.taker.token));
    assert.equal(submitted.status, 200, submitted.text);
  });

  it('does not bind reading: the taker reads its attempt, the administrator the attempt, its list and the test’s analytics, from anywhere', async () => {
    const a = await startedOnSite();
    assert.equal((await post(`/api/attempts/${a.id}/submit`, undefined, from(inHall(), a.taker.token))).status, 200);
    assert.equal((await get(`/api/attempts/${a.id}`, from(offSite(), a.taker.token))).status, 200);
    const asAdmin = await get(`/api/attempts/${a.id}`, from(offSite(), tenant.admin.token));
    assert.equal(asAdmin.status, 200, asAdmin.text);
    assert.ok(Array.isArray(asAdmin.body.review), 'the administrator sees the results');
    assert.equal(
      (await get(`/api/attempts?test_id=${onSiteTest.test.id}`, from(offSite(), tenant.admin.token))).status,
      200,
    );
    const analytics = await get(`/api/analytics/tests/${onSiteTest.test.id}`, from(offSite(), tenant.admin.token));
    assert.equal(analytics.status, 200, analytics.text);
  });

  it('fails closed: with the networks unreadable on this instance, an on-site-only save is 503; a sitting not on site only is not asked', async () => {
    const a = await startedOnSite();
    const { test: anywhere } = await publishTest(tenant.admin.token, tenant.clientId, { count: 1 });
    const other = await post('/api/attempts', { test_id: anywhere.id }, from(offSite(), a.taker.token));
    assert.equal(other.status, 201, other.text);
    forgetRegisteredNetworks();
    const { result } = await duringFault(
      () => failReads(/(^|\/)networks$/),
      async () => ({
        onSite: await post(
          `/api/attempts/${a.id}/answers`,
          { question_id: a.q[0], student_answer: 'x' },
          from(inHall(), a.taker.token),
        ),
        anywhere: await post(
          `/api/attempts/${other.body.attempt_id}/answers`,
          { question_id: other.body.test_details.questions[0].id, student_answer: 'x' },
          from(offSite(), a.taker.token),
        ),
      }),
    );
    expectError(result.onSite, 503, 'SERVICE_UNAVAILABLE');
    assert.equal(result.anywhere.status, 200, result.anywhere.text);
    forgetRegisteredNetworks();
    assert.equal(
      (
        await post(
          `/api/attempts/${a.id}/answers`,
          { question_id: a.q[0], student_answer: 'x' },
          from(inHall(), a.taker.token),
        )
      ).status,
      200,
    );
  });
});

describe('on_site_only changed on a running sitting', function () {
  this.timeout(60_000);

  it('reaches attempts started, or resumed, after the change; an attempt keeps the setting it started with until then', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
    assert.equal(test.on_site_only, 0);
    const student = await createUser('student', tenant.clientId);
    const started = await post('/api/attempts', { test_id: test.id }, from(offSite(), student.token));
    assert.equal(started.status, 201, started.text);
    const id = started.body.attempt_id;
    const q = started.body.test_details.questions[0].id;
    const save = (ip: string) =>
      post(`/api/attempts/${id}/answers`, { question_id: q, student_answer: 'x' }, from(ip, student.token));

    const on = await patch(`/api/tests/${test.id}`, { on_site_only: 1 }, from(offSite(), tenant.admin.token));
    assert.equal(on.status, 200, on.text);
    assert.equal(on.body.on_site_only, 1);
    assert.equal((await save(offSite())).status, 200, 'started before the change: not bound yet');
    offSiteRefusal(await post('/api/attempts', { test_id: test.id }, from(offSite(), student.token)));
    assert.equal(
      (await post('/api/attempts', { test_id: test.id }, from(inHall(), student.token))).status,
      200,
      'resumed in the hall',
    );
    offSiteRefusal(await save(offSite()));

    assert.equal(
      (await patch(`/api/tests/${test.id}`, { on_site_only: 0 }, from(offSite(), tenant.admin.token))).status,
      200,
    );
    offSiteRefusal(await save(offSite()));
    assert.equal(
      (await post('/api/attempts', { test_id: test.id }, from(offSite(), student.token))).status,
      200,
      'resumed from anywhere',
    );
    assert.equal((await save(offSite())).status, 200);
  });
});
