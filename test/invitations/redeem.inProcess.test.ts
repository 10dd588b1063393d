import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { adminDb } from '../support/admin';
import { authInternalError, failWrites, replaceAuth } from '../support/faults';
import { createTenant, createUser, signIn } from '../support/fixtures';
import { api, freshIp, type ApiResponse } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';

// One link redeemed by many at once, and redemptions while Firestore or Auth fail: the real app
// served in-process against the emulators, so the requests truly overlap and the faults are the
// service's own clients'. The guard is the hold taken in a transaction (invitations/service.ts):
// without it (the state check in redeemInvitation's first transaction removed) several succeed.

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;
let adminToken: string;

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
  adminToken = (await createUser('client_admin', tenant.clientId)).token;
});
after(() => server.close());

const call = (method: string, path: string, body?: unknown, token?: string): Promise<ApiResponse> =>
  api(method, path, { token, body, ip: freshIp(), baseUrl: server.baseUrl });

async function invited() {
  const email = `race-${randomUUID().slice(0, 12)}@invitations.example`;
  const res = await call('POST', '/api/users', { email, display_name: 'Race', role: 'student' }, adminToken);
  assert.equal(res.status, 201, res.text);
  return { uid: res.body.uid as string, email, token: new URL(res.body.invitation_link).hash.slice('#token='.length) };
}

/** What `read` answers once it equals `expected`, or its last answer after 15 s (the hold is given back beside the 503). */
async function eventually<T>(read: () => Promise<T>, expected: T): Promise<T> {
  let last = await read();
  for (let i = 0; i < 30 && JSON.stringify(last) !== JSON.stringify(expected); i++) {
    await new Promise((r) => setTimeout(r, 500));
    last = await read();
  }
  return last;
}

const stateOf = async (uid: string) =>
  (await adminDb.collection('invitations').where('uid', '==', uid).get()).docs.map((d) => d.get('status'));

describe('POST /api/invitations/redeem under contention and faults', function () {
  this.timeout(120_000);

  it('50 redemptions of one link at once: exactly one 200, the others 409, one password set, one record', async () => {
    const student = await invited();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call('POST', '/api/invitations/redeem', { token: student.token, password: `password-number-${i}` }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    assert.equal(ok.length, 1, answers.map((a) => a.status).join(','));
    // The others are refused: 409 (used, or held by the winner), or 503 when a loaded emulator gave up a lock wait (nothing written).
    for (const a of answers.filter((x) => x.status !== 200)) assert.ok([409, 503].includes(a.status), a.text);
    assert.deepEqual(await stateOf(student.uid), ['used']);
    const winner = answers.indexOf(ok[0]);
    assert.ok(await signIn(student.email, `password-number-${winner}`), 'the winner’s password is the one set');
    const records = await adminDb
      .collection('audit_logs')
      .where('user_id', '==', student.uid)
      .where('event_type', '==', 'invitation_redeemed')
      .get();
    assert.equal(records.size, 1);
  });

  it('Firestore refusing the final write: 503, the link still good, and the retry succeeds', async () => {
    const student = await invited();
    // The hold commits; the write that marks it used (the only one touching the user's holder) fails; the hold is given back.
    const heal = failWrites(/invitation_holders\//);
    let res: ApiResponse;
    try {
      res = await call('POST', '/api/invitations/redeem', { token: student.token, password: 'first-try-password' });
    } finally {
      heal();
    }
    assert.equal(res.status, 503, res.text);
    assert.deepEqual(await eventually(() => stateOf(student.uid), ['live']), ['live']);
    const retry = await call('POST', '/api/invitations/redeem', {
      token: student.token,
      password: 'second-try-password',
    });
    assert.equal(retry.status, 200, retry.text);
    assert.ok(await signIn(student.email, 'second-try-password'));
  });

  it('Auth failing to set the password: 503, nothing used, the link still good', async () => {
    const student = await invited();
    const heal = replaceAuth('updateUser', () => () => Promise.reject(authInternalError()));
    let res: ApiResponse;
    try {
      res = await call('POST', '/api/invitations/redeem', { token: student.token, password: 'a-good-password' });
    } finally {
      heal();
    }
    assert.equal(res.status, 503, res.text);
    assert.deepEqual(await eventually(() => stateOf(student.uid), ['live']), ['live']);
    const preview = await call('POST', '/api/invitations/preview', { token: student.token });
    assert.equal(preview.status, 200, preview.text);
  });
});
