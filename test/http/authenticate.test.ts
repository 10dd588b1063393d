import assert from 'node:assert/strict';
import { adminAuth, adminDb } from '../support/admin';
import {
  auditRecordsWritten,
  createTenant,
  createUser,
  refreshIdToken,
  signIn,
  signInAnonymously,
  signInWithRefreshToken,
  whenWritten,
} from '../support/fixtures';
import { freshIp, get, patch } from '../support/http';
import {
  decodePayload,
  expired,
  withAlgorithm,
  withClaims,
  withForgedSignature,
  wrongAudience,
} from '../support/tokens';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function assertUnauthorized(res: { status: number; body: any; text: string }, messagePattern?: RegExp) {
  assert.equal(res.status, 401, res.text);
  assert.equal(res.body.error, 'UNAUTHORIZED');
  assert.equal(res.body.status, 401);
  if (messagePattern) assert.match(res.body.message, messagePattern);
}

/** token_rejected records written for requests from this address. */
async function rejectionsFrom(ip: string) {
  const snap = await adminDb
    .collection('audit_logs')
    .where('ip_address', '==', ip)
    .where('event_type', '==', 'token_rejected')
    .get();
  return snap.docs.map((d) => d.data());
}

/** The newest token_rejected record that claims this uid, once it is written. */
async function latestRejection(uid: string) {
  const records = await auditRecordsWritten(uid, 'token_rejected', 1);
  return records[0];
}

describe('Authentication: Authorization: Bearer <ID token>', () => {
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  before(async () => {
    tenant = await createTenant();
  });

  it('accepts a real ID token from the Auth emulator', async () => {
    const res = await get('/api/me', { token: tenant.student.token });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.uid, tenant.student.uid);
  });

  it('answers 401 without an Authorization header, and records no token', async () => {
    const ip = freshIp();
    const res = await get('/api/me', { ip });
    assertUnauthorized(res, /Authorization/);
    assert.deepEqual(await rejectionsFrom(ip), []);
  });

  it('answers 401 to a header that is not "Bearer <token>"', async () => {
    const res = await get('/api/me', { ip: freshIp(), headers: { Authorization: `Basic ${tenant.student.token}` } });
    assertUnauthorized(res, /Bearer/);
  });

  it('answers 401 to a token that is not a JWT at all', async () => {
    const res = await get('/api/me', { ip: freshIp(), token: 'not-a-jwt' });
    assertUnauthorized(res, /invalid/i);
  });

  it('answers 401 saying the ID token has expired, and records reason "expired"', async () => {
    const res = await get('/api/me', { ip: freshIp(), token: expired(tenant.student.token) });
    assertUnauthorized(res, /ID token has expired/);
    const record = await latestRejection(tenant.student.uid);
    assert.equal(record?.reason, 'expired');
    assert.equal(record?.success, false);
    assert.equal(record?.client_id, null, 'an unverified token is attributed to no tenant');
  });

  it('answers 401 to a token issued for another project (wrong audience)', async () => {
    const res = await get('/api/me', { ip: freshIp(), token: wrongAudience(tenant.student.token) });
    assertUnauthorized(res, /invalid/i);
  });

  it('answers 401 to a token from another issuer', async () => {
    const token = withClaims(tenant.student.token, { iss: 'https://securetoken.google.com/someone-else' });
    assertUnauthorized(await get('/api/me', { ip: freshIp(), token }));
  });

  it('answers 401 to a tampered token whose signature was altered', async () => {
    assertUnauthorized(await get('/api/me', { ip: freshIp(), token: withForgedSignature(tenant.student.token) }));
  });

  it('answers 401 to a token whose algorithm was changed', async () => {
    assertUnauthorized(await get('/api/me', { ip: freshIp(), token: withAlgorithm(tenant.student.token, 'HS256') }));
  });

  it('answers 401 with reason "invalid" recorded for a token without a subject', async () => {
    const ip = freshIp();
    const token = withClaims(tenant.student.token, { sub: '', user_id: '' });
    assertUnauthorized(await get('/api/me', { ip, token }));
    assert.deepEqual(
      (await whenWritten(1, () => rejectionsFrom(ip))).map((r) => [r.reason, r.user_id]),
      [['invalid', '']],
    );
  });

  // Under the emulator firebase-admin checks revocation on every verification, so
  // only the write half of "reads skip the check, writes make it" shows here.
  it('refuses a revoked token on writes (reason "revoked")', async () => {
    const user = await createTenant();
    await sleep(1100); // revocation is to the second: the token must predate it
    await adminAuth.revokeRefreshTokens(user.admin.uid);
    const write = await patch(
      `/api/clients/${user.clientId}`,
      { address: '2 New Street' },
      { ip: freshIp(), token: user.admin.token },
    );
    assertUnauthorized(write, /revoked/);
    assert.equal((await latestRejection(user.admin.uid))?.reason, 'revoked');
  });

  it('refuses the token of a disabled user on writes (reason "disabled")', async () => {
    const user = await createTenant();
    await adminAuth.updateUser(user.admin.uid, { disabled: true });
    const write = await patch(
      `/api/clients/${user.clientId}`,
      { address: '3 New Street' },
      { ip: freshIp(), token: user.admin.token },
    );
    assertUnauthorized(write, /disabled/);
    assert.equal((await latestRejection(user.admin.uid))?.reason, 'disabled');
  });
});

