import { Attempt, attemptView, findAttempt, requirePaper } from '../attempts';
import { authorView, findTest, Test } from '../exams';
import { loopbackPolicy } from '../outbound';
import type { DeliveryChannel, DeliveryTarget, StoredDelivery, StoredEvent } from '../outbox';
import { postOnce } from './sender';
import { disableGone } from './service';
import { signedHeaders } from './signing';
import * as store from './store';

// The webhook channel of the outbox: which endpoints an event goes to, with
// what body, and one signed try of a delivery.

/** The attempt as GET /api/attempts/{id} shows it to an administrator, without the review (its keys), with its revision. */
async function attemptData(attemptId: string, clientId: string): Promise<Record<string, unknown> | undefined> {
  const found = await findAttempt(attemptId);
  // Only the event's own organization's attempt: an event never speaks of another's.
  if (!found || found.attempt.client_id !== clientId) return undefined;
  const { attempt } = found;
  const version = await requirePaper(attempt);
  // The reply's own schema: a field it does not declare (a key, a hash) never leaves.
  const shown = Attempt.parse(attemptView(attempt, version));
  return { ...shown, revision: attempt.revision ?? 0 };
}

async function testData(clientId: string, testId: string): Promise<Record<string, unknown> | undefined> {
  const test = await findTest(clientId, testId);
  if (!test) return undefined;
  // The code is for the people in the room, and a new version being edited is not published yet:
  // neither is for the organization's integrations.
  const { access_code: _code, pending_edit: _edit, ...data } = Test.parse(authorView(test));
  return data;
}

/** The largest body sent (and kept on the delivery, within Firestore's 1 MiB document). */
export const MAX_PAYLOAD_BYTES = 256 * 1024;

/**
 * `{type, timestamp, data}`. A body over MAX_PAYLOAD_BYTES (an attempt of a very
 * large test) goes without the bulky parts, named in `data.omitted`: the receiver
 * reads them with GET /api/attempts/{id}.
 */
export function body(event: Pick<StoredEvent, 'type' | 'timestamp'>, data: Record<string, unknown>): string {
  const full = JSON.stringify({ type: event.type, timestamp: event.timestamp, data });
  if (Buffer.byteLength(full) <= MAX_PAYLOAD_BYTES) return full;
  const bulky = ['test_details', 'answers', 'questions', 'description'].filter((k) => k in data);
  const slim = Object.fromEntries(Object.entries(data).filter(([k]) => !bulky.includes(k)));
  return JSON.stringify({ type: event.type, timestamp: event.timestamp, data: { ...slim, omitted: bulky } });
}

/** An attempt id as a delivery-id part: ids are document ids, any character but `/`, so an unusual one is hex-encoded. */
const keyPart = (id: string) => (/^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : Buffer.from(id).toString('hex').slice(0, 120));

/** A webhook delivery's target, as stored (`target.webhook_id` is queried: webhookQuery.ts): the endpoint. */
interface WebhookTarget extends DeliveryTarget {
  kind: 'webhook';
  webhook_id: string;
}

const targetOf = (webhookId: string): WebhookTarget => ({ kind: 'webhook', webhook_id: webhookId });
const isWebhookTarget = (target: DeliveryTarget): target is WebhookTarget =>
  target.kind === 'webhook' && typeof target.webhook_id === 'string';

/** The delivery id's part for an endpoint (and an attempt, when an event has several): the same on every fan-out. */
const keyOf = (webhookId: string, attemptId?: string) =>
  attemptId === undefined ? `webhook-${webhookId}` : `webhook-${webhookId}-${keyPart(attemptId)}`;

export const webhookChannel: DeliveryChannel = {
  /**
   * The organization's active endpoints subscribed to the event's type; one
   * delivery per endpoint, and per attempt for a regrade (each with that
   * attempt's body). The body is built once here, so every try sends the same bytes.
   */
  async plan(event) {
    const endpoints = (await store.listWebhooks(event.client_id)).filter(
      (w) => w.active && w.events.includes(event.type),
    );
    if (endpoints.length === 0) return [];
    if (event.type === 'test.published') {
      const data = await testData(event.client_id, event.test_id);
      if (!data) return [];
      const payload = body(event, data);
      return endpoints.map((w) => ({ target: targetOf(w.id), payload, key: keyOf(w.id) }));
    }
    const several = event.attempts.length > 1;
    const planned = [];
    for (const { id } of event.attempts) {
      const data = await attemptData(id, event.client_id);
      if (!data) continue;
      const payload = body(event, data);
      for (const w of endpoints)
        planned.push({
          target: targetOf(w.id),
          payload,
          key: several ? keyOf(w.id, id) : keyOf(w.id),
        });
    }
    return planned;
  },

  /** One signed POST. The endpoint is read at each try: a deleted or disabled one ends the delivery, a rotated secret signs. */
  async send(delivery: StoredDelivery) {
    if (!isWebhookTarget(delivery.target)) throw new Error('Not a webhook delivery');
    const webhookId = delivery.target.webhook_id;
    const webhook = await store.findWebhook(delivery.client_id, webhookId);
    const at = new Date().toISOString();
    if (!webhook) return { at, code: null, error: 'The endpoint was deleted', ms: 0, gone: true };
    if (!webhook.active) return { at, code: null, error: 'The endpoint is disabled', ms: 0, gone: true };
    const nowMs = Date.now();
    const result = await postOnce(
      webhook.url,
      signedHeaders(delivery.message_id, delivery.payload, webhook.secrets, nowMs),
      delivery.payload,
      loopbackPolicy(),
    );
    const gone = result.code === 410;
    if (gone) await disableGone(delivery.client_id, webhookId, delivery.id);
    return { at, ...result, ...(gone ? { gone, error: 'The receiver answered 410 Gone: endpoint disabled' } : {}) };
  },
};
