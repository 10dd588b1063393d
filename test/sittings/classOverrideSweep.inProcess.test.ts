import assert from 'node:assert/strict';
import { adminDb } from '../support/admin';
import { createTenant, createUser } from '../support/fixtures';
import { api, freshIp } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { publishTest, startOk } from '../attempts/fixtures';
import { addMember, writeClass } from '../exams/classFixtures';

// A class override's new closes_at reaches the attempts in progress of the class's
// students through the test-wide sweep (as a moved closes_at does), before the reply:
// by the classes each attempt started in, not by the class's members now.

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
});
after(() => server.close());

const MIN = 60_000;
const call = (method: string, path: string, body?: unknown) =>
  api(method, path, { token: tenant.admin.token, body, ip: freshIp(), baseUrl: server.baseUrl });
const attemptOf = async (attemptId: string) =>
  (await adminDb.collection('clients').doc(tenant.clientId).collection('attempts').doc(attemptId).get()).data()!;

describe('PUT /api/tests/{testId}/class-overrides/{classId}: reaching running attempts', function () {
  this.timeout(60_000);

  it('brings the class’s running attempts to its new closes_at, leaves the others, and finishes its sweep', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 1, extra: { timer: 60 } });
    const cls = await writeClass(tenant.clientId);
    const [member, joinedLater, outsider] = await Promise.all(
      [1, 2, 3].map(() => createUser('student', tenant.clientId)),
    );
    await addMember(tenant.clientId, cls.id, member);
    const started = await Promise.all(
      [member, joinedLater, outsider].map((s) =>
        startOk(s.token, { test_id: test.id }, { baseUrl: server.baseUrl, ip: freshIp() }),
      ),
    );
    // In the class now, but not when its attempt started: its attempt keeps the terms it started with.
    await addMember(tenant.clientId, cls.id, joinedLater);

    const closesAt = new Date(Date.now() + 10 * MIN).toISOString();
    const res = await call('PUT', `/api/tests/${test.id}/class-overrides/${cls.id}`, { closes_at: closesAt });
    assert.equal(res.status, 200, res.text);

    assert.equal((await attemptOf(started[0].attempt_id)).expires_at, closesAt);
    assert.equal((await attemptOf(started[1].attempt_id)).expires_at, started[1].expires_at);
    assert.equal((await attemptOf(started[2].attempt_id)).expires_at, started[2].expires_at);
    const slot = await adminDb
      .collection('clients')
      .doc(tenant.clientId)
      .collection('tests')
      .doc(test.id)
      .collection('attempt_slots')
      .doc(member.uid)
      .get();
    assert.equal(slot.get('in_progress.expires_at'), closesAt);
    const sweeps = await adminDb.collection('deadline_sweeps').where('test_id', '==', test.id).get();
    assert.equal(sweeps.size, 1);
    assert.equal(sweeps.docs[0].get('reason'), 'class_override_changed');
    assert.equal(sweeps.docs[0].get('pending'), false);
    assert.equal(sweeps.docs[0].get('changed'), 1);

    // The same values again change nothing, and record no sweep.
    assert.equal(
      (await call('PUT', `/api/tests/${test.id}/class-overrides/${cls.id}`, { closes_at: closesAt })).status,
      200,
    );
    assert.equal((await adminDb.collection('deadline_sweeps').where('test_id', '==', test.id).get()).size, 1);
  });
});
