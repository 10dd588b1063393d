import assert from 'node:assert/strict';
import { provideEffects } from '../../functions/src/app';
import type { StoredDelivery } from '../../functions/src/outbox/documents';
import { runDue } from '../../functions/src/delivery/engine';
import { newSecret } from '../../functions/src/webhooks/signing';
import { publishTest } from '../attempts/fixtures';
import { as } from '../exams/fixtures';
import { adminDb } from '../support/admin';
import { createTenant, createUser, type TestUser } from '../support/fixtures';
import { post } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { storedWebhook } from '../webhooks/fixtures';
import { startReceiver, type Receiver } from '../webhooks/receiver';

// 1,000 submits in a minute: every one delivered, none lost, none answered 2xx
// twice. The submits go to the app in-process (so the Functions emulator's one
// worker is left to the trigger), the trigger in the emulator fans each event
// out and delivers it; a receiver that fails one request in 50 makes retries,
// which the runner (in-process, clock moved on) completes.

process.env.ALLOW_LOOPBACK_URLS = 'true';
const SUBMITS = Number(process.env.WEBHOOKS_BURST ?? 1000);
const STUDENTS = 50;
const SPREAD_MS = 60_000;

describe('deliveries under a burst of submits', function () {
  this.timeout(15 * 60_000);
  let server: InProcessApi;
  let receiver: Receiver;
  before(async () => {
    provideEffects();
    server = await startInProcessApi({ ratePerMinute: 1_000_000, sensitivePerMinute: 1_000_000 });
    // Every 50th request fails: a retry, with the same webhook-id, must not make a duplicate 2xx.
    receiver = await startReceiver((n) => (n % 50 === 49 ? 503 : 204));
  });
  after(async () => {
    await Promise.all([server.close(), receiver.close()]);
  });

  it(`delivers ${SUBMITS} submits made in a minute: each once to a receiver that answered 2xx, none lost`, async () => {
    const tenant = await createTenant();
    const secret = newSecret();
    receiver.secrets.push(secret);
    await storedWebhook(tenant.clientId, receiver.url, { secret });
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
    const students: TestUser[] = [];
    for (let i = 0; i < STUDENTS; i += 10)
      students.push(...(await Promise.all(Array.from({ length: 10 }, () => createUser('student', tenant.clientId)))));
    const perStudent = Math.ceil(SUBMITS / STUDENTS);
    const gap = SPREAD_MS / perStudent;
    const t0 = Date.now();
    const attemptIds: string[] = [];
    const opts = (token: string) => ({ ...as(token), baseUrl: server.baseUrl });
    await Promise.all(
      students.map(async (student, s) => {
        for (let k = 0; k < perStudent && s * perStudent + k < SUBMITS; k += 1) {
          const due = t0 + k * gap + (gap * s) / STUDENTS;
          await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
          const started = await post('/api/attempts', { test_id: test.id }, opts(student.token));
          assert.ok([200, 201].includes(started.status), started.text);
          const submitted = await post(
            `/api/attempts/${started.body.attempt_id}/submit`,
            undefined,
            opts(student.token),
          );
          assert.equal(submitted.status, 200, submitted.text);
          attemptIds.push(started.body.attempt_id);
        }
      }),
    );
    const submittedIn = Date.now() - t0;
    assert.equal(attemptIds.length, SUBMITS);
    assert.ok(submittedIn < 90_000, `the submits took ${submittedIn} ms`);

    // The trigger delivers; the runner (clock moved past the 5-minute retry) finishes what failed twice.
    const deliveredIds = async () => {
      const snap = await adminDb.collection(`clients/${tenant.clientId}/deliveries`).get();
      return snap.docs.map((d) => d.data() as StoredDelivery);
    };
    const until = Date.now() + 10 * 60_000;
    let deliveries = await deliveredIds();
    while (Date.now() < until && deliveries.filter((d) => d.status === 'delivered').length < SUBMITS) {
      await new Promise((r) => setTimeout(r, 2_000));
      // Only once the trigger has made both its tries of every delivery: moving the clock on would break its leases.
      const triggerDone =
        deliveries.length === SUBMITS &&
        deliveries.every((d) => d.status !== 'pending' || (d.round_tries ?? d.tries) >= 2);
      if (triggerDone) await runDue(Date.now() + 10 * 60_000);
      deliveries = await deliveredIds();
    }
    assert.equal(deliveries.length, SUBMITS, 'one delivery per submit');
    assert.equal(deliveries.filter((d) => d.status === 'delivered').length, SUBMITS, 'every delivery landed');
    const accepted = new Set(receiver.accepted);
    assert.equal(receiver.accepted.length, accepted.size, 'no message answered 2xx twice');
    assert.equal(accepted.size, SUBMITS);
    const attemptsDelivered = new Set(
      receiver.received.filter((r) => r.status === 204).map((r) => JSON.parse(r.body).data.attempt_id as string),
    );
    assert.deepEqual([...attemptsDelivered].sort(), [...attemptIds].sort(), 'every submitted attempt, and only those');
    assert.ok(
      receiver.received.every((r) => r.verifiedWith.length === 1),
      'every request verified',
    );
  });
});
