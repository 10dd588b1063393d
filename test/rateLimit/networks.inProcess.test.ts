import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { addressBucket } from '../../functions/src/rateLimit/addressBucket';
import { counterKey, currentWindow } from '../../functions/src/rateLimit/window';
import { writeNetworks } from '../../functions/src/networks/store';
import { forgetRegisteredNetworks } from '../../functions/src/networks/registry';
import { adminDb } from '../support/admin';
import { failReads } from '../support/faults';
import { createTenant, createUser, signInAnonymously, type TestUser } from '../support/fixtures';
import { get, post, type ApiResponse, type RequestOptions } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { awayFromWindowEdge } from '../support/windows';
import { publishTest, writeShareCode } from '../attempts/fixtures';

// A school hall: many callers behind one address inside the organization's
// registered network, served in-process with the interface's default limits
// (100 requests, 10 sensitive operations, 10 failed authentications a minute;
// 200 failures for a network address), requests truly overlapping.

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi();
  tenant = await createTenant();
});
after(() => server.close());

/** A registered /48 of the tenant's and one address in it: the hall's. */
async function registeredHall(): Promise<string> {
  const prefix = `2001:db8:${randomBytes(2).toString('hex')}`;
  await writeNetworks(tenant.clientId, [`${prefix}::/48`], 'test');
  forgetRegisteredNetworks(); // as a fresh instance would read them
  return `${prefix}:1::1`;
}

/** An address in no registered network. */
const unregisteredAddress = () => `2001:db8:${randomBytes(2).toString('hex')}:ff::1`;

const from = (ip: string, token?: string): RequestOptions => ({ ip, token, baseUrl: server.baseUrl });
const statusCounts = (responses: ApiResponse[]) => {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
};
const addressCounter = (ip: string) =>
  adminDb.collection('rate_limits').doc(counterKey('ip', addressBucket(ip), currentWindow(Date.now())));

/** A Guest's attempt started from the hall with a share code: its id and token. */
async function guestAttempt(hall: string): Promise<{ attemptId: string; token: string }> {
  const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 1 });
  const code = await writeShareCode(tenant.clientId, test.id);
  const guest = await signInAnonymously();
  const started = await post('/api/attempts', { share_code: code }, from(hall, guest.token));
  assert.equal(started.status, 201, started.text);
  return { attemptId: started.body.attempt_id, token: started.body.attempt_token };
}

const readWith = (ip: string, attemptId: string, token: string) =>
  get(`/api/attempts/${attemptId}`, { ...from(ip), headers: { 'X-Attempt-Token': token } });

async function students(n: number): Promise<TestUser[]> {
  return Promise.all(Array.from({ length: n }, () => createUser('student', tenant.clientId)));
}

