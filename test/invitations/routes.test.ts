import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { adminAuth, adminDb } from '../support/admin';
import { expectError } from '../support/assertions';
import { auditRecordsFor, createTenant, createUser, signIn } from '../support/fixtures';
import { AUTH_HOST } from '../support/env';
import { identityToolkitUrl } from '../../scripts/lib/emulatorAuth.mjs';
import { api, del, freshIp, get, patch, post } from '../support/http';

// Invitation links over real HTTP: issued one by one, for many, for a class; previewed, redeemed
// once, revoked, expired (by the stored expiry, not by waiting), and the attacker's cases.

type Tenant = Awaited<ReturnType<typeof createTenant>>;
const freshEmail = () => `invited-${randomUUID().slice(0, 12)}@invitations.example`;
const admin = async (t: Tenant) => (await createUser('client_admin', t.clientId)).token;
const tokenOf = (link: string) => new URL(link).hash.replace(/^#token=/, '');

// Every refused token counts against its address's failed authentications: each test
// previews and redeems from an address of its own, so one test's refusals never lock out the next.
let caller = freshIp();
beforeEach(() => {
  caller = freshIp();
});
const fromCaller = (path: string, body: unknown) => post(path, body, { ip: caller });

/** A student made without a password, and its first link. */
async function invitedStudent(t: Tenant, token: string) {
  const email = freshEmail();
  const res = await post('/api/users', { email, display_name: 'Zoë Invited', role: 'student' }, { token });
  assert.equal(res.status, 201, res.text);
  return { uid: res.body.uid as string, email, link: res.body.invitation_link as string };
}

let tenant: Tenant;
let other: Tenant;
before(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
});

describe('invitation links: preview and redeem', () => {
  it('a new student’s link lasts the organization’s 7 days, names the student, and sets a password once', async () => {
    const token = await admin(tenant);
    const student = await invitedStudent(tenant, token);
    const secret = tokenOf(student.link);
    assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
    const preview = await fromCaller('/api/invitations/preview', { token: secret });
    assert.equal(preview.status, 200, preview.text);
    assert.equal(preview.body.email, student.email);
    assert.equal(preview.body.display_name, 'Zoë Invited');
    const days = (Date.parse(preview.body.expires_at) - Date.now()) / 86_400_000;
    assert.ok(days > 6.9 && days <= 7, String(days));
    const redeemed = await fromCaller('/api/invitations/redeem', { token: secret, password: 'a-new-password' });
    assert.equal(redeemed.status, 200, redeemed.text);
    assert.equal(redeemed.body.uid, student.uid);
    assert.ok(await signIn(student.email, 'a-new-password'));
    expectError(
      await fromCaller('/api/invitations/redeem', { token: secret, password: 'another-one' }),
      409,
      'CONFLICT',
    );
    const used = await fromCaller('/api/invitations/preview', { token: secret });
    assert.equal(used.status, 409);
    assert.equal(used.body.details[0].reason, 'used');
    const records = await auditRecordsFor(student.uid, 'invitation_redeemed');
    assert.equal(records.length, 1);
    assert.ok(!JSON.stringify(records).includes(secret), 'the audit record never holds the secret');
    const stored = await adminDb.collection('invitations').where('uid', '==', student.uid).get();
    assert.ok(!JSON.stringify(stored.docs.map((d) => [d.id, d.data()])).includes(secret), 'only the digest is stored');
  });

  it('an expired link says so (its stored expiry moved into the past) and sets nothing', async () => {
    const student = await invitedStudent(tenant, await admin(tenant));
    const stored = await adminDb.collection('invitations').where('uid', '==', student.uid).get();
    await stored.docs[0].ref.update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    const res = await fromCaller('/api/invitations/redeem', {
      token: tokenOf(student.link),
      password: 'a-new-password',
    });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.details[0].reason, 'expired');
  });

  it('a guessed or malformed token is 404, saying nothing of any account', async () => {
    for (const token of ['A'.repeat(43), 'short', '../invitations/x'])
      expectError(await fromCaller('/api/invitations/preview', { token }), 404, 'NOT_FOUND');
    expectError(
      await fromCaller('/api/invitations/redeem', { token: 'A'.repeat(43), password: 'a-new-password' }),
      404,
      'NOT_FOUND',
    );
  });

  it('a disabled student’s link is refused (403) and a password out of bounds is 400', async () => {
    const token = await admin(tenant);
    const student = await invitedStudent(tenant, token);
    expectError(
      await fromCaller('/api/invitations/redeem', { token: tokenOf(student.link), password: 'short' }),
      400,
      'VALIDATION_ERROR',
    );
    assert.equal((await patch(`/api/users/${student.uid}`, { disabled: true }, { token })).status, 200);
    const res = await fromCaller('/api/invitations/redeem', {
      token: tokenOf(student.link),
      password: 'a-new-password',
    });
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.details[0].reason, 'account_disabled');
  });
});

