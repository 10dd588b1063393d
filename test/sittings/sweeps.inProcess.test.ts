import assert from 'node:assert/strict';
import type { DocumentSnapshot } from 'firebase-admin/firestore';
import { resumeStaleSweeps, runSweep, STALE_SWEEP_MS } from '../../functions/src/sittings/sweeps';
import { recordTestExtension } from '../../functions/src/sittings/store';
import { adminDb } from '../support/admin';
import { failWrites } from '../support/faults';
import { createTenant, createUser } from '../support/fixtures';
import { api, freshIp, type ApiResponse } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { publishTest, slotDoc } from '../attempts/fixtures';
import { plusMinutes, seedAttempts, storedAttempts, submissionCommits, untilAnswered } from './crowd';

// Deadline sweeps (sittings/sweeps.ts) at the size of a sitting: a
// sitting-wide extension pressed over 1,000 attempts in progress while their
// takers save and submit, and a sweep whose runner stopped part way, finished
// by the scheduled closer's resumeStaleSweeps. The app is served in-process so
// that requests truly overlap; the sweeps' own functions are called directly
// where the scheduler would call them.

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
});
after(() => server.close());

const retries = { count: 0 };
const call = (method: string, path: string, token: string, body?: unknown): Promise<ApiResponse> =>
  untilAnswered(() => api(method, path, { token, body, ip: freshIp(), baseUrl: server.baseUrl }), retries);
const later = <T>(ms: number, send: () => Promise<T>): Promise<T> =>
  new Promise((resolve, reject) => setTimeout(() => send().then(resolve, reject), ms));
const META = { ip_address: '192.0.2.1', user_agent: 'sweeps test', request_id: 'sweeps-test' };

const sweepOf = async (testId: string): Promise<DocumentSnapshot | undefined> =>
  (await adminDb.collection('deadline_sweeps').where('test_id', '==', testId).limit(1).get()).docs[0];

async function extendedRecordsOf(sweepId: string): Promise<number> {
  return (
    await adminDb
      .collection('audit_logs')
      .where('event_type', '==', 'attempt_extended')
      .where('details.sweep_id', '==', sweepId)
      .count()
      .get()
  ).data().count;
}

describe('POST /api/tests/{testId}/extend: the fire alarm over 1,000 attempts in progress', function () {
  this.timeout(600_000);

  it('gives each attempt still in progress the minutes exactly once, leaves each submitted one as its submit left it, keeps every answer acknowledged, and passes over attempts started after the press', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 3 });
    const seedStart = Date.now();
    const seeded = await seedAttempts(tenant.clientId, test, 1_000);
    const seedMs = Date.now() - seedStart;
    const submitting = seeded.slice(0, 40);
    const saving = seeded.slice(40, 80);
    const latecomers = await Promise.all(Array.from({ length: 8 }, () => createUser('student', tenant.clientId)));

    const pressedAt = Date.now();
    const pressing = api('POST', `/api/tests/${test.id}/extend`, {
      token: tenant.admin.token,
      body: { minutes: 15 },
      ip: freshIp(),
      baseUrl: server.baseUrl,
    }).then((res) => ({
      res,
      ms: Date.now() - pressedAt,
    }));
    // Saves and submits land over the first seconds of the sweep, in no order.
    const submits = submitting.map((a) =>
      later(Math.random() * 4_000, () => call('POST', `/api/attempts/${a.id}/submit`, tenant.admin.token)),
    );
    const saves = saving.map((a) =>
      later(Math.random() * 4_000, () =>
        call('POST', `/api/attempts/${a.id}/answers`, tenant.admin.token, {
          question_id: a.question_order[1],
          student_answer: `kept ${a.id}`,
        }),
      ),
    );
    // Once the press is recorded, students start: their attempts are not the sitting's the proctor extended.
    let sweep: DocumentSnapshot | undefined;
    while (!(sweep = await sweepOf(test.id))) await new Promise((resolve) => setTimeout(resolve, 20));
    const recordedMs = Date.now() - pressedAt;
    const late = await Promise.all(
      latecomers.map(async (student) => {
        const res = await call('POST', '/api/attempts', student.token, { test_id: test.id });
        assert.equal(res.status, 201, res.text);
        return res.body;
      }),
    );
    const [{ res: press, ms: pressMs }, submitted, saved] = await Promise.all([
      pressing,
      Promise.all(submits),
      Promise.all(saves),
    ]);
    assert.equal(press.status, 200, press.text);
    const sweepId = sweep.id;
    const done = (await adminDb.collection('deadline_sweeps').doc(sweepId).get()).data()!;
    assert.equal(done.pending, false);

    const stored = await storedAttempts(
      tenant.clientId,
      seeded.map((a) => a.id),
    );
    let received = 0;
    let submittedFirst = 0;
    for (const [i, seed] of seeded.entries()) {
      const snap = stored.get(seed.id)!;
      const attempt = snap.data()!;
      const has = attempt.extensions?.[sweepId] !== undefined;
      if (has) received += 1;
      if (i < submitting.length) {
        assert.equal(submitted[i].status, 200, submitted[i].text);
        assert.equal(attempt.status, 'submitted');
        assert.equal(attempt.submitted_by, 'admin');
        const commits = await submissionCommits(seed.student_id, seed.id);
        assert.equal(commits.length, 1, 'scored once');
        assert.ok(
          snap.updateTime!.isEqual(commits[0].createTime!),
          `submitted attempt ${seed.id} was written after its submission`,
        );
        assert.deepEqual(attempt.extensions ?? {}, has ? { [sweepId]: 15 } : {});
        assert.equal(attempt.expires_at, plusMinutes(seed.expires_at, has ? 15 : 0));
        if (!has) submittedFirst += 1;
        continue;
      }
      assert.equal(attempt.status, 'in_progress', `attempt ${seed.id}`);
      assert.deepEqual(attempt.extensions, { [sweepId]: 15 }, `attempt ${seed.id} received the minutes once`);
      assert.equal(attempt.expires_at, plusMinutes(seed.expires_at, 15));
      if (i < submitting.length + saving.length) {
        assert.equal(saved[i - submitting.length].status, 200, saved[i - submitting.length].text);
        assert.equal(
          attempt.answers[seed.question_order[1]]?.answer,
          `kept ${seed.id}`,
          'the answer acknowledged is kept',
        );
      }
    }
    // The slots keep the deadline for a start's resume-or-close decision.
    const slots = await adminDb.getAll(
      ...seeded.slice(submitting.length).map((a) => slotDoc(tenant.clientId, test.id, a.student_id)),
    );
    slots.forEach((slot, k) =>
      assert.equal(slot.get('in_progress.expires_at'), plusMinutes(seeded[submitting.length + k].expires_at, 15)),
    );

    const lateStored = await storedAttempts(
      tenant.clientId,
      late.map((a) => a.attempt_id),
    );
    for (const started of late) {
      const attempt = lateStored.get(started.attempt_id)!.data()!;
      assert.equal(attempt.status, 'in_progress');
      assert.deepEqual(attempt.extensions ?? {}, {}, 'an attempt started after the press is not extended');
      assert.equal(attempt.expires_at, started.expires_at);
    }
    assert.equal(press.body.extended, received);
    assert.equal(done.changed, received);
    assert.equal(await extendedRecordsOf(sweepId), received);
    console.log(
      `      (seeded 1,000 attempts in ${seedMs} ms; the press was recorded after ${recordedMs} ms and answered {extended: ${received}} after ${pressMs} ms; ` +
        `${submittedFirst} of ${submitting.length} submits landed before the sweep reached their attempt; ${retries.count} requests sent again after a 503)`,
    );
  });
});