describe('Requests with an identity from a registered network', function () {
  this.timeout(180_000);
  let class30: TestUser[];
  before(async () => {
    class30 = await students(30);
  });

  it('are counted against each student: 30 students behind one address make 150 requests in a minute, all answered, and no counter of the address is written', async () => {
    await awayFromWindowEdge(20_000);
    const hall = await registeredHall();
    const responses = await Promise.all(
      class30.flatMap((s) => Array.from({ length: 5 }, () => get('/api/me', from(hall, s.token)))),
    );
    assert.deepEqual(statusCounts(responses), { 200: 150 });
    for (const r of responses) {
      assert.equal(r.headers.get('x-ratelimit-limit'), '100');
      assert.ok(Number(r.headers.get('x-ratelimit-remaining')) >= 95, 'each student has spent only its own requests');
    }
    assert.equal((await addressCounter(hall).get()).exists, false);
  });

  it('are counted against the address as everywhere else when it is in no registered network: the same 150 requests get 50 × 429', async () => {
    await awayFromWindowEdge(20_000);
    const address = unregisteredAddress();
    const responses = await Promise.all(
      class30.flatMap((s) => Array.from({ length: 5 }, () => get('/api/me', from(address, s.token)))),
    );
    assert.deepEqual(statusCounts(responses), { 200: 100, 429: 50 });
  });

  it('count a write (a save, whose token Auth is asked about) against the student too, and no counter of the address', async () => {
    await awayFromWindowEdge(10_000);
    const hall = await registeredHall();
    const [student] = await students(1);
    const { test, questions } = await publishTest(tenant.admin.token, tenant.clientId, { count: 1 });
    const started = await post('/api/attempts', { test_id: test.id }, from(hall, student.token));
    assert.equal(started.status, 201, started.text);
    const saved = await post(
      `/api/attempts/${started.body.attempt_id}/answers`,
      { question_id: questions[0].id, student_answer: 'x' },
      from(hall, student.token),
    );
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.headers.get('x-ratelimit-limit'), '100');
    assert.equal(saved.headers.get('x-ratelimit-remaining'), '98', 'the start and the save, both the student’s');
    assert.equal((await addressCounter(hall).get()).exists, false);
  });

  it('still hold one student to the default rate: of 101 at once exactly one is 429, and the student beside it is answered', async () => {
    await awayFromWindowEdge(20_000);
    const hall = await registeredHall();
    const [busy] = await students(1); // none of its requests spent yet this minute
    const neighbour = class30[0];
    const responses = await Promise.all(Array.from({ length: 101 }, () => get('/api/me', from(hall, busy.token))));
    assert.deepEqual(statusCounts(responses), { 200: 100, 429: 1 });
    assert.equal((await get('/api/me', from(hall, neighbour.token))).status, 200);
  });
});

describe('Refused credentials from a registered network', function () {
  this.timeout(180_000);

  it('ten bad tokens from one student do not lock out the room: the 29 others are answered', async () => {
    await awayFromWindowEdge(20_000);
    const hall = await registeredHall();
    const bad = await Promise.all(Array.from({ length: 10 }, (_, i) => get('/api/me', from(hall, `garbage-${i}`))));
    assert.deepEqual(statusCounts(bad), { 401: 10 });
    const others = await students(29);
    const answered = await Promise.all(others.map((s) => get('/api/me', from(hall, s.token))));
    assert.deepEqual(statusCounts(answered), { 200: 29 });
  });

  it('without an identity are counted against the address: the 101st bad token in a minute is 429, and the students beside it are answered', async () => {
    await awayFromWindowEdge(20_000);
    const hall = await registeredHall();
    const bad = await Promise.all(Array.from({ length: 101 }, (_, i) => get('/api/me', from(hall, `garbage-${i}`))));
    assert.deepEqual(statusCounts(bad), { 401: 100, 429: 1 });
    const [student] = await students(1);
    assert.equal((await get('/api/me', from(hall, student.token))).status, 200);
  });

  it('lock the address out at 200 refused attempt tokens: the 201st is 429, and so is a student with a valid token', async () => {
    await awayFromWindowEdge(30_000);
    const hall = await registeredHall();
    const [student] = await students(1);
    const { attemptId } = await guestAttempt(hall);
    const forged = await Promise.all(Array.from({ length: 200 }, (_, i) => readWith(hall, attemptId, `forged-${i}`)));
    assert.deepEqual(statusCounts(forged), { 403: 200 });
    const locked = await readWith(hall, attemptId, 'forged-one-more');
    assert.equal(locked.status, 429, locked.text);
    assert.match(locked.body.message, /failed authentications from this address/);
    assert.equal((await get('/api/me', from(hall, student.token))).status, 429);
  });

  it('a signed-in caller’s refused codes lock out only that caller: ten wrong share codes at once are 404, then that Guest is 429 and the student beside it is answered', async () => {
    await awayFromWindowEdge(20_000);
    const hall = await registeredHall();
    const guest = await signInAnonymously();
    const [neighbour] = await students(1);
    const wrong = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post('/api/attempts', { share_code: `NOPE${i}ZZZZ` }, from(hall, guest.token)),
      ),
    );
    assert.deepEqual(statusCounts(wrong), { 404: 10 });
    const lockedOut = await get('/api/me', from(hall, guest.token));
    assert.equal(lockedOut.status, 429, lockedOut.text);
    assert.match(lockedOut.body.message, /refused credentials for this account/);
    assert.equal((await get('/api/me', from(hall, neighbour.token))).status, 200);
  });
});

