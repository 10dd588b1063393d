import assert from 'node:assert/strict';
import { resumeStaleSweeps, STALE_SWEEP_MS } from '../../functions/src/sittings/sweeps';
import { adminDb } from '../support/admin';
import { expectError } from '../support/assertions';
import { duringFault, failReads, failWrites } from '../support/faults';
import { createTenant, createUser, type TestUser } from '../support/fixtures';
import { api, freshIp, type ApiResponse } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { testDoc } from '../exams/fixtures';
import { attemptDoc, publishTest, slotDoc } from '../attempts/fixtures';
import { plusMinutes } from './crowd';

// The sittings' writes with Firestore failing underneath them (the app served
// in-process against the emulators): each answers 503 SERVICE_UNAVAILABLE in
// the documented error body, never 500 or 401, and leaves nothing half
// written. A change whose own transaction committed before carrying it to the
// attempts failed stands, with its sweep pending, and the scheduled closer
// (resumeStaleSweeps) finishes it.

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
});
after(() => server.close());

const call = (method: string, path: string, token: string, body?: unknown): Promise<ApiResponse> =>
  api(method, path, { token, body, ip: freshIp(), baseUrl: server.baseUrl });

async function running(opts: { extra?: Record<string, unknown> } = {}) {
  const { test } = await publishTest(tenant.admin.token, tenant.clientId, {
    count: 1,
    extra: opts.extra,
    baseUrl: server.baseUrl,
  });
  const student = await createUser('student', tenant.clientId);
  const res = await call('POST', '/api/attempts', student.token, {
    test_id: test.id,
    ...(opts.extra?.access_code ? { access_code: opts.extra.access_code } : {}),
  });
  assert.equal(res.status, 201, res.text);
  return { test, student, started: res.body };
}

const stored = async (attemptId: string) => (await attemptDoc(tenant.clientId, attemptId).get()).data()!;
const sweepsOf = async (field: 'test_id' | 'student_id', id: string) =>
  (await adminDb.collection('deadline_sweeps').where(field, '==', id).get()).docs;

/** Audit records of `type` about `userId` (and naming the test, when given). */
async function auditCount(type: string, userId: string, testId?: string): Promise<number> {
  const snap = await adminDb
    .collection('audit_logs')
    .where('user_id', '==', userId)
    .where('event_type', '==', type)
    .get();
  return snap.docs.filter((doc) => testId === undefined || doc.get('details.test_id') === testId).length;
}

/** As the scheduled closer finds it two minutes after its runner stopped. */
async function resumeAsScheduler(sweepId: string): Promise<void> {
  await adminDb
    .collection('deadline_sweeps')
    .doc(sweepId)
    .update({ updated_at: new Date(Date.now() - STALE_SWEEP_MS - 1_000).toISOString() });
  await resumeStaleSweeps(Date.now());
  assert.equal(
    (await adminDb.collection('deadline_sweeps').doc(sweepId).get()).get('pending'),
    false,
    'the scheduled closer finished the sweep',
  );
}

