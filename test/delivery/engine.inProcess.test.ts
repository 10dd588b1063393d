import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { provideEffects } from '../../functions/src/app';
import type { StoredDelivery, StoredEvent } from '../../functions/src/outbox/documents';
import { fanOut, runDue } from '../../functions/src/delivery/engine';
import { LEASE_MS } from '../../functions/src/delivery/retry';
import { messageIdOf } from '../../functions/src/delivery/store';
import type { StoredWebhook } from '../../functions/src/webhooks/documents';
import { publishTest, startOk } from '../attempts/fixtures';
import { as } from '../exams/fixtures';
import { adminDb } from '../support/admin';
import { loggedDuring } from '../support/faults';
import { createTenant } from '../support/fixtures';
import { post } from '../support/http';
import { storedWebhook } from '../webhooks/fixtures';
import { startReceiver, type Receiver } from '../webhooks/receiver';

// The delivery engine against the emulators. The Functions emulator's Firestore
// trigger fans every event out and makes the first tries (it fires there: see
// docs/integrations.md); the scheduled runner, which the emulators do not run,
// is run here in-process with an explicit clock, so hours of retries take seconds.

process.env.ALLOW_LOOPBACK_URLS = 'true';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const addWebhook = (clientId: string, url: string, events?: StoredWebhook['events']) =>
  storedWebhook(clientId, url, { events });

async function submitOne(tenant: Tenant, testId: string, baseUrl?: string): Promise<string> {
  const started = await startOk(tenant.student.token, { test_id: testId }, baseUrl ? { baseUrl } : {});
  const res = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, {
    ...as(tenant.student.token),
    ...(baseUrl ? { baseUrl } : {}),
  });
  assert.equal(res.status, 200, res.text);
  return started.attempt_id;
}

const deliveriesOf = async (clientId: string) =>
  (await adminDb.collection(`clients/${clientId}/deliveries`).get()).docs.map((d) => d.data() as StoredDelivery);

