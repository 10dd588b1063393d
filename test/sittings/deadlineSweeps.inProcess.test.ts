import assert from 'node:assert/strict';
import { runSweep } from '../../functions/src/sittings/sweeps';
import { recordTestExtension } from '../../functions/src/sittings/store';
import { duringFault, failWrites } from '../support/faults';
import { createTenant, createUser } from '../support/fixtures';
import { adminDb } from '../support/admin';
import { attemptDoc, publishTest, startOk } from '../attempts/fixtures';

// A deadline sweep cut short by a backend fault, then resumed as the scheduled
// closer resumes it: run in this process (the sweep's own code, on the
// emulators' Firestore), with the attempts' commits failing part way.

const META = { ip_address: '', user_agent: 'test', request_id: 'deadline-sweeps-test' };

describe('Deadline sweeps: resumed after a backend fault', function () {
  this.timeout(120_000);

  it('gives a sitting-wide extension, once, to every attempt in progress, those the fault stopped included', async () => {
    const tenant = await createTenant();
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
    const students = await Promise.all(Array.from({ length: 6 }, () => createUser('student', tenant.clientId)));
    const started = await Promise.all(
      students.map((s) => startOk(tenant.admin.token, { test_id: test.id, student_id: s.uid })),
    );
    const before = new Map(started.map((a) => [a.attempt_id as string, a.expires_at as string]));

    const sweepId = await recordTestExtension({
      clientId: tenant.clientId,
      testId: test.id,
      minutes: 5,
      by: tenant.admin.uid,
      meta: META,
    });
    // Two attempts' commits go through; every later one fails as in an outage, so the run stops part way.
    const { result: fault } = await duringFault(
      () => failWrites(new RegExp(`^clients/${tenant.clientId}/attempts/`), { skip: 2 }),
      () =>
        runSweep(sweepId).then(
          () => undefined,
          (err: unknown) => err,
        ),
    );
    assert.equal(
      (fault as { code?: number } | undefined)?.code,
      14,
      `the run stops with the backend fault: ${String(fault)}`,
    );
    const cut = (await adminDb.collection('deadline_sweeps').doc(sweepId).get()).data()!;
    assert.equal(cut.pending, true, 'left pending for the closer');

    // The closer resumes it once the outage is over.
    await runSweep(sweepId);
    const sweep = (await adminDb.collection('deadline_sweeps').doc(sweepId).get()).data()!;
    assert.equal(sweep.pending, false);
    assert.equal(sweep.changed, 6, 'each attempt counted once');
    for (const [attemptId, expiresAt] of before) {
      const attempt = (await attemptDoc(tenant.clientId, attemptId).get()).data()!;
      assert.deepEqual(attempt.extensions, { [sweepId]: 5 }, `${attemptId} has the extension, once`);
      assert.equal(
        attempt.expires_at,
        new Date(Date.parse(expiresAt) + 5 * 60_000).toISOString(),
        `${attemptId}'s deadline moved by 5 minutes`,
      );
    }
  });

  it('passes by an attempt already holding 100 extensions, and finishes (not pending) with the others extended', async () => {
    const tenant = await createTenant();
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 1 });
    const [full, other] = await Promise.all([
      createUser('student', tenant.clientId),
      createUser('student', tenant.clientId),
    ]);
    const fullAttempt = await startOk(tenant.admin.token, { test_id: test.id, student_id: full.uid });
    const otherAttempt = await startOk(tenant.admin.token, { test_id: test.id, student_id: other.uid });
    const held = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`earlier-${i}`, 0]));
    await attemptDoc(tenant.clientId, fullAttempt.attempt_id).update({ extensions: held });

    const sweepId = await recordTestExtension({
      clientId: tenant.clientId,
      testId: test.id,
      minutes: 5,
      by: tenant.admin.uid,
      meta: META,
    });
    const result = await runSweep(sweepId);
    assert.equal(result.changed, 1);
    assert.equal((await adminDb.collection('deadline_sweeps').doc(sweepId).get()).get('pending'), false);
    const passedBy = (await attemptDoc(tenant.clientId, fullAttempt.attempt_id).get()).data()!;
    assert.deepEqual(passedBy.extensions, held);
    assert.equal(passedBy.expires_at, fullAttempt.expires_at);
    assert.deepEqual((await attemptDoc(tenant.clientId, otherAttempt.attempt_id).get()).get('extensions'), {
      [sweepId]: 5,
    });
  });
});