describe('can_sign_in, read from Auth', () => {
  const canSignIn = async (uid: string, token: string) => {
    const res = await get(`/api/users/${uid}`, { token });
    assert.equal(res.status, 200, res.text);
    return res.body.can_sign_in as boolean;
  };

  it('a student made without a password cannot, until its link sets one', async () => {
    const token = await admin(tenant);
    const student = await invitedStudent(tenant, token);
    // The Auth emulator stamps lastSignInTime at creation: the reply must not take that for a sign-in.
    assert.equal(await canSignIn(student.uid, token), false);
    const redeemed = await fromCaller('/api/invitations/redeem', {
      token: tokenOf(student.link),
      password: 'a-new-password',
    });
    assert.equal(redeemed.status, 200, redeemed.text);
    assert.equal(await canSignIn(student.uid, token), true);
  });

  it('a student who signs in with Google can, with no password', async () => {
    const token = await admin(tenant);
    const student = await invitedStudent(tenant, token);
    const sub = `google-${randomUUID()}`;
    await adminAuth.updateUser(student.uid, {
      providerToLink: { providerId: 'google.com', uid: sub, email: student.email },
    });
    // The emulator's Google sign-in of that account, as the web app's popup ends.
    const idToken = JSON.stringify({ sub, email: student.email, email_verified: true });
    const res = await fetch(identityToolkitUrl(AUTH_HOST, 'signInWithIdp'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        requestUri: 'http://localhost',
        returnSecureToken: true,
        postBody: `id_token=${encodeURIComponent(idToken)}&providerId=google.com`,
      }),
    });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { localId: string }).localId, student.uid);
    assert.equal(await canSignIn(student.uid, token), true);
  });
});

describe('issuing and revoking', () => {
  it('a new link revokes the previous one; DELETE revokes the live one (audited); a second DELETE is 404', async () => {
    const token = await admin(tenant);
    const student = await invitedStudent(tenant, token);
    const again = await post(`/api/users/${student.uid}/invitation`, undefined, { token });
    assert.equal(again.status, 200, again.text);
    assert.ok(again.body.expires_at);
    const old = await fromCaller('/api/invitations/preview', { token: tokenOf(student.link) });
    assert.equal(old.body.details[0].reason, 'revoked');
    assert.equal((await del(`/api/users/${student.uid}/invitation`, { token })).status, 204);
    const gone = await fromCaller('/api/invitations/preview', { token: tokenOf(again.body.invitation_link) });
    assert.equal(gone.body.details[0].reason, 'revoked');
    expectError(await del(`/api/users/${student.uid}/invitation`, { token }), 404, 'NOT_FOUND');
    assert.equal((await auditRecordsFor(student.uid, 'invitation_revoked')).length, 1);
    assert.equal((await auditRecordsFor(student.uid, 'invitation_issued')).length, 2);
  });

  it('POST /api/users/invitations issues for many, skips who can sign in, and refuses another organization’s uid (404, nothing issued)', async () => {
    const token = await admin(tenant);
    const a = await invitedStudent(tenant, token);
    const b = await invitedStudent(tenant, token);
    const res = await post(
      '/api/users/invitations',
      { uids: [a.uid, b.uid, tenant.student.uid], only_cannot_sign_in: true },
      { token },
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.rows.map((r: { uid: string }) => r.uid).sort(), [a.uid, b.uid].sort());
    assert.deepEqual(res.body.skipped, [{ uid: tenant.student.uid, reason: 'can_sign_in' }]);
    for (const row of res.body.rows) assert.match(row.link, /\/invitation#token=/);
    const before = (await auditRecordsFor(other.student.uid, 'invitation_issued')).length;
    expectError(
      await post('/api/users/invitations', { uids: [a.uid, other.student.uid] }, { token }),
      404,
      'NOT_FOUND',
    );
    assert.equal((await auditRecordsFor(other.student.uid, 'invitation_issued')).length, before);
  });

  it('the class page: members say can_sign_in; the class’s invitations go to those who cannot; another organization’s class is 403', async () => {
    const token = await admin(tenant);
    const cls = await post('/api/classes', { name: `Invite ${randomUUID()}` }, { token });
    const a = await invitedStudent(tenant, token);
    for (const uid of [a.uid, tenant.student.uid])
      assert.equal((await api('PUT', `/api/classes/${cls.body.id}/members/${uid}`, { token })).status, 200);
    const members = await get(`/api/classes/${cls.body.id}/members`, { token });
    const byUid = Object.fromEntries(
      members.body.data.map((m: { uid: string; can_sign_in: boolean }) => [m.uid, m.can_sign_in]),
    );
    assert.deepEqual(byUid, { [a.uid]: false, [tenant.student.uid]: true });
    const res = await post(`/api/classes/${cls.body.id}/invitations`, {}, { token });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.rows.map((r: { uid: string }) => r.uid),
      [a.uid],
    );
    expectError(
      await post(`/api/classes/${cls.body.id}/invitations`, {}, { token: await admin(other) }),
      403,
      'FORBIDDEN',
    );
  });

  it('invitation_days is the organization’s: its Client Admin sets it (1 to 30) and new links last that long', async () => {
    const token = await admin(tenant);
    expectError(
      await patch(`/api/clients/${tenant.clientId}`, { invitation_days: 31 }, { token }),
      400,
      'VALIDATION_ERROR',
    );
    const set = await patch(`/api/clients/${tenant.clientId}`, { invitation_days: 2 }, { token });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.invitation_days, 2);
    const student = await invitedStudent(tenant, token);
    const preview = await fromCaller('/api/invitations/preview', { token: tokenOf(student.link) });
    const days = (Date.parse(preview.body.expires_at) - Date.now()) / 86_400_000;
    assert.ok(days > 1.9 && days <= 2, String(days));
    await patch(`/api/clients/${tenant.clientId}`, { invitation_days: 7 }, { token });
  });
});
