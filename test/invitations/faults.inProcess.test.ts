import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { adminDb } from '../support/admin';
import { expectError } from '../support/assertions';
import { authInternalError, duringFault, failReads, failWrites, replaceAuth } from '../support/faults';
import { auditRecordsFor, createTenant, createUser, signIn } from '../support/fixtures';
import { api, freshIp, type ApiResponse } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';

// The invitations with Firestore or Auth failing underneath them (the app served in-process
// against the emulators, the faults the service's own clients'): each answers 503
// SERVICE_UNAVAILABLE in the documented error body, never 401, 404 or 500, and writes nothing
// half: the link that was good stays good, no record tells of what did not happen.

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

/** A student made without a password, and the secret of its link. */
async function invited() {
  const email = `fault-${randomUUID().slice(0, 12)}@invitations.example`;
  const res = await call('POST', '/api/users', { email, display_name: 'Fault', role: 'student' }, adminToken);
  assert.equal(res.status, 201, res.text);
  return { uid: res.body.uid as string, email, token: new URL(res.body.invitation_link).hash.slice('#token='.length) };
}

const invitationsOf = async (uid: string) =>
  (await adminDb.collection('invitations').where('uid', '==', uid).get()).docs.map((d) => ({
    id: d.id,
    status: d.get('status') as string,
  }));
const holderOf = async (uid: string) => (await adminDb.doc(`invitation_holders/${uid}`).get()).data();

describe('invitations with Firestore failing', function () {
  this.timeout(120_000);

  it('issuing a new link when the batch cannot be written: 503, the old link good, no new one, no record', async () => {
    const student = await invited();
    const before = { invitations: await invitationsOf(student.uid), holder: await holderOf(student.uid) };
    const { result } = await duringFault(
      () => failWrites(/^invitations\//),
      () => call('POST', `/api/users/${student.uid}/invitation`, undefined, adminToken),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    assert.deepEqual(await invitationsOf(student.uid), before.invitations);
    assert.deepEqual(await holderOf(student.uid), before.holder);
    assert.equal((await auditRecordsFor(student.uid, 'invitation_issued')).length, 1);
    assert.equal((await call('POST', '/api/invitations/preview', { token: student.token })).status, 200);
  });

  it('issuing in bulk when the batch cannot be written: 503, nothing issued', async () => {
    const [a, b] = [await invited(), await invited()];
    const { result } = await duringFault(
      () => failWrites(/^invitation_holders\//),
      () => call('POST', '/api/users/invitations', { uids: [a.uid, b.uid] }, adminToken),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    for (const s of [a, b]) {
      assert.deepEqual(
        (await invitationsOf(s.uid)).map((i) => i.status),
        ['live'],
      );
      assert.equal((await auditRecordsFor(s.uid, 'invitation_issued')).length, 1);
    }
  });

  it('revoking when the transaction cannot commit: 503, the link still good, no record', async () => {
    const student = await invited();
    const { result } = await duringFault(
      () => failWrites(/^invitation_holders\//),
      () => call('DELETE', `/api/users/${student.uid}/invitation`, undefined, adminToken),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    assert.ok(await holderOf(student.uid));
    assert.equal((await auditRecordsFor(student.uid, 'invitation_revoked')).length, 0);
    assert.equal((await call('POST', '/api/invitations/preview', { token: student.token })).status, 200);
  });

  it('reading a link when its invitation cannot be read: 503, never 404 (the link is not called unknown)', async () => {
    const student = await invited();
    for (const [path, body] of [
      ['/api/invitations/preview', { token: student.token }],
      ['/api/invitations/redeem', { token: student.token, password: 'a-good-password' }],
    ] as const) {
      const { result } = await duringFault(
        () => failReads(/^invitations/),
        () => call('POST', path, body),
      );
      expectError(result, 503, 'SERVICE_UNAVAILABLE');
    }
    assert.deepEqual(
      (await invitationsOf(student.uid)).map((i) => i.status),
      ['live'],
    );
  });

  it('redeeming when the hold cannot be taken: 503, no password set, the link good', async () => {
    const student = await invited();
    const { result } = await duringFault(
      () => failWrites(/^invitations\//),
      () => call('POST', '/api/invitations/redeem', { token: student.token, password: 'a-good-password' }),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    await assert.rejects(signIn(student.email, 'a-good-password'));
    assert.deepEqual(
      (await invitationsOf(student.uid)).map((i) => i.status),
      ['live'],
    );
    const retry = await call('POST', '/api/invitations/redeem', { token: student.token, password: 'a-good-password' });
    assert.equal(retry.status, 200, retry.text);
  });
});

describe('invitations and can_sign_in with Auth failing', function () {
  this.timeout(120_000);
  const authDown = () => replaceAuth('getUsers', () => () => Promise.reject(authInternalError()));

  it('issuing in bulk when Auth cannot say who can sign in: 503, nothing issued', async () => {
    const student = await invited();
    const { result } = await duringFault(authDown, () =>
      call('POST', '/api/users/invitations', { uids: [student.uid], only_cannot_sign_in: true }, adminToken),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    assert.equal((await auditRecordsFor(student.uid, 'invitation_issued')).length, 1);
  });

  it('the users list and a class’s members: 503, never a reply without can_sign_in', async () => {
    const student = await invited();
    const cls = await call('POST', '/api/classes', { name: `Faults ${randomUUID()}` }, adminToken);
    assert.equal(cls.status, 201, cls.text);
    const put = await call('PUT', `/api/classes/${cls.body.id}/members/${student.uid}`, undefined, adminToken);
    assert.equal(put.status, 200, put.text);
    for (const path of ['/api/users', `/api/classes/${cls.body.id}/members`]) {
      const { result } = await duringFault(authDown, () => call('GET', path, undefined, adminToken));
      expectError(result, 503, 'SERVICE_UNAVAILABLE');
    }
    const { result } = await duringFault(authDown, () =>
      call('POST', `/api/classes/${cls.body.id}/invitations`, {}, adminToken),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    assert.equal((await auditRecordsFor(student.uid, 'invitation_issued')).length, 1);
  });
});
