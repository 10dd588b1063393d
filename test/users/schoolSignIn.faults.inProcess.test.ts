import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { signInWithIdp } from '../../scripts/lib/emulatorAuth.mjs';
import { adminAuth, adminDb } from '../support/admin';
import { expectError } from '../support/assertions';
import { AUTH_HOST } from '../support/env';
import {
  authInternalError,
  duringFault,
  failReads,
  failTransactionGets,
  failWrites,
  replaceAuth,
} from '../support/faults';
import { auditRecordsFor, createSuperAdmin, createTenant, type TestUser } from '../support/fixtures';
import { api, freshIp, type ApiResponse } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';

// Binding email domains and joining with a school account while Firestore or Auth fails underneath (the app
// served in-process against the emulators): each answers 503 SERVICE_UNAVAILABLE in the documented error
// body, with Retry-After, never a 401, 403 or 500, and leaves nothing half written. Where Auth and
// Firestore cannot share one commit (the join's profile, then its claims), the next join finishes the work.

let server: InProcessApi;
let superAdmin: TestUser;

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  superAdmin = await createSuperAdmin();
});
after(() => server.close());

const call = (method: string, path: string, token: string, body?: unknown): Promise<ApiResponse> =>
  api(method, path, { token, body, ip: freshIp(), baseUrl: server.baseUrl });

function expectUnavailable(res: ApiResponse): void {
  expectError(res, 503, 'SERVICE_UNAVAILABLE');
  assert.ok(Number(res.headers.get('retry-after')) >= 1, 'Retry-After is set');
}

const uniqueDomain = () => `school-${randomUUID().slice(0, 8)}.example.edu`;
const claimOf = async (domain: string) => (await adminDb.collection('email_domains').doc(domain).get()).data();
const bind = (clientId: string, domain: string) =>
  adminDb
    .collection('email_domains')
    .doc(domain)
    .create({ domain, client_id: clientId, created_at: new Date().toISOString(), created_by: 'test' });
const recordsOf = async (type: string, domain: string) =>
  (await auditRecordsFor(superAdmin.uid, type)).filter((r) => r.details.domain === domain);

/** Every call after the first `pass` fails with Auth's internal error. */
const authFailsAfter = (pass: number) => (original: (...args: any[]) => any) => {
  let calls = 0;
  return (...args: any[]) => (calls++ < pass ? original(...args) : Promise.reject(authInternalError()));
};