describe('A deadline sweep whose runner stopped part way', function () {
  this.timeout(300_000);

  it('is finished by resumeStaleSweeps once untouched for 2 minutes: every attempt ends extended exactly once and the sweep is done', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 1 });
    const seeded = await seedAttempts(tenant.clientId, test, 450);
    const sweepId = await recordTestExtension({
      clientId: tenant.clientId,
      testId: test.id,
      minutes: 10,
      by: tenant.admin.uid,
      meta: META,
    });
    // The runner dies after 100 attempts: every commit on an attempt from then on fails, as in an outage.
    const heal = failWrites(new RegExp(`^clients/${tenant.clientId}/attempts/`), { skip: 100 });
    try {
      await assert.rejects(runSweep(sweepId), /UNAVAILABLE/);
    } finally {
      heal();
    }
    const ref = adminDb.collection('deadline_sweeps').doc(sweepId);
    const extendedNow = async () =>
      [
        ...(
          await storedAttempts(
            tenant.clientId,
            seeded.map((a) => a.id),
          )
        ).values(),
      ].filter((s) => s.get('extensions')?.[sweepId] !== undefined);
    assert.equal((await extendedNow()).length, 100, 'stopped after 100 attempts');
    assert.equal((await ref.get()).get('pending'), true);

    // Not yet stale: the scheduled closer leaves it to its runner.
    await resumeStaleSweeps(Date.now());
    assert.equal((await ref.get()).get('pending'), true);
    assert.equal((await extendedNow()).length, 100);

    await ref.update({ updated_at: new Date(Date.now() - STALE_SWEEP_MS - 1_000).toISOString() });
    await resumeStaleSweeps(Date.now());
    const finished = (await ref.get()).data()!;
    assert.equal(finished.pending, false);
    assert.equal(finished.changed, 450);
    const stored = await storedAttempts(
      tenant.clientId,
      seeded.map((a) => a.id),
    );
    for (const seed of seeded) {
      const attempt = stored.get(seed.id)!.data()!;
      assert.deepEqual(attempt.extensions, { [sweepId]: 10 }, `attempt ${seed.id} extended exactly once`);
      assert.equal(attempt.expires_at, plusMinutes(seed.expires_at, 10));
    }
    assert.equal(await extendedRecordsOf(sweepId), 450);

    // Run again once done: nothing moves.
    assert.deepEqual(await runSweep(sweepId), { changed: 450, closed: 0 });
    const again = await storedAttempts(
      tenant.clientId,
      seeded.map((a) => a.id),
    );
    for (const seed of seeded)
      assert.ok(again.get(seed.id)!.updateTime!.isEqual(stored.get(seed.id)!.updateTime!), 'not written again');
  });

  it('extends each attempt once when two runners carry the same sweep at once', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 1 });
    const seeded = await seedAttempts(tenant.clientId, test, 400);
    const sweepId = await recordTestExtension({
      clientId: tenant.clientId,
      testId: test.id,
      minutes: 6,
      by: tenant.admin.uid,
      meta: META,
    });
    const [first, second] = await Promise.all([runSweep(sweepId), runSweep(sweepId)]);
    assert.equal(first.changed + second.changed, 400, 'each attempt counted by the runner that extended it');
    const stored = await storedAttempts(
      tenant.clientId,
      seeded.map((a) => a.id),
    );
    for (const seed of seeded) {
      const attempt = stored.get(seed.id)!.data()!;
      assert.deepEqual(attempt.extensions, { [sweepId]: 6 });
      assert.equal(attempt.expires_at, plusMinutes(seed.expires_at, 6));
    }
    assert.equal(await extendedRecordsOf(sweepId), 400);
    const sweep = (await adminDb.collection('deadline_sweeps').doc(sweepId).get()).data()!;
    assert.equal(sweep.pending, false);
    assert.equal(sweep.changed, 400);
  });
});
