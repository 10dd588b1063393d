import assert from 'node:assert/strict';
import { forgetAccountFacts } from '../../functions/src/http/authenticate';
import { addressBucket } from '../../functions/src/rateLimit/addressBucket';
import { shareThreshold } from '../../functions/src/rateLimit/localCounts';
import { counterKey, currentWindow } from '../../functions/src/rateLimit/window';
import { adminAuth, adminDb } from '../support/admin';
import { expectError } from '../support/assertions';
import { authInternalError, duringFault, failReads, failWrites, replaceAuth } from '../support/faults';
import { auditRecordsWritten, createSuperAdmin, createTenant, uniqueName, whenWritten } from '../support/fixtures';
import { api, freshIp } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { decodePayload } from '../support/tokens';
import { awayFromWindowEdge } from '../support/windows';

// The app served in-process against the real emulators: requests truly overlap
// here, and Firestore or Auth can be made to fail underneath it.

let server: InProcessApi;
before(async () => {
  server = await startInProcessApi();
});
after(() => server.close());

const call = (method: string, path: string, options: Parameters<typeof api>[2] = {}) =>
  api(method, path, { ...options, baseUrl: server.baseUrl });
const authFailuresOf = async (ip: string) =>
  (
    await adminDb
      .collection('rate_limits')
      .doc(counterKey('ip', addressBucket(ip), currentWindow(Date.now())))
      .get()
  ).get('auth_failures') ?? 0;
const rejectionsFrom = async (ip: string) =>
  (
    await adminDb
      .collection('audit_logs')
      .where('ip_address', '==', ip)
      .where('event_type', '==', 'token_rejected')
      .get()
  ).docs;

describe('Authentication: failed authentications arriving at once', () => {
  it('answers at most ten of forty simultaneous bad tokens from one address with 401, the rest with 429', async function () {
    this.timeout(30_000);
    await awayFromWindowEdge(15_000);
    const ip = freshIp();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call('GET', '/api/me', { ip, token: `bad-token-${i}` })),
    );
    const statuses = answers.map((r) => r.status);
    const judged = statuses.filter((s) => s === 401).length;
    assert.ok(judged <= 10, `${judged} of 40 were judged: ${statuses.join(',')}`);
    assert.ok(judged >= 1, 'the first failures are answered 401');
    assert.equal(statuses.filter((s) => s === 429).length, 40 - judged, statuses.join(','));
    // Recorded beside the replies: read once those of the 401s are there.
    const records = await whenWritten(judged, () => rejectionsFrom(ip));
    assert.ok(records.length <= 10, 'no more token_rejected records than 401 answers');
  });

  it('does not count requests without an Authorization header: fifteen of them leave the address open', async () => {
    await awayFromWindowEdge(10_000);
    const ip = freshIp();
    const tenant = await createTenant();
    const anonymous = await Promise.all(Array.from({ length: 15 }, () => call('GET', '/api/me', { ip })));
    assert.deepEqual([...new Set(anonymous.map((r) => r.status))], [401]);
    assert.equal(await authFailuresOf(ip), 0);
    assert.equal((await rejectionsFrom(ip)).length, 0, 'no header is no token to record');
    assert.equal((await call('GET', '/api/me', { ip, token: tenant.student.token })).status, 200);
  });
});

