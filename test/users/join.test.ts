import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { signInWithIdp } from '../../scripts/lib/emulatorAuth.mjs';
import { adminAuth, adminDb } from '../support/admin';
import { AUTH_HOST } from '../support/env';
import { auditRecordsFor, createClientDoc, createTenant, createUser, refreshIdToken } from '../support/fixtures';
import { freshIp, get, post } from '../support/http';
import { expectError } from '../support/assertions';
import { decodePayload } from '../support/tokens';

// A first sign-in with a school's Google or Microsoft account, through the Auth emulator's own provider
// sign-in (accounts:signInWithIdp with a fake id_token), then POST /api/users/me/join as the web app calls it.

const uniqueDomain = () => `school-${randomUUID().slice(0, 8)}.example.edu`;

async function bind(clientId: string, domain: string) {
  await adminDb
    .collection('email_domains')
    .doc(domain)
    .create({ domain, client_id: clientId, created_at: new Date().toISOString(), created_by: 'test' });
}

const google = (email: string, verified = true) =>
  signInWithIdp(AUTH_HOST, 'google.com', {
    sub: `g-${randomUUID()}`,
    email,
    email_verified: verified,
    name: 'Ann Pupil',
  });
const microsoft = (email: string, verified = true) =>
  signInWithIdp(AUTH_HOST, 'microsoft.com', { sub: `m-${randomUUID()}`, email, email_verified: verified });

const join = (token: string, ip = freshIp()) => post('/api/users/me/join', undefined, { token, ip });

describe('POST /api/users/me/join: signing in with a school account', () => {
  it('an account of a bound domain joins that organization as a student, recorded once', async () => {
    const { clientId } = await createTenant();
    const domain = uniqueDomain();
    await bind(clientId, domain);
    const session = await google(`ann@${domain}`);
    const res = await join(session.idToken);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { outcome: 'joined', role: 'student', client_id: clientId, sign_in_again: false });

    const profile = (
      await adminDb.collection('clients').doc(clientId).collection('users').doc(session.uid).get()
    ).data();
    assert.equal(profile?.role, 'student');
    assert.equal(profile?.email, `ann@${domain}`);
    assert.deepEqual((await adminAuth.getUser(session.uid)).customClaims, { role: 'student', client_id: clientId });

    // The stale token knows no role; its refresh does.
    const fresh = (await refreshIdToken(session.refreshToken))!;
    assert.equal(decodePayload(fresh).role, 'student');
    const me = await get('/api/me', { token: fresh });
    assert.equal(me.body.client_id, clientId);
    assert.equal(me.body.role, 'student');

    const again = await join(fresh);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.outcome, 'member');
    assert.equal((await auditRecordsFor(session.uid, 'user_joined')).length, 1);
  });

  it('a Microsoft account joins as a Google one does', async () => {
    const { clientId } = await createTenant();
    const domain = uniqueDomain();
    await bind(clientId, domain);
    const res = await join((await microsoft(`bo@${domain}`)).idToken);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.client_id, clientId);
  });

  it('an account of no bound domain and no profile is 403 with a clear message, and no organization is made', async () => {
    const domain = uniqueDomain();
    const session = await google(`nobody@${domain}`);
    const res = await join(session.idToken);
    expectError(res, 403, 'FORBIDDEN');
    assert.match(res.body.message, /is not registered with any school here; ask your school/);
    assert.deepEqual((await adminAuth.getUser(session.uid)).customClaims ?? {}, {});
    const profiles = await adminDb.collectionGroup('users').where('email', '==', `nobody@${domain}`).get();
    assert.equal(profiles.size, 0);
  });

  it('an unverified email of a bound domain is refused', async () => {
    const { clientId } = await createTenant();
    const domain = uniqueDomain();
    await bind(clientId, domain);
    const res = await join((await microsoft(`eve@${domain}`, false)).idToken);
    expectError(res, 403, 'FORBIDDEN');
    assert.match(res.body.message, /verified email/);
  });

  it('a password sign-in cannot join through a bound domain', async () => {
    const { clientId } = await createTenant();
    const domain = uniqueDomain();
    await bind(clientId, domain);
    const email = `pw@${domain}`;
    await adminAuth.createUser({ email, password: 'correct-horse-battery', emailVerified: true });
    const { signIn } = await import('../support/fixtures');
    expectError(await join(await signIn(email, 'correct-horse-battery')), 403, 'FORBIDDEN');
  });

  it('the roster’s profile of that email is the one the student lands on (Firebase merges a verified email)', async () => {
    const { clientId } = await createTenant();
    const rostered = await createUser('student', clientId);
    const session = await google(rostered.email);
    assert.equal(session.uid, rostered.uid, 'one account per email: the provider joined the roster’s account');
    const res = await join(session.idToken);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { outcome: 'member', role: 'student', client_id: clientId, sign_in_again: false });
    const [record] = await auditRecordsFor(rostered.uid, 'user_joined');
    assert.equal(record.details.provider, 'google.com');
  });

  it('a roster profile in organization A of an email whose domain is bound to B is refused', async () => {
    const [a, b] = await Promise.all([createTenant(), createTenant()]);
    const domain = uniqueDomain();
    await bind(b.clientId, domain);
    const email = `cara@${domain}`;
    const rostered = await adminAuth.createUser({ email });
    await adminAuth.setCustomUserClaims(rostered.uid, { role: 'student', client_id: a.clientId });
    const session = await google(email);
    const res = await join(session.idToken);
    expectError(res, 403, 'FORBIDDEN');
    assert.match(res.body.message, /bound to another organization; ask your school/);
    // Nothing of B's is given to it, and A's roster account is not moved.
    assert.equal(
      (await adminDb.collection('clients').doc(b.clientId).collection('users').doc(session.uid).get()).exists,
      false,
    );
    assert.deepEqual((await adminAuth.getUser(rostered.uid)).customClaims, { role: 'student', client_id: a.clientId });
  });

  it('a student of a deactivated organization is refused', async () => {
    const client = await createClientDoc({ active_status: 0 });
    const domain = uniqueDomain();
    await bind(client.id, domain);
    const res = await join((await google(`dan@${domain}`)).idToken);
    expectError(res, 403, 'FORBIDDEN');
  });

  it('a token of an account since deleted (the one a takeover removes) is the 401 of any revoked token, not an error', async () => {
    const { clientId } = await createTenant();
    const domain = uniqueDomain();
    await bind(clientId, domain);
    const session = await google(`gil@${domain}`);
    await adminAuth.deleteUser(session.uid);
    const res = await join(session.idToken);
    expectError(res, 401, 'UNAUTHORIZED');
    assert.match(res.body.message, /sign in again/);
    assert.equal(
      (await adminDb.collection('clients').doc(clientId).collection('users').doc(session.uid).get()).exists,
      false,
    );
  });

  it('an anonymous Guest cannot join', async () => {
    const { signInAnonymously } = await import('../support/fixtures');
    expectError(await join((await signInAnonymously()).token), 403, 'FORBIDDEN');
  });
  // Fifty joins of one account at once: test/users/schoolSignIn.concurrency.inProcess.test.ts.
});