describe('email domains with Firestore or Auth failing', function () {
  this.timeout(60_000);
  let clientId: string;
  before(async () => {
    ({ clientId } = await createTenant());
  });

  it('binding: the claim cannot be written → 503, no claim, no record', async () => {
    const domain = uniqueDomain();
    const { result } = await duringFault(
      () => failWrites(/^email_domains\//),
      () => call('POST', `/api/clients/${clientId}/domains`, superAdmin.token, { domain }),
    );
    expectUnavailable(result);
    assert.equal(await claimOf(domain), undefined);
    assert.deepEqual(await recordsOf('email_domain_bound', domain), []);
    // Healed, the same request binds it.
    const again = await call('POST', `/api/clients/${clientId}/domains`, superAdmin.token, { domain });
    assert.equal(again.status, 201, again.text);
  });

  it('binding: the claims cannot be read → 503, not a 409 or a 201', async () => {
    const domain = uniqueDomain();
    const { result } = await duringFault(
      () => failReads(/^email_domains/),
      () => call('POST', `/api/clients/${clientId}/domains`, superAdmin.token, { domain }),
    );
    expectUnavailable(result);
    assert.equal(await claimOf(domain), undefined);
    assert.deepEqual(await recordsOf('email_domain_bound', domain), []);
  });

  it('unbinding: the claim cannot be read → 503, the claim stands', async () => {
    const domain = uniqueDomain();
    await bind(clientId, domain);
    const { result } = await duringFault(
      () => failTransactionGets(/^email_domains\//),
      () => call('DELETE', `/api/clients/${clientId}/domains/${domain}`, superAdmin.token),
    );
    expectUnavailable(result);
    assert.equal((await claimOf(domain))?.client_id, clientId);
  });

  it('listing: the claims cannot be read → 503', async () => {
    const { result } = await duringFault(
      () => failReads(/^email_domains/),
      () => call('GET', `/api/clients/${clientId}/domains`, superAdmin.token),
    );
    expectUnavailable(result);
  });

  it('unbinding: the claim cannot be deleted → 503, the claim stands, no record', async () => {
    const domain = uniqueDomain();
    await bind(clientId, domain);
    const { result } = await duringFault(
      () => failWrites(/^email_domains\//),
      () => call('DELETE', `/api/clients/${clientId}/domains/${domain}`, superAdmin.token),
    );
    expectUnavailable(result);
    assert.equal((await claimOf(domain))?.client_id, clientId);
    assert.deepEqual(await recordsOf('email_domain_unbound', domain), []);
  });

  it('Auth failing under the token check → 503, not 401, and nothing bound', async () => {
    const sa = await createSuperAdmin();
    const domain = uniqueDomain();
    const { result } = await duringFault(
      () => replaceAuth('getUser', authFailsAfter(0)),
      () => call('POST', `/api/clients/${clientId}/domains`, sa.token, { domain }),
    );
    expectUnavailable(result);
    assert.equal(await claimOf(domain), undefined);
  });
});

const google = (email: string) =>
  signInWithIdp(AUTH_HOST, 'google.com', { sub: `g-${randomUUID()}`, email, email_verified: true, name: 'Ann Pupil' });
const join = (token: string) => call('POST', '/api/users/me/join', token);
const profileOf = (clientId: string, uid: string) =>
  adminDb.collection('clients').doc(clientId).collection('users').doc(uid).get();

describe('POST /api/users/me/join with Firestore or Auth failing', function () {
  this.timeout(60_000);
  let clientId: string;
  let domain: string;
  before(async () => {
    ({ clientId } = await createTenant());
    domain = uniqueDomain();
    await bind(clientId, domain);
  });

  /** Nothing of the join: no role, no profile, no record. */
  async function expectNotJoined(uid: string) {
    assert.equal((await adminAuth.getUser(uid)).customClaims?.role, undefined);
    assert.equal((await profileOf(clientId, uid)).exists, false);
    assert.deepEqual(await auditRecordsFor(uid, 'user_joined'), []);
  }

  it('the profile cannot be written → 503, no role given; healed, the next join makes the student', async () => {
    const session = await google(`ana-${randomUUID().slice(0, 6)}@${domain}`);
    const { result } = await duringFault(
      () => failWrites(/^clients\/[^/]+\/users\//),
      () => join(session.idToken),
    );
    expectUnavailable(result);
    await expectNotJoined(session.uid);
    const again = await join(session.idToken);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.outcome, 'joined');
  });

  it('the bound domain cannot be read → 503, not the 403 of an unknown school', async () => {
    const session = await google(`ben-${randomUUID().slice(0, 6)}@${domain}`);
    const { result } = await duringFault(
      () => failReads(/^email_domains/),
      () => join(session.idToken),
    );
    expectUnavailable(result);
    await expectNotJoined(session.uid);
  });

  it('the organization cannot be read → 503, not the 403 of an inactive school', async () => {
    const session = await google(`cai-${randomUUID().slice(0, 6)}@${domain}`);
    const { result } = await duringFault(
      () => failReads(new RegExp(`^clients/${clientId}$`)),
      () => join(session.idToken),
    );
    expectUnavailable(result);
    await expectNotJoined(session.uid);
  });

  it('Auth failing to read the account (getUser) → 503, nothing written', async () => {
    const session = await google(`dee-${randomUUID().slice(0, 6)}@${domain}`);
    // The token check reads the account first; the join's own read is the one that fails.
    const { result } = await duringFault(
      () => replaceAuth('getUser', authFailsAfter(1)),
      () => join(session.idToken),
    );
    expectUnavailable(result);
    await expectNotJoined(session.uid);
  });

  it('Auth failing to find the roster’s account of the email (getUserByEmail) → 503, nothing written', async () => {
    const session = await google(`eli-${randomUUID().slice(0, 6)}@${domain}`);
    const { result } = await duringFault(
      () => replaceAuth('getUserByEmail', authFailsAfter(0)),
      () => join(session.idToken),
    );
    expectUnavailable(result);
    await expectNotJoined(session.uid);
  });

  it('Auth failing to set the role (setCustomUserClaims) → 503; the next join finishes it, recorded once', async () => {
    const session = await google(`fin-${randomUUID().slice(0, 6)}@${domain}`);
    const { result } = await duringFault(
      () => replaceAuth('setCustomUserClaims', authFailsAfter(0)),
      () => join(session.idToken),
    );
    expectUnavailable(result);
    // No role: the profile written before it grants nothing (roles travel as claims only).
    assert.equal((await adminAuth.getUser(session.uid)).customClaims?.role, undefined);
    const again = await join(session.idToken);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, { outcome: 'joined', role: 'student', client_id: clientId, sign_in_again: false });
    assert.deepEqual((await adminAuth.getUser(session.uid)).customClaims, { role: 'student', client_id: clientId });
    assert.equal((await profileOf(clientId, session.uid)).get('role'), 'student');
    assert.equal((await auditRecordsFor(session.uid, 'user_joined')).length, 1);
  });

  it('a takeover: Auth failing to link the provider to the roster’s account (updateUser) → 503, the roster’s account unchanged, no record', async () => {
    // The roster's account holds the email; the caller is a new Google account Auth describes with that email
    // (a project that allows an account per provider and email), so the join takes the roster's account over.
    const email = `gus-${randomUUID().slice(0, 6)}@${domain}`;
    const roster = await adminAuth.createUser({ email, emailVerified: true, displayName: 'Gus Roster' });
    await adminAuth.setCustomUserClaims(roster.uid, { role: 'student', client_id: clientId });
    const session = await google(`gus-new-${randomUUID().slice(0, 6)}@${domain}`);
    const googleUid = (await adminAuth.getUser(session.uid)).providerData[0].uid;
    const healGetUser = replaceAuth('getUser', (original) => async (uid: string) => {
      const record = await original(uid);
      if (uid !== session.uid) return record;
      return {
        ...record,
        email,
        emailVerified: true,
        disabled: false,
        customClaims: undefined,
        providerData: [{ providerId: 'google.com', uid: googleUid, email, displayName: 'Gus' }],
      };
    });
    try {
      const { result } = await duringFault(
        () => replaceAuth('updateUser', authFailsAfter(0)),
        () => join(session.idToken),
      );
      expectUnavailable(result);
    } finally {
      healGetUser();
    }
    const after = await adminAuth.getUser(roster.uid);
    assert.deepEqual(after.customClaims, { role: 'student', client_id: clientId });
    assert.equal(
      after.providerData.some((p) => p.providerId === 'google.com'),
      false,
      'no Google identity was linked',
    );
    assert.deepEqual(await auditRecordsFor(roster.uid, 'user_joined'), []);
  });
});