describe('Authentication: Auth failing is 503, never 401', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After when token verification fails inside Auth, and counts and records nothing', async () => {
    const tenant = await createTenant();
    const ip = freshIp();
    const failVerification = () =>
      replaceAuth('verifyIdToken', () => async () => {
        throw authInternalError();
      });
    const { result: res, entries } = await duringFault(failVerification, () =>
      call('GET', '/api/me', { ip, token: tenant.student.token }),
    );
    expectError(res, 503, 'SERVICE_UNAVAILABLE');
    assert.ok(Number(res.headers.get('retry-after')) >= 1, 'Retry-After is set');
    assert.equal(await authFailuresOf(ip), 0, 'not counted as a failed authentication');
    assert.equal((await rejectionsFrom(ip)).length, 0, 'not recorded as a refused token');
    assert.ok(
      entries.some((e) => e.severity === 'WARNING' && /not the token/.test(e.message)),
      JSON.stringify(entries),
    );
  });

  it('answers 503 when the admin account re-check cannot reach Auth', async () => {
    forgetAccountFacts();
    const tenant = await createTenant();
    const failAccountLookup = () => {
      const healGetUser = replaceAuth('getUser', () => async () => {
        throw authInternalError();
      });
      // verifyIdToken checks revocation itself under the emulator; let it through so the re-check is what fails.
      const healVerify = replaceAuth('verifyIdToken', () => async (token: string) => emulatorClaims(token));
      return () => {
        healGetUser();
        healVerify();
      };
    };
    const { result } = await duringFault(failAccountLookup, () =>
      call('GET', '/api/users', { token: tenant.admin.token }),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
  });
});

