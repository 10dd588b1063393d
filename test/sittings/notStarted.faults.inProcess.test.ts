import assert from 'node:assert/strict';
import { expectError } from '../support/assertions';
import { countQueries, duringFault, failReads } from '../support/faults';
import { createTenant, createUser, type TestUser } from '../support/fixtures';
import { api, freshIp, type ApiResponse } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { publishTest } from '../attempts/fixtures';
import { addMember, writeClass } from '../exams/classFixtures';

// Who has not started a test while Firestore fails underneath (the app served
// in-process against the emulators): 503 SERVICE_UNAVAILABLE in the documented
// error body, with Retry-After, never a 500 nor a list that would name everyone
// (slots unread read as "not started"). And what one page reads, counted.

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;
let students: TestUser[];
let testId: string;

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
  students = await Promise.all([1, 2, 3, 4, 5].map(() => createUser('student', tenant.clientId)));
  const cls = await writeClass(tenant.clientId);
  for (const s of students) await addMember(tenant.clientId, cls.id, s);
  const { test } = await publishTest(tenant.admin.token, tenant.clientId, {
    count: 1,
    extra: { assigned_class_ids: [cls.id] },
    baseUrl: server.baseUrl,
  });
  testId = test.id;
});
after(() => server.close());

const list = (query = ''): Promise<ApiResponse> =>
  api('GET', `/api/tests/${testId}/not-started${query}`, {
    token: tenant.admin.token,
    ip: freshIp(),
    baseUrl: server.baseUrl,
  });

function expectUnavailable(res: ApiResponse): void {
  expectError(res, 503, 'SERVICE_UNAVAILABLE');
  assert.ok(Number(res.headers.get('retry-after')) >= 1, 'Retry-After is set');
}

describe('GET /api/tests/{testId}/not-started with Firestore failing', function () {
  this.timeout(60_000);

  it('answers 503 when the audience’s profiles cannot be read', async () => {
    const { result } = await duringFault(
      () => failReads(/^clients\/[^/]+\/users$/),
      () => list(),
    );
    expectUnavailable(result);
  });

  it('answers 503 when the attempt slots cannot be read, rather than listing everyone as not started', async () => {
    const { result } = await duringFault(
      () => failReads(/\/attempt_slots\//),
      () => list(),
    );
    expectUnavailable(result);
  });

  it('answers 503 when the test cannot be read', async () => {
    const { result } = await duringFault(
      () => failReads(/\/tests(\/|$)/),
      () => list(),
    );
    expectUnavailable(result);
  });

  it('answers again once Firestore is back', async () => {
    const res = await list();
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.length, students.length);
  });

  it('reads at most limit + 1 profiles for a page, in one query', async () => {
    const counted = countQueries(/^clients\/[^/]+\/users$/);
    try {
      const res = await list('?limit=2');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.length, 2);
    } finally {
      counted.heal();
    }
    assert.equal(counted.queries, 1);
    assert.equal(counted.documents, 3);
  });
});
