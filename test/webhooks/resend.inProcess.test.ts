import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { provideEffects } from '../../functions/src/app';
import type { Principal } from '../../functions/src/auth/principal';
import type { StoredDelivery } from '../../functions/src/outbox/documents';
import { claimAndTry } from '../../functions/src/delivery/engine';
import { MAX_TRIES } from '../../functions/src/delivery/retry';
import { messageIdOf } from '../../functions/src/delivery/store';
import type { CallContext } from '../../functions/src/shared/callContext';
import { resendDelivery } from '../../functions/src/webhooks/service';
import { adminDb } from '../support/admin';
import { createClientDoc } from '../support/fixtures';
import { storedWebhook } from './fixtures';
import { startReceiver, type Receiver } from './receiver';

// A resend against the emulators, in-process, beside the engine's own tries:
// what it leaves must stand, whatever a try under way or the TTL does.

process.env.ALLOW_LOOPBACK_URLS = 'true';

const call = { ip: '127.0.0.1', userAgent: 'test', requestId: 'resend-test' } as CallContext;
const DAY_MS = 24 * 3_600_000;

async function endpointWithDelivery(clientId: string, url: string, state: Partial<StoredDelivery>) {
  const now = new Date().toISOString();
  const webhook = await storedWebhook(clientId, url);
  const id = `evt-${randomUUID()}~webhook-${webhook.id}`;
  const delivery: StoredDelivery = {
    id,
    client_id: clientId,
    event_id: 'evt',
    event_type: 'attempt.submitted',
    message_id: messageIdOf(id),
    target: { kind: 'webhook', webhook_id: webhook.id },
    payload: '{"type":"attempt.submitted","timestamp":"2026-01-01T00:00:00.000Z","data":{}}',
    status: 'pending',
    tries: 0,
    round_tries: 0,
    next_try_at: now,
    last_code: null,
    last_error: null,
    history: [],
    created_at: now,
    updated_at: now,
    expires_at: Timestamp.fromMillis(Date.now() + 30 * DAY_MS),
    ...state,
  };
  await adminDb.doc(`clients/${clientId}/deliveries/${id}`).set(delivery);
  return { webhook, delivery };
}

const stored = async (clientId: string, id: string) =>
  (await adminDb.doc(`clients/${clientId}/deliveries/${id}`).get()).data() as StoredDelivery;

describe('POST /api/clients/{clientId}/webhooks/{webhookId}/deliveries/{deliveryId}/resend (with the engine)', function () {
  this.timeout(60_000);
  let receivers: Receiver[] = [];
  const admin = (clientId: string) =>
    ({ uid: 'admin', email: null, role: 'client_admin', clientId, guest: false, authTime: 0 }) as Principal;
  before(() => provideEffects());
  afterEach(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    receivers = [];
  });

  it('stands when a try under way ends after it: the late failure is counted but does not mark it failed', async () => {
    const client = await createClientDoc();
    const rx = await startReceiver(() => ({ status: 500, delayMs: 1_500 }));
    receivers.push(rx);
    // The last try of its schedule: alone, its failure ends the delivery failed.
    const { webhook, delivery } = await endpointWithDelivery(client.id, rx.url, {
      tries: MAX_TRIES - 1,
      round_tries: MAX_TRIES - 1,
    });
    const trying = claimAndTry(client.id, delivery.id, Date.now());
    while (rx.arrived() === 0) await new Promise((r) => setTimeout(r, 50));
    const resent = await resendDelivery(admin(client.id), client.id, webhook.id, delivery.id, call);
    assert.equal(resent.status, 'pending');
    await trying;
    const after = await stored(client.id, delivery.id);
    assert.equal(after.status, 'pending', 'the resend stands');
    assert.equal(after.round_tries, 0, 'its schedule restarted by the resend');
    assert.ok(after.next_try_at !== null && after.next_try_at <= new Date().toISOString(), 'due at once');
    assert.equal(after.tries, MAX_TRIES, 'the late try still counted');
    assert.equal(after.history.at(-1)?.code, 500, 'and kept in the history');
  });

  it('keeps a resent delivery 30 days from the resend, so the TTL cannot delete it mid-schedule', async () => {
    const client = await createClientDoc();
    const { webhook, delivery } = await endpointWithDelivery(client.id, 'https://hooks.example.com/in', {
      status: 'failed',
      tries: MAX_TRIES,
      round_tries: MAX_TRIES,
      next_try_at: null,
      expires_at: Timestamp.fromMillis(Date.now() + 3_600_000),
    });
    await resendDelivery(admin(client.id), client.id, webhook.id, delivery.id, call);
    const after = await stored(client.id, delivery.id);
    assert.ok(
      after.expires_at.toMillis() >= Date.now() + 29 * DAY_MS,
      `kept until ${after.expires_at.toDate().toISOString()}`,
    );
  });
});