describe('Roles from custom claims', () => {
  it('treats an anonymous sign-in as a Guest', async () => {
    const guest = await signInAnonymously();
    const res = await get('/api/me', { token: guest.token });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      uid: guest.uid,
      email: null,
      role: 'guest',
      client_id: null,
      guest: true,
      accommodation: null,
    });
  });

  it('lets a signed-in user with no role call GET /api/me and nothing else', async () => {
    const user = await createUser(null);
    const me = await get('/api/me', { token: user.token });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.role, null);
    const other = await get('/api/audit-logs', { token: user.token });
    assert.equal(other.status, 403, other.text);
    assert.equal(other.body.error, 'FORBIDDEN');
    assert.match(other.body.message, /no role/);
  });

  it('treats a tenant role whose client_id claim is missing as no role', async () => {
    const user = await createUser(null);
    await adminAuth.setCustomUserClaims(user.uid, { role: 'client_admin' });
    const token = await signIn(user.email, user.password);
    const me = await get('/api/me', { token });
    assert.equal(me.body.role, null);
    assert.equal((await get(`/api/users`, { token })).status, 403);
  });

  it('closes tenant endpoints to users of a deactivated client, but not GET /api/me', async () => {
    const tenant = await createTenant({ active_status: 0 });
    const res = await get(`/api/clients/${tenant.clientId}`, { token: tenant.admin.token });
    assert.equal(res.status, 403, res.text);
    assert.match(res.body.message, /not active/);
    assert.equal((await get('/api/me', { token: tenant.student.token })).status, 200);
  });
});

describe('Audit log of authentication events', () => {
  it('records one login per sign-in however many requests its token makes', async () => {
    const tenant = await createTenant();
    for (let i = 0; i < 3; i += 1) assert.equal((await get('/api/me', { token: tenant.student.token })).status, 200);
    const logins = await auditRecordsWritten(tenant.student.uid, 'login', 1);
    assert.equal(logins.length, 1);
    const [login] = logins;
    assert.equal(login.success, true);
    assert.equal(login.client_id, tenant.clientId);
    assert.equal(login.timestamp, new Date(decodePayload(tenant.student.token).auth_time * 1000).toISOString());
    assert.match(login.ip_address, /^2001:db8:/);
    assert.ok(login.user_agent);
  });

  it('records no new login when a page is loaded again: the same token, or the same sign-in’s refreshed token', async () => {
    const tenant = await createTenant();
    const session = await signInWithRefreshToken(tenant.student.email, tenant.student.password);
    // A page load reads with the token it kept; one an hour later with a refreshed one (same auth_time).
    await get('/api/me', { token: session.idToken });
    await get('/api/me', { token: session.idToken });
    await sleep(1100);
    const refreshed = await refreshIdToken(session.refreshToken);
    assert.ok(refreshed);
    assert.equal(decodePayload(refreshed).auth_time, decodePayload(session.idToken).auth_time);
    assert.equal((await get('/api/me', { token: refreshed })).status, 200);
    const logins = (await auditRecordsWritten(tenant.student.uid, 'login', 1)).filter(
      (r) => r.timestamp === new Date(decodePayload(session.idToken).auth_time * 1000).toISOString(),
    );
    assert.equal(logins.length, 1);
  });

  it('records a new login for a new sign-in', async () => {
    const tenant = await createTenant();
    await get('/api/me', { token: tenant.student.token });
    await sleep(1100); // auth_time has a resolution of one second
    const second = await signIn(tenant.student.email, tenant.student.password);
    await get('/api/me', { token: second });
    assert.equal((await auditRecordsWritten(tenant.student.uid, 'login', 2)).length, 2);
  });

  it('records every refused token with its reason, IP and time', async () => {
    const tenant = await createTenant();
    const ip = freshIp();
    await get('/api/me', { ip, token: expired(tenant.admin.token) });
    await get('/api/me', { ip, token: wrongAudience(tenant.admin.token) });
    const records = await auditRecordsWritten(tenant.admin.uid, 'token_rejected', 2);
    assert.deepEqual(records.map((r) => r.reason).sort(), ['expired', 'invalid']);
    for (const record of records) {
      assert.equal(record.ip_address, ip);
      assert.equal(record.success, false);
      assert.ok(!Number.isNaN(Date.parse(record.timestamp)));
    }
  });
});
