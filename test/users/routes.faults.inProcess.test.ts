import assert from 'node:assert/strict';
import { expectError } from '../support/assertions';
import { duringFault, failReads } from '../support/faults';
import { createSuperAdmin, createTenant, createUser, type TestUser } from '../support/fixtures';
import { api, freshIp, type ApiResponse } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';

// Reading users while Firestore fails under the students' standing accommodations (the app served
// in-process against the emulators): the list, its search and the read of one student answer 503
// SERVICE_UNAVAILABLE in the documented error body, with Retry-After, never a page or a user without
// their extra time (a teacher would take "none" for the truth).

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;
let superAdmin: TestUser;
let withExtra: TestUser;

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  [tenant, superAdmin] = await Promise.all([createTenant(), createSuperAdmin()]);
  withExtra = await createUser('student', tenant.clientId);
  const set = await call('PUT', `/api/users/${withExtra.uid}/accommodations`, tenant.admin.token, {
    extra_time_percent: 50,
    extra_minutes: 0,
  });
  assert.equal(set.status, 200, set.text);
});
after(() => server.close());

const call = (method: string, path: string, token: string, body?: unknown): Promise<ApiResponse> =>
  api(method, path, { token, body, ip: freshIp(), baseUrl: server.baseUrl });

function expectUnavailable(res: ApiResponse): void {
  expectError(res, 503, 'SERVICE_UNAVAILABLE');
  assert.ok(Number(res.headers.get('retry-after')) >= 1, 'Retry-After is set');
}

const accommodations = () => failReads(/^clients\/[^/]+\/accommodations\//);

describe('GET /api/users with the accommodations unreadable', function () {
  this.timeout(60_000);

  it('the list → 503, not a page without the extra time; healed, the same request lists it', async () => {
    const { result } = await duringFault(accommodations, () => call('GET', '/api/users', tenant.admin.token));
    expectUnavailable(result);
    assert.equal(result.body.data, undefined, 'no page at all');
    const again = await call('GET', '/api/users', tenant.admin.token);
    assert.equal(again.status, 200, again.text);
    const listed = again.body.data.find((u: { uid: string }) => u.uid === withExtra.uid);
    assert.deepEqual(listed.accommodation, { extra_time_percent: 50, extra_minutes: 0 });
  });

  it('a search, and a Super Admin’s list of the organization → 503', async () => {
    for (const [path, token] of [
      [`/api/users?q=${encodeURIComponent(withExtra.email)}`, tenant.admin.token],
      [`/api/users?client_id=${tenant.clientId}&role=student`, superAdmin.token],
    ]) {
      const { result } = await duringFault(accommodations, () => call('GET', path, token));
      expectUnavailable(result);
    }
  });

  it('GET /api/users/{uid} of a student → 503', async () => {
    const { result } = await duringFault(accommodations, () =>
      call('GET', `/api/users/${withExtra.uid}`, tenant.admin.token),
    );
    expectUnavailable(result);
  });

  it('a page with no student reads no accommodation: the Super Admins’ list answers 200', async () => {
    const { result } = await duringFault(accommodations, () =>
      call('GET', '/api/users?role=super_admin', superAdmin.token),
    );
    assert.equal(result.status, 200, result.text);
  });
});