describe('PATCH /api/tests/{testId} with Firestore failing', function () {
  this.timeout(120_000);

  it('answers 503 and changes nothing when the test cannot be written', async () => {
    const { test, started } = await running();
    const { result } = await duringFault(
      () => failWrites(new RegExp(`^clients/${tenant.clientId}/tests/${test.id}$`)),
      () =>
        call('PATCH', `/api/tests/${test.id}`, tenant.admin.token, {
          closes_at: new Date(Date.now() + 600_000).toISOString(),
        }),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    assert.equal((await testDoc(tenant.clientId, test.id).get()).get('closes_at') ?? null, null);
    assert.equal((await sweepsOf('test_id', test.id)).length, 0);
    assert.equal(await auditCount('test_settings_changed', tenant.admin.uid, test.id), 0);
    assert.equal((await stored(started.attempt_id)).expires_at, started.expires_at);
  });

  it('answers 503 when the attempts cannot be written; the new closes_at stands and the scheduled closer brings the attempts to it', async () => {
    const { test, started } = await running();
    const closesAt = new Date(Date.now() + 5 * 60_000).toISOString();
    const { result } = await duringFault(
      () => failWrites(new RegExp(`^clients/${tenant.clientId}/attempts/`)),
      () => call('PATCH', `/api/tests/${test.id}`, tenant.admin.token, { closes_at: closesAt }),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    assert.equal((await testDoc(tenant.clientId, test.id).get()).get('closes_at'), closesAt);
    assert.equal((await stored(started.attempt_id)).expires_at, started.expires_at, 'not yet carried');
    const [sweep] = await sweepsOf('test_id', test.id);
    assert.equal(sweep.get('pending'), true);
    await resumeAsScheduler(sweep.id);
    assert.equal((await stored(started.attempt_id)).expires_at, closesAt);
  });
});

describe('PUT /api/tests/{testId}/overrides/{studentId} with Firestore failing', function () {
  this.timeout(120_000);

  for (const [what, inject] of [
    [
      'the override cannot be written',
      (test: string, student: string) =>
        failWrites(new RegExp(`^clients/${tenant.clientId}/tests/${test}/overrides/${student}$`)),
    ],
    [
      'the override cannot be read',
      (test: string, student: string) =>
        failReads(new RegExp(`^clients/${tenant.clientId}/tests/${test}/overrides/${student}$`)),
    ],
  ] as const) {
    it(`answers 503 when ${what}: no override, no count, no audit record, the attempt in progress untouched`, async () => {
      const { test, student, started } = await running();
      const { result } = await duringFault(
        () => inject(test.id, student.uid),
        () => call('PUT', `/api/tests/${test.id}/overrides/${student.uid}`, tenant.admin.token, { timer: 90 }),
      );
      expectError(result, 503, 'SERVICE_UNAVAILABLE');
      assert.equal(
        (await testDoc(tenant.clientId, test.id).collection('overrides').doc(student.uid).get()).exists,
        false,
      );
      assert.equal(
        (await testDoc(tenant.clientId, test.id).collection('sitting_counts').doc('overrides').get()).exists,
        false,
      );
      assert.equal(await auditCount('override_set', student.uid), 0);
      assert.equal((await stored(started.attempt_id)).expires_at, started.expires_at);
      // Healed, the same request goes through and reaches the attempt.
      const res = await call('PUT', `/api/tests/${test.id}/overrides/${student.uid}`, tenant.admin.token, {
        timer: 90,
      });
      assert.equal(res.status, 200, res.text);
      assert.equal((await stored(started.attempt_id)).expires_at, plusMinutes(started.started_at, 90));
    });
  }
});

describe('PUT /api/users/{uid}/accommodations with Firestore failing', function () {
  this.timeout(120_000);

  it('answers 503 and writes nothing when the accommodation cannot be written', async () => {
    const { student, started } = await running();
    const { result } = await duringFault(
      () => failWrites(new RegExp(`^clients/${tenant.clientId}/accommodations/${student.uid}$`)),
      () =>
        call('PUT', `/api/users/${student.uid}/accommodations`, tenant.admin.token, {
          extra_time_percent: 50,
          extra_minutes: 0,
        }),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    assert.equal(
      (await adminDb.collection('clients').doc(tenant.clientId).collection('accommodations').doc(student.uid).get())
        .exists,
      false,
    );
    assert.equal(await auditCount('accommodation_set', student.uid), 0);
    assert.equal((await sweepsOf('student_id', student.uid)).length, 0);
    assert.equal((await stored(started.attempt_id)).expires_at, started.expires_at);
  });

  it('answers 503 when the attempts cannot be written; the accommodation stands and the scheduled closer brings the attempt to it', async () => {
    const { student, started } = await running();
    const { result } = await duringFault(
      () => failWrites(new RegExp(`^clients/${tenant.clientId}/attempts/`)),
      () =>
        call('PUT', `/api/users/${student.uid}/accommodations`, tenant.admin.token, {
          extra_time_percent: 50,
          extra_minutes: 0,
        }),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    assert.equal(
      (
        await adminDb.collection('clients').doc(tenant.clientId).collection('accommodations').doc(student.uid).get()
      ).get('extra_time_percent'),
      50,
    );
    assert.equal((await stored(started.attempt_id)).expires_at, started.expires_at, 'not yet carried');
    const [sweep] = await sweepsOf('student_id', student.uid);
    assert.equal(sweep.get('pending'), true);
    await resumeAsScheduler(sweep.id);
    // 45 minutes × 1.5.
    assert.equal((await stored(started.attempt_id)).expires_at, plusMinutes(started.started_at, 67.5));
  });
});

describe('POST /api/attempts/{attemptId}/extend with Firestore failing', function () {
  this.timeout(120_000);

  it('answers 503 and extends nothing when the attempt cannot be written', async () => {
    const { student, started } = await running();
    const { result } = await duringFault(
      () => failWrites(new RegExp(`^clients/${tenant.clientId}/attempts/`)),
      () => call('POST', `/api/attempts/${started.attempt_id}/extend`, tenant.admin.token, { minutes: 10 }),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    const attempt = await stored(started.attempt_id);
    assert.equal(attempt.expires_at, started.expires_at);
    assert.deepEqual(attempt.extensions ?? {}, {});
    assert.equal(await auditCount('attempt_extended', student.uid), 0);
  });
});

describe('POST /api/tests/{testId}/extend with Firestore failing', function () {
  this.timeout(120_000);

  it('answers 503 and records nothing when the extension cannot be recorded', async () => {
    const { test, student, started } = await running();
    const { result } = await duringFault(
      () => failWrites(/^deadline_sweeps\//),
      () => call('POST', `/api/tests/${test.id}/extend`, tenant.admin.token, { minutes: 10 }),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    assert.equal((await sweepsOf('test_id', test.id)).length, 0);
    assert.equal(await auditCount('test_extended', tenant.admin.uid, test.id), 0);
    assert.deepEqual((await stored(started.attempt_id)).extensions ?? {}, {});
    assert.equal(await auditCount('attempt_extended', student.uid), 0);
  });

  it('answers 503 saying the extension is recorded when the attempts cannot be written; the scheduled closer then extends each of them once', async () => {
    const { test, started } = await running();
    const other = await createUser('student', tenant.clientId);
    const second = await call('POST', '/api/attempts', other.token, { test_id: test.id });
    assert.equal(second.status, 201, second.text);
    const { result } = await duringFault(
      () => failWrites(new RegExp(`^clients/${tenant.clientId}/attempts/`)),
      () => call('POST', `/api/tests/${test.id}/extend`, tenant.admin.token, { minutes: 10 }),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    assert.match(result.body.message, /recorded/);
    assert.match(result.body.message, /do not extend again/);
    const [sweep] = await sweepsOf('test_id', test.id);
    assert.equal(sweep.get('pending'), true);
    for (const attemptId of [started.attempt_id, second.body.attempt_id])
      assert.deepEqual((await stored(attemptId)).extensions ?? {}, {});
    await resumeAsScheduler(sweep.id);
    for (const [attemptId, expiresAt] of [
      [started.attempt_id, started.expires_at],
      [second.body.attempt_id, second.body.expires_at],
    ]) {
      const attempt = await stored(attemptId);
      assert.deepEqual(attempt.extensions, { [sweep.id]: 10 });
      assert.equal(attempt.expires_at, plusMinutes(expiresAt, 10));
    }
  });
});

describe('POST /api/attempts on a test with an access code, with Firestore failing', function () {
  this.timeout(120_000);

  const CODE = 'room-42-code';
  const noAttempt = async (testId: string, student: TestUser) => {
    assert.equal((await slotDoc(tenant.clientId, testId, student.uid).get()).exists, false);
    const attempts = await adminDb
      .collection('clients')
      .doc(tenant.clientId)
      .collection('attempts')
      .where('student_id', '==', student.uid)
      .get();
    assert.equal(attempts.size, 0);
  };

  for (const [what, inject] of [
    [
      'the test cannot be read',
      (testId: string) => failReads(new RegExp(`^clients/${tenant.clientId}/tests/${testId}$`)),
    ],
    ['the attempt cannot be written', () => failWrites(new RegExp(`^clients/${tenant.clientId}/attempts/`))],
  ] as const) {
    it(`answers 503 (not 403) when ${what}, and starts nothing; healed, the same start is 201`, async () => {
      const { test } = await publishTest(tenant.admin.token, tenant.clientId, {
        count: 1,
        extra: { access_code: CODE },
        baseUrl: server.baseUrl,
      });
      const student = await createUser('student', tenant.clientId);
      const { result } = await duringFault(
        () => inject(test.id),
        () => call('POST', '/api/attempts', student.token, { test_id: test.id, access_code: CODE }),
      );
      expectError(result, 503, 'SERVICE_UNAVAILABLE');
      await noAttempt(test.id, student);
      const res = await call('POST', '/api/attempts', student.token, { test_id: test.id, access_code: CODE });
      assert.equal(res.status, 201, res.text);
      assert.equal((await slotDoc(tenant.clientId, test.id, student.uid).get()).get('count'), 1);
    });
  }
});