async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the delivery engine', function () {
  this.timeout(120_000);
  let receivers: Receiver[] = [];
  const receiver = async (respond?: Parameters<typeof startReceiver>[0]) => {
    const r = await startReceiver(respond);
    receivers.push(r);
    return r;
  };
  before(() => provideEffects());
  afterEach(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    receivers = [];
  });

  it('retries a receiver that fails 3 times: the 4th try lands, every try with the same webhook-id, delivered once', async () => {
    const tenant = await createTenant();
    const rx = await receiver((n) => (n < 3 ? 500 : 204));
    const hook = await addWebhook(tenant.clientId, rx.url);
    rx.secrets.push(hook.secrets[0].secret);
    const { test } = await publishTest(tenant.admin.token, tenant.clientId);
    await submitOne(tenant, test.id);
    // The trigger: at once, then after 5 s.
    await rx.waitFor(2, 30_000);
    const t0 = Date.now();
    await runDue(t0 + 6 * 60_000); // the 5-minute retry
    await runDue(t0 + 40 * 60_000); // the 30-minute retry
    assert.equal(rx.received.length, 4);
    assert.deepEqual(
      rx.received.map((r) => r.status),
      [500, 500, 500, 204],
    );
    assert.equal(new Set(rx.received.map((r) => r.id)).size, 1, 'one webhook-id on every try');
    assert.ok(rx.received.every((r) => r.verifiedWith.length === 1));
    assert.equal(new Set(rx.received.map((r) => r.body)).size, 1, 'the same body on every try');
    const [delivery] = await deliveriesOf(tenant.clientId);
    assert.deepEqual([delivery.status, delivery.tries, delivery.last_code], ['delivered', 4, 204]);
    assert.deepEqual(
      delivery.history.map((h) => h.code),
      [500, 500, 500, 204],
    );
    await runDue(t0 + 20 * 3_600_000);
    assert.equal(rx.received.length, 4, 'nothing more once delivered');
  });

  it('disables an endpoint that answers 410, audited as webhook_disabled; nothing more is planned for it', async () => {
    const tenant = await createTenant();
    const rx = await receiver(() => 410);
    const hook = await addWebhook(tenant.clientId, rx.url);
    const { test } = await publishTest(tenant.admin.token, tenant.clientId);
    await submitOne(tenant, test.id);
    const stored = await until(async () => {
      const w = (await adminDb.doc(`clients/${tenant.clientId}/webhooks/${hook.id}`).get()).data() as StoredWebhook;
      return w.active ? undefined : w;
    });
    assert.match(stored.disabled_reason ?? '', /410/);
    const [delivery] = await deliveriesOf(tenant.clientId);
    assert.deepEqual([delivery.status, delivery.tries, delivery.last_code], ['failed', 1, 410]);
    const audits = (await adminDb.collection('audit_logs').where('client_id', '==', tenant.clientId).get()).docs
      .map((d) => d.data())
      .filter((a) => a.event_type === 'webhook_disabled');
    assert.equal(audits.length, 1);
    await submitOne(tenant, test.id);
    await new Promise((r) => setTimeout(r, 3_000));
    assert.equal(rx.received.length, 1, 'a disabled endpoint gets nothing more');
  });

  it('cuts a receiver that takes 20 s at 15 s and tries again (5 s later), which lands', async () => {
    const tenant = await createTenant();
    const rx = await receiver((n) => (n === 0 ? { status: 204, delayMs: 20_000 } : 204));
    await addWebhook(tenant.clientId, rx.url);
    const { test } = await publishTest(tenant.admin.token, tenant.clientId);
    await submitOne(tenant, test.id);
    const delivery = await until(async () => {
      const [d] = await deliveriesOf(tenant.clientId);
      return d?.status === 'delivered' ? d : undefined;
    }, 60_000);
    assert.equal(delivery.tries, 2);
    const [cut, landed] = delivery.history;
    assert.equal(cut.code, null);
    assert.match(cut.error ?? '', /No answer within 15 s/);
    assert.ok(cut.ms >= 14_900 && cut.ms < 17_000, `cut after ${cut.ms} ms`);
    assert.equal(landed.code, 204);
    assert.deepEqual(rx.accepted.length, 1);
  });

  it('loses nothing when the fan-out crashes after the change: the runner fans the event out and delivers it', async () => {
    const tenant = await createTenant();
    const rx = await receiver(() => 204);
    const hook = await addWebhook(tenant.clientId, rx.url);
    const { test } = await publishTest(tenant.admin.token, tenant.clientId);
    // An endpoint document the plan cannot read makes the trigger's fan-out throw after the submit committed.
    await adminDb.doc(`clients/${tenant.clientId}/webhooks/${hook.id}`).update({ events: 42 });
    const attemptId = await submitOne(tenant, test.id);
    const event = await until(async () => {
      const snap = await adminDb
        .collection(`clients/${tenant.clientId}/events`)
        .where('type', '==', 'attempt.submitted')
        .get();
      return snap.empty ? undefined : snap.docs[0].data();
    });
    await new Promise((r) => setTimeout(r, 2_000));
    assert.equal(event.fanned_out, false);
    assert.equal(rx.received.length, 0);
    assert.equal((await deliveriesOf(tenant.clientId)).length, 0);
    await adminDb.doc(`clients/${tenant.clientId}/webhooks/${hook.id}`).update({ events: ['attempt.submitted'] });
    const run = await runDue(Date.now() + 2 * 60_000);
    assert.ok(run.fannedOut >= 1);
    assert.equal(rx.accepted.length, 1);
    assert.equal(JSON.parse(rx.received[0].body).data.attempt_id, attemptId);
    await runDue(Date.now() + 3 * 60_000);
    assert.equal(rx.received.length, 1, 'fanned out once');
    assert.equal((await adminDb.doc(`clients/${tenant.clientId}/events/${event.id}`).get()).get('fanned_out'), true);
  });

  it('sets aside an event whose fan-out keeps failing, after 10 runs, with the error kept', async () => {
    const tenant = await createTenant();
    const rx = await receiver(() => 204);
    const hook = await addWebhook(tenant.clientId, rx.url);
    const { test } = await publishTest(tenant.admin.token, tenant.clientId);
    await adminDb.doc(`clients/${tenant.clientId}/webhooks/${hook.id}`).update({ events: 42 });
    await submitOne(tenant, test.id);
    const eventRef = await until(async () => {
      const snap = await adminDb
        .collection(`clients/${tenant.clientId}/events`)
        .where('type', '==', 'attempt.submitted')
        .get();
      return snap.empty ? undefined : snap.docs[0].ref;
    });
    const { entries } = await loggedDuring(async () => {
      for (let run = 1; run <= 10; run += 1) await runDue(Date.now() + 2 * 60_000);
    });
    assert.ok(
      entries.some((e) => e.message === 'outbox_fan_out_given_up'),
      'given up, logged as an error',
    );
    const event = (await eventRef.get()).data()!;
    assert.equal(event.fanned_out, true);
    assert.equal(event.fan_out_failures, 10);
    assert.match(event.fan_out_error, /includes|not a function/);
    assert.equal(rx.received.length, 0);
  });

  it('loses nothing when a try dies after its delivery was made: due again after its lease, tried once', async () => {
    const tenant = await createTenant();
    const rx = await receiver(() => 204);
    const hook = await addWebhook(tenant.clientId, rx.url);
    rx.secrets.push(hook.secrets[0].secret);
    const nowMs = Date.now();
    const id = `evt-${randomUUID()}~webhook-${hook.id}`;
    const delivery: Omit<StoredDelivery, 'expires_at'> = {
      id,
      client_id: tenant.clientId,
      event_id: 'evt',
      event_type: 'attempt.submitted',
      message_id: messageIdOf(id),
      target: { kind: 'webhook', webhook_id: hook.id },
      payload: '{"type":"attempt.submitted","timestamp":"2026-01-01T00:00:00.000Z","data":{}}',
      status: 'pending',
      tries: 0,
      round_tries: 0,
      // As the fan-out left it: held for its own first try, which never happened.
      next_try_at: new Date(nowMs + LEASE_MS).toISOString(),
      last_code: null,
      last_error: null,
      history: [],
      created_at: new Date(nowMs).toISOString(),
      updated_at: new Date(nowMs).toISOString(),
    };
    await adminDb.doc(`clients/${tenant.clientId}/deliveries/${id}`).set(delivery);
    await runDue(nowMs + 10_000);
    assert.equal(rx.received.length, 0, 'not while the lease holds');
    await Promise.all([runDue(nowMs + LEASE_MS + 1_000), runDue(nowMs + LEASE_MS + 1_000)]);
    assert.equal(rx.received.length, 1, 'two runners at once: one try');
    assert.deepEqual(rx.received[0].verifiedWith, [0]);
  });

  it('fans each event out on its own: one organization’s hanging receiver does not hold up another’s first try', async () => {
    // Production's shape: every event is its own invocation of fanOutEvent, run side by side (80 at
    // once on an instance, more instances beside it), so here the two fan-outs run at once in one
    // process. The Functions emulator's trigger cannot show this: the Firestore emulator hands it
    // the events one at a time (docs/integrations.md).
    const [hung, quiet] = await Promise.all([createTenant(), createTenant()]);
    const hanging = await receiver(() => ({ status: 204, delayMs: 60_000 }));
    const fast = await receiver(() => 204);
    const published = async (tenant: Tenant) => {
      const { test } = await publishTest(tenant.admin.token, tenant.clientId);
      // The publish's own event, fanned out by the trigger while the organization had no endpoint.
      return until(async () => {
        const snap = await adminDb
          .collection(`clients/${tenant.clientId}/events`)
          .where('test_id', '==', test.id)
          .where('type', '==', 'test.published')
          .get();
        const event = snap.docs[0]?.data() as StoredEvent | undefined;
        return event?.fanned_out ? event : undefined;
      }, 90_000);
    };
    const [hungEvent, quietEvent] = await Promise.all([published(hung), published(quiet)]);
    await Promise.all([
      addWebhook(hung.clientId, hanging.url, ['test.published']),
      addWebhook(quiet.clientId, fast.url, ['test.published']),
    ]);
    const hungFanOut = fanOut(hungEvent);
    await until(async () => (hanging.arrived() > 0 ? true : undefined), 10_000);
    const started = Date.now();
    const quietFanOut = fanOut(quietEvent);
    await fast.waitFor(1, 10_000);
    const waited = Date.now() - started;
    assert.equal(fast.accepted.length, 1);
    assert.ok(waited < 5_000, `the quiet organization waited ${waited} ms`);
    assert.equal((await quietFanOut).created, 1);
    const [delivered] = await deliveriesOf(quiet.clientId);
    assert.equal(delivered.status, 'delivered');
    assert.equal(hanging.accepted.length, 0, 'the other one still hangs');
    await hanging.close();
    await hungFanOut;
  });

  it('takes organizations in turn: one with a hanging backlog does not delay another’s delivery', async () => {
    const [busy, quiet] = await Promise.all([createTenant(), createTenant()]);
    const hanging = await receiver(() => ({ status: 204, delayMs: 60_000 }));
    const fast = await receiver(() => 204);
    const [busyHook, quietHook] = await Promise.all([
      addWebhook(busy.clientId, hanging.url),
      addWebhook(quiet.clientId, fast.url),
    ]);
    const nowMs = Date.now();
    const due = (clientId: string, hookId: string, n: number) => {
      const id = `evt-${randomUUID()}~webhook-${hookId}`;
      return adminDb.doc(`clients/${clientId}/deliveries/${id}`).set({
        id,
        client_id: clientId,
        event_id: 'evt',
        event_type: 'attempt.submitted',
        message_id: messageIdOf(id),
        target: { kind: 'webhook', webhook_id: hookId },
        payload: '{}',
        status: 'pending',
        tries: 0,
        round_tries: 0,
        // The busy organization's are all older: a queue by due time alone would serve them first.
        next_try_at: new Date(nowMs - 60_000 + n).toISOString(),
        last_code: null,
        last_error: null,
        history: [],
        created_at: new Date(nowMs).toISOString(),
        updated_at: new Date(nowMs).toISOString(),
      });
    };
    await Promise.all(Array.from({ length: 60 }, (_, n) => due(busy.clientId, busyHook.id, n)));
    await due(quiet.clientId, quietHook.id, 1_000);
    const started = Date.now();
    const run = runDue(nowMs);
    await fast.waitFor(1, 10_000);
    const inFlight = hanging.arrived();
    const waited = Date.now() - started;
    assert.equal(fast.accepted.length, 1);
    assert.ok(waited < 5_000, `the quiet organization waited ${waited} ms`);
    // Let the hanging tries end (connections cut), and the run with them.
    await hanging.close();
    await run;
    assert.ok(inFlight <= 4, `at most 4 tries of one organization at once (${inFlight} arrived)`);
  });
});