describe('Attempt-token requests from a registered network', function () {
  this.timeout(180_000);

  it('are counted against their attempt and token: a wrong token for the attempt spends none of its holder’s 100', async () => {
    await awayFromWindowEdge(30_000);
    const hall = await registeredHall();
    const { attemptId, token } = await guestAttempt(hall);
    const forged = await Promise.all(
      Array.from({ length: 60 }, (_, i) => readWith(hall, attemptId, `forged-token-${i}`)),
    );
    assert.deepEqual(statusCounts(forged), { 403: 60 });
    const own = await Promise.all(Array.from({ length: 100 }, () => readWith(hall, attemptId, token)));
    assert.deepEqual(statusCounts(own), { 200: 100 });
    assert.equal((await readWith(hall, attemptId, token)).status, 429, 'the holder’s own 101st is refused');
  });
});

describe('Attempt tokens that open nothing, from a registered network', function () {
  this.timeout(180_000);
  const madeUpAttemptId = (clientId: string = tenant.clientId) =>
    `${clientId}.${randomBytes(16).toString('base64url')}`;
  const addressFailures = async (ip: string) => (await addressCounter(ip).get()).data()?.auth_failures;

  it('a token for an attempt that does not exist counts against the address: 200 at once are 404, the 201st is 429, and so is a student beside them', async () => {
    await awayFromWindowEdge(30_000);
    const hall = await registeredHall();
    const [student] = await students(1);
    const madeUp = await Promise.all(
      Array.from({ length: 200 }, (_, i) => readWith(hall, madeUpAttemptId(), `made-up-${i}`)),
    );
    assert.deepEqual(statusCounts(madeUp), { 404: 200 });
    assert.equal(await addressFailures(hall), 200);
    const locked = await readWith(hall, madeUpAttemptId(), 'made-up-one-more');
    assert.equal(locked.status, 429, locked.text);
    assert.match(locked.body.message, /failed authentications from this address/);
    assert.equal((await get('/api/me', from(hall, student.token))).status, 429);
  });

  it('every way a token can fail to open its attempt counts against the address once: too long, an unknown or another organization’s attempt, a bad body, header and query differing, beside a Guest’s bearer token', async () => {
    await awayFromWindowEdge(30_000);
    const hall = await registeredHall();
    const other = await createTenant();
    const { test } = await publishTest(other.admin.token, other.clientId, { count: 1 });
    const othersGuest = await signInAnonymously();
    const othersAttempt = await post(
      '/api/attempts',
      { share_code: await writeShareCode(other.clientId, test.id) },
      { token: othersGuest.token, baseUrl: server.baseUrl, ip: unregisteredAddress() },
    );
    assert.equal(othersAttempt.status, 201, othersAttempt.text);
    const guest = await signInAnonymously();
    const ten = (send: (i: number) => Promise<ApiResponse>) =>
      Promise.all(Array.from({ length: 10 }, (_, i) => send(i)));
    const [tooLong, unknownOrganization, notAnId, othersOrganization, badBody, differing, withBearer] =
      await Promise.all([
        ten(() => readWith(hall, madeUpAttemptId(), 'x'.repeat(129))),
        ten((i) => readWith(hall, madeUpAttemptId('no-such-organization'), `made-up-${i}`)),
        ten((i) => readWith(hall, `not-an-attempt-id-${i}`, `made-up-${i}`)),
        ten((i) => readWith(hall, othersAttempt.body.attempt_id, `made-up-${i}`)),
        ten((i) =>
          post(
            `/api/attempts/${madeUpAttemptId()}/answers`,
            { nonsense: i },
            { ...from(hall), headers: { 'X-Attempt-Token': `made-up-${i}` } },
          ),
        ),
        ten((i) =>
          get(`/api/attempts/${madeUpAttemptId()}?attempt_token=one-${i}`, {
            ...from(hall),
            headers: { 'X-Attempt-Token': `other-${i}` },
          }),
        ),
        ten((i) =>
          get(`/api/attempts/${madeUpAttemptId()}`, {
            ...from(hall, guest.token),
            headers: { 'X-Attempt-Token': `made-up-${i}` },
          }),
        ),
      ]);
    assert.deepEqual(statusCounts(tooLong), { 400: 10 });
    assert.deepEqual(statusCounts(unknownOrganization), { 404: 10 });
    assert.deepEqual(statusCounts(notAnId), { 404: 10 });
    assert.deepEqual(statusCounts(othersOrganization), { 403: 10 });
    assert.deepEqual(statusCounts(badBody), { 400: 10 });
    assert.deepEqual(statusCounts(differing), { 400: 10 });
    assert.deepEqual(statusCounts(withBearer), { 404: 10 });
    assert.equal(await addressFailures(hall), 70);
  });
});

