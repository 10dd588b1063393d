import assert from 'node:assert/strict';
import { forgetAccountFacts } from '../../functions/src/http/authenticate';
import { adminAuth } from '../support/admin';
import { expectError } from '../support/assertions';
import { replaceAuth } from '../support/faults';
import { createTenant, waitPastAuthTime } from '../support/fixtures';
import { api, freshIp, type ApiResponse } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { decodePayload } from '../support/tokens';

// The console changes whose reaction differs between the Auth emulator and
// production: production's verifyIdToken checks a signature locally and asks
// Auth about revocation only when told to (on writes), where the emulator asks
// on every call. Here the real app runs in-process with verification made as in
// production (reads decode the token, writes still ask the Auth emulator), so a
// Student's reads are seen to last until its ID token expires.

// Inside one describe: hooks at the top level of a file would be mocha root hooks,
// and would replace token verification for every other spec in the run.
describe('Console changes, with tokens verified as in production', () => {
  let server: InProcessApi;
  let healVerify: () => void;
  before(async () => {
    server = await startInProcessApi();
  });
  after(() => server.close());
  beforeEach(() => {
    forgetAccountFacts();
    healVerify = replaceAuth('verifyIdToken', (original) => async (token: string, checkRevoked?: boolean) => {
      if (checkRevoked) return original(token, true);
      const payload = decodePayload(token);
      return { ...payload, uid: payload.sub };
    });
  });
  afterEach(() => healVerify());

  const call = (method: string, path: string, token: string): Promise<ApiResponse> =>
    api(method, path, { token, ip: freshIp(), baseUrl: server.baseUrl });

  /** The Student still reads its organization (GET, no revocation check) and cannot write (starting an attempt). */
  async function expectReadsServedAndWritesRefused(
    tenant: Awaited<ReturnType<typeof createTenant>>,
    reason: RegExp,
  ): Promise<void> {
    const read = await call('GET', `/api/clients/${tenant.clientId}`, tenant.student.token);
    assert.equal(read.status, 200, read.text);
    const write = await api('POST', '/api/attempts', {
      token: tenant.student.token,
      ip: freshIp(),
      baseUrl: server.baseUrl,
      body: { test_id: 'any-test' },
    });
    expectError(write, 401, 'UNAUTHORIZED');
    assert.match(write.body.message, reason);
  }

  describe('Console (as in production): disable a user in Authentication', () => {
    it('keeps serving a disabled Student’s reads until its ID token expires, and refuses its writes with 401 at once', async () => {
      const tenant = await createTenant();
      await adminAuth.updateUser(tenant.student.uid, { disabled: true });
      await expectReadsServedAndWritesRefused(tenant, /disabled/);
    });

    it('refuses a disabled Client Admin’s reads with 401 once its account is re-checked (at most 60 s)', async () => {
      const tenant = await createTenant();
      assert.equal((await call('GET', '/api/users', tenant.admin.token)).status, 200);
      await adminAuth.updateUser(tenant.admin.uid, { disabled: true });
      forgetAccountFacts(); // as ACCOUNT_RECHECK_MS (60 s) later
      expectError(await call('GET', '/api/users', tenant.admin.token), 401, 'UNAUTHORIZED');
    });
  });

  describe('Console (as in production): delete a user in Authentication', () => {
    it('keeps serving a deleted Student’s reads until its ID token expires, and refuses its writes with 401 at once', async () => {
      const tenant = await createTenant();
      await adminAuth.deleteUser(tenant.student.uid);
      await expectReadsServedAndWritesRefused(tenant, /revoked/);
    });
  });

  describe('Console (as in production): revoke refresh tokens', () => {
    it('keeps serving a revoked Student’s reads until its ID token expires, and refuses its writes with 401 at once', async () => {
      const tenant = await createTenant();
      await waitPastAuthTime(tenant.student.token); // revocation is to the second
      await adminAuth.revokeRefreshTokens(tenant.student.uid);
      await expectReadsServedAndWritesRefused(tenant, /revoked/);
    });
  });
});