describe('Authentication: writes the outcome does not depend on', () => {
  it('still answers 401 when the token_rejected record cannot be written, and logs the lost record at ERROR', async () => {
    const ip = freshIp();
    const outcome = await duringFault(
      () => failWrites(/^audit_logs\//),
      () => call('GET', '/api/me', { ip, token: 'not-a-jwt' }),
    );
    expectError(outcome.result, 401, 'UNAUTHORIZED');
    const lost = outcome.entries.find((e) => e.severity === 'ERROR' && /refused token/.test(e.message));
    assert.ok(lost, JSON.stringify(outcome.entries));
    assert.equal(lost.data.event, 'token_rejected');
    assert.equal(lost.data.reason, 'invalid');
  });

  it('still answers 200 when the login record cannot be written, logs it at ERROR, and records the login on a later request', async () => {
    const tenant = await createTenant();
    const outcome = await duringFault(
      () => failWrites(/^audit_logs\//),
      () => call('GET', '/api/me', { token: tenant.student.token }),
    );
    assert.equal(outcome.result.status, 200, outcome.result.text);
    assert.ok(
      outcome.entries.some((e) => e.severity === 'ERROR' && e.data.event === 'login'),
      JSON.stringify(outcome.entries),
    );
    assert.equal((await adminDb.collection('audit_logs').where('user_id', '==', tenant.student.uid).get()).size, 0);
    assert.equal((await call('GET', '/api/me', { token: tenant.student.token })).status, 200);
    const logins = await auditRecordsWritten(tenant.student.uid, 'login', 1);
    assert.equal(logins.length, 1, 'the next request records the login it missed');
  });

  it('still answers 401 when the failure counter cannot be written, and logs it at ERROR', async () => {
    const ip = freshIp();
    const outcome = await duringFault(
      () => failWrites(/^rate_limits\//),
      () => call('GET', '/api/me', { ip, token: 'not-a-jwt-either' }),
    );
    expectError(outcome.result, 401, 'UNAUTHORIZED');
    assert.ok(
      outcome.entries.some((e) => e.severity === 'ERROR' && /Counting a failed authentication/.test(e.message)),
      JSON.stringify(outcome.entries),
    );
  });

  it('serves requests whose per-IP counts cannot be flushed (fails open, WARNING), keeping the counts for the next flush', async function () {
    this.timeout(30_000);
    await awayFromWindowEdge(15_000);
    const tenant = await createTenant();
    const ip = freshIp();
    const share = shareThreshold(100);
    // The share's last request makes a flush due; the next one waits for it, and it fails.
    const outcome = await duringFault(
      () => failWrites(/^rate_limits\//),
      async () => {
        const answers = [];
        for (let i = 0; i <= share; i += 1)
          answers.push(await call('GET', `/api/clients/${tenant.clientId}`, { ip, token: tenant.admin.token }));
        return answers;
      },
    );
    assert.deepEqual([...new Set(outcome.result.map((r) => r.status))], [200]);
    assert.equal(
      outcome.result[share].headers.get('x-ratelimit-limit'),
      null,
      'no limit headers when the limit could not be counted',
    );
    assert.ok(
      outcome.entries.some((e) => e.severity === 'WARNING' && /Per-IP rate limit not applied/.test(e.message)),
      JSON.stringify(outcome.entries),
    );
    // Writable again: the next flush adds every count kept.
    const next = await call('GET', `/api/clients/${tenant.clientId}`, { ip, token: tenant.admin.token });
    assert.equal(next.headers.get('x-ratelimit-remaining'), String(100 - share - 2));
  });

  it('refuses a sensitive operation whose counter cannot be written with 503 (fails closed), and creates nothing', async () => {
    const superAdmin = await createSuperAdmin();
    const name = uniqueName('Closed School');
    const outcome = await duringFault(
      () => failWrites(/^rate_limits\/sensitive_/),
      () =>
        call('POST', '/api/clients', {
          token: superAdmin.token,
          body: { name, address: '1 Road', logo_url: 'https://example.com/l.png' },
        }),
    );
    expectError(outcome.result, 503, 'SERVICE_UNAVAILABLE');
    assert.equal((await adminDb.collection('clients').where('name', '==', name).get()).size, 0);
  });
});

describe('Authentication: Firestore failing is 503, never 401 or 403', () => {
  it('answers 503 when the organization status cannot be read, rather than letting the caller in or out', async () => {
    const tenant = await createTenant();
    const outcome = await duringFault(
      () => failReads(new RegExp(`^clients/${tenant.clientId}$`)),
      () => call('GET', '/api/users', { token: tenant.admin.token }),
    );
    expectError(outcome.result, 503, 'SERVICE_UNAVAILABLE');
    assert.ok(outcome.entries.some((e) => e.severity === 'ERROR' && /Backend unavailable/.test(e.message)));
  });

  it('answers 503 when a list query fails', async () => {
    const tenant = await createTenant();
    const outcome = await duringFault(
      () => failReads(/\/users$/),
      () => call('GET', '/api/users', { token: tenant.admin.token }),
    );
    expectError(outcome.result, 503, 'SERVICE_UNAVAILABLE');
  });
});

/**
 * What production's verifyIdToken returns on a read (no revocation check): the
 * token's own claims. The emulator always checks, so this stands in for production.
 */
function emulatorClaims(token: string) {
  const payload = decodePayload(token);
  return { ...payload, uid: payload.sub };
}

describe('Authentication: admins whose account changed stop reading within a minute', () => {
  let healVerify: () => void;
  beforeEach(() => {
    forgetAccountFacts();
    healVerify = replaceAuth(
      'verifyIdToken',
      (original) => async (token: string, checkRevoked?: boolean) =>
        checkRevoked ? original(token, true) : emulatorClaims(token),
    );
  });
  afterEach(() => healVerify());

  it('refuses a disabled Client Admin’s reads with 401 once its account is re-checked', async () => {
    const tenant = await createTenant();
    assert.equal((await call('GET', '/api/users', { token: tenant.admin.token })).status, 200);
    await adminAuth.updateUser(tenant.admin.uid, { disabled: true });
    forgetAccountFacts(); // as after ACCOUNT_RECHECK_MS (60 s)
    const res = await call('GET', '/api/users', { token: tenant.admin.token });
    expectError(res, 401, 'UNAUTHORIZED');
    assert.match(res.body.message, /disabled/);
  });

  it('refuses a deleted Client Admin’s reads with 401', async () => {
    const tenant = await createTenant();
    await adminAuth.deleteUser(tenant.admin.uid);
    expectError(await call('GET', '/api/audit-logs', { token: tenant.admin.token }), 401, 'UNAUTHORIZED');
  });

  it('refuses a demoted Client Admin’s reads with 401 even before its refresh tokens are revoked', async () => {
    const tenant = await createTenant();
    await adminAuth.setCustomUserClaims(tenant.admin.uid, { role: 'student', client_id: tenant.clientId });
    expectError(await call('GET', '/api/users', { token: tenant.admin.token }), 401, 'UNAUTHORIZED');
  });

  it('refuses a Super Admin whose tokens were revoked', async () => {
    const superAdmin = await createSuperAdmin();
    await new Promise((r) => setTimeout(r, 1100)); // revocation is to the second
    await adminAuth.revokeRefreshTokens(superAdmin.uid);
    expectError(await call('GET', '/api/clients', { token: superAdmin.token }), 401, 'UNAUTHORIZED');
  });

  it('keeps serving an admin whose account is unchanged, and a Student without any re-check', async () => {
    const tenant = await createTenant();
    let lookups = 0;
    const healGetUser = replaceAuth('getUser', (original) => async (uid: string) => {
      lookups += 1;
      return original(uid);
    });
    try {
      for (let i = 0; i < 3; i += 1)
        assert.equal((await call('GET', '/api/users', { token: tenant.admin.token })).status, 200);
      assert.equal(lookups, 1, 'one Auth lookup per admin per minute, not per request');
      assert.equal((await call('GET', `/api/clients/${tenant.clientId}`, { token: tenant.student.token })).status, 200);
      assert.equal(lookups, 1, 'students are not re-checked on reads');
    } finally {
      healGetUser();
    }
    assert.equal(decodePayload(tenant.admin.token).role, 'client_admin');
  });
});

describe('Authentication: a write’s revocation check, at most once a minute per account and instance', () => {
  // Under the Auth emulator firebase-admin asks Auth on every verification itself: verified from the claims
  // here, so only the service's own check asks, as in production.
  let lookups = 0;
  let heal: () => void;
  beforeEach(() => {
    forgetAccountFacts();
    lookups = 0;
    const healVerify = replaceAuth('verifyIdToken', () => async (token: string) => emulatorClaims(token));
    const healGetUser = replaceAuth('getUser', (original) => async (uid: string) => {
      lookups += 1;
      return original(uid);
    });
    heal = () => {
      healVerify();
      healGetUser();
    };
  });
  afterEach(() => heal());

  const write = (token: string) => call('POST', '/api/attempts', { token, body: {} });

  it('asks Auth about a student once for several writes, not once per write', async () => {
    const tenant = await createTenant();
    lookups = 0;
    for (let i = 0; i < 3; i += 1) expectError(await write(tenant.student.token), 400, 'VALIDATION_ERROR');
    assert.equal(lookups, 1);
  });

  it('refuses at once, on the instance that made the change, the token of a user it disabled', async () => {
    const tenant = await createTenant();
    expectError(await write(tenant.student.token), 400, 'VALIDATION_ERROR');
    const disabled = await call('PATCH', `/api/users/${tenant.student.uid}`, {
      token: tenant.admin.token,
      body: { disabled: true },
    });
    assert.equal(disabled.status, 200, disabled.text);
    const refused = await write(tenant.student.token);
    expectError(refused, 401, 'UNAUTHORIZED');
  });

  it('keeps taking writes from a token revoked elsewhere until its account description is a minute old', async () => {
    const tenant = await createTenant();
    expectError(await write(tenant.student.token), 400, 'VALIDATION_ERROR');
    await new Promise((r) => setTimeout(r, 1100)); // revocation is to the second
    await adminAuth.revokeRefreshTokens(tenant.student.uid);
    expectError(await write(tenant.student.token), 400, 'VALIDATION_ERROR');
    forgetAccountFacts(); // as after ACCOUNT_RECHECK_MS (60 s)
    const refused = await write(tenant.student.token);
    expectError(refused, 401, 'UNAUTHORIZED');
    assert.match(refused.body.message, /revoked/);
  });
});