describe('Refused access codes from a registered network', function () {
  this.timeout(240_000);
  const CODE = 'Hall 7 code';

  it('count toward the address whoever sends them: 22 fresh Guests × 10 wrong codes at once are 200 × 403 and 20 × 429, then a fresh Guest with the right code is 429', async () => {
    await awayFromWindowEdge(40_000);
    const hall = await registeredHall();
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 1, extra: { access_code: CODE } });
    const code = await writeShareCode(tenant.clientId, test.id);
    const guests = await Promise.all(Array.from({ length: 23 }, () => signInAnonymously()));
    const fresh = guests.pop()!;
    const guesses = await Promise.all(
      guests.flatMap((g) =>
        Array.from({ length: 10 }, (_, i) =>
          post('/api/attempts', { share_code: code, access_code: `wrong ${i}` }, from(hall, g.token)),
        ),
      ),
    );
    assert.deepEqual(statusCounts(guesses), { 403: 200, 429: 20 });
    const started = await post('/api/attempts', { share_code: code, access_code: CODE }, from(hall, fresh.token));
    assert.equal(started.status, 429, started.text);
    assert.match(started.body.message, /failed authentications from this address/);
  });

  it('leave a room of honest students alone: 50 students each mistyping the code once are 403, and then all 50 start with the right code', async () => {
    await awayFromWindowEdge(40_000);
    const hall = await registeredHall();
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 1, extra: { access_code: CODE } });
    const room = await students(50);
    const mistyped = await Promise.all(
      room.map((s) => post('/api/attempts', { test_id: test.id, access_code: 'Hall 7 cod' }, from(hall, s.token))),
    );
    assert.deepEqual(statusCounts(mistyped), { 403: 50 });
    const started = await Promise.all(
      room.map((s) => post('/api/attempts', { test_id: test.id, access_code: CODE }, from(hall, s.token))),
    );
    assert.deepEqual(statusCounts(started), { 201: 50 });
  });
});

describe('Registered networks that cannot be read', function () {
  this.timeout(120_000);

  it('leave requests counted against their address, as if none were registered, with a warning; once readable, identities count again', async () => {
    await awayFromWindowEdge(20_000);
    const hall = await registeredHall();
    const class11 = await students(11);
    forgetRegisteredNetworks();
    const heal = failReads(/^networks$/);
    let responses: ApiResponse[];
    try {
      responses = await Promise.all(
        class11.flatMap((s, i) => Array.from({ length: i === 0 ? 1 : 10 }, () => get('/api/me', from(hall, s.token)))),
      );
    } finally {
      heal();
    }
    assert.deepEqual(statusCounts(responses), { 200: 100, 429: 1 });
    assert.ok(server.logs.some((e) => e.severity === 'WARNING' && /Registered networks unreadable/.test(e.message)));
    forgetRegisteredNetworks();
    const [fresh] = await students(1);
    const again = await get('/api/me', from(hall, fresh.token));
    assert.equal(again.status, 200, again.text);
    assert.equal(again.headers.get('x-ratelimit-remaining'), '99', 'counted against the student again');
  });
});
