import { randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { Timestamp, type Transaction } from 'firebase-admin/firestore';
import { addAudit, type AuditEventType, type AuditMeta, requestMeta } from '../audit';
import { assertCanManageWebhooks, type Principal } from '../auth';
import { requireClient } from '../clients';
import { addressAllowed, checkOutboundUrl, loopbackPolicy } from '../outbound';
import type { StoredDelivery } from '../outbox';
import { DELIVERY_KEPT_MS, resent } from '../delivery';
import { badRequest, type CallContext, isDocumentId, notFound, type PageInfo, type PageRequest } from '../shared';
import type { StoredWebhook } from './documents';
import type { CreateWebhookInput, Delivery, Webhook, WebhookWithSecret } from './schemas';
import { newSecret, ROTATION_OVERLAP_MS, signingSecrets } from './signing';
import * as store from './store';

// An organization's webhook endpoints: registered, listed, deleted, their
// secret rotated, their deliveries listed and resent. Delivery itself is the
// outbox's (delivery/engine.ts) through this feature's channel (channel.ts).

/** 404 for an organization that does not exist, whoever asks; 403 for another organization's, by the policy. */
async function requireOrganization(principal: Principal, clientId: string): Promise<void> {
  await requireClient(clientId);
  assertCanManageWebhooks(principal, clientId);
}

/** Another organization's endpoint id under this organization is simply not one of its endpoints: 404. */
async function requireWebhook(clientId: string, webhookId: string): Promise<StoredWebhook> {
  // An id that cannot name a document (a `/`, `__x__`) names no endpoint.
  const webhook = isDocumentId(webhookId) ? await store.findWebhook(clientId, webhookId) : undefined;
  if (!webhook) throw notFound('Webhook endpoint not found');
  return webhook;
}

export const webhookView = (w: StoredWebhook): Webhook => ({
  id: w.id,
  client_id: w.client_id,
  url: w.url,
  events: w.events,
  description: w.description,
  active: w.active,
  disabled_reason: w.disabled_reason,
  created_at: w.created_at,
  updated_at: w.updated_at,
});

const deliveryView = (d: StoredDelivery): Delivery => ({
  id: d.id,
  event_id: d.event_id,
  event_type: d.event_type,
  message_id: d.message_id,
  status: d.status,
  tries: d.tries,
  next_try_at: d.next_try_at,
  last_code: d.last_code,
  last_error: d.last_error,
  created_at: d.created_at,
  updated_at: d.updated_at,
});

const audit =
  (meta: AuditMeta, type: AuditEventType, actor: string | null, clientId: string, details: Record<string, unknown>) =>
  (tx: Transaction) =>
    addAudit(tx, meta, { type, userId: actor ?? '', clientId, actorId: actor, details });

/** How long registration waits for a name to resolve: an unresolvable name is checked again at each delivery. */
const RESOLVE_TIMEOUT_MS = 3_000;

/**
 * The URL as the contract allows it (https, public), 400 naming body.url otherwise.
 * A name is resolved now too: one that reaches a private address is refused at
 * once; one that does not resolve (yet) is accepted, as every delivery checks
 * the address it connects to anyway.
 */
async function checkUrl(text: string): Promise<string> {
  const policy = loopbackPolicy();
  const verdict = checkOutboundUrl(text, policy);
  const refuse = (message: string) => badRequest(`url: ${message}`, [{ path: 'body.url', message }]);
  if (!verdict.ok) throw refuse(verdict.message);
  if (!verdict.literal) {
    const addresses = await Promise.race([
      lookup(verdict.url.hostname, { all: true }).catch(() => []),
      new Promise<[]>((resolve) => setTimeout(() => resolve([]), RESOLVE_TIMEOUT_MS).unref()),
    ]);
    const refused = addresses.find((a) => !addressAllowed(a.address, policy));
    if (refused) throw refuse(`${verdict.url.hostname} resolves to ${refused.address}, not a public address`);
  }
  return verdict.url.toString();
}

export async function createWebhook(
  principal: Principal,
  clientId: string,
  input: CreateWebhookInput,
  call: CallContext,
): Promise<WebhookWithSecret> {
  await requireOrganization(principal, clientId);
  const url = await checkUrl(input.url);
  const now = new Date().toISOString();
  const secret = newSecret();
  const webhook: StoredWebhook = {
    id: randomUUID(),
    client_id: clientId,
    url,
    events: input.events,
    description: input.description || null,
    active: true,
    disabled_reason: null,
    secrets: [{ secret, expires_at: null }],
    created_at: now,
    updated_at: now,
    created_by: principal.uid,
  };
  await store.createWebhook(
    webhook,
    audit(requestMeta(call), 'webhook_created', principal.uid, clientId, {
      webhook_id: webhook.id,
      url,
      events: webhook.events,
    }),
  );
  return { ...webhookView(webhook), secret };
}

export async function listWebhooks(principal: Principal, clientId: string): Promise<{ data: Webhook[] }> {
  await requireOrganization(principal, clientId);
  return { data: (await store.listWebhooks(clientId)).map(webhookView) };
}

export async function deleteWebhook(
  principal: Principal,
  clientId: string,
  webhookId: string,
  call: CallContext,
): Promise<void> {
  await requireOrganization(principal, clientId);
  const webhook = await requireWebhook(clientId, webhookId);
  const deleted = await store.deleteWebhook(
    clientId,
    webhookId,
    audit(requestMeta(call), 'webhook_deleted', principal.uid, clientId, { webhook_id: webhookId, url: webhook.url }),
  );
  if (!deleted) throw notFound('Webhook endpoint not found');
}

/** A new current secret; the one it replaces signs beside it for 24 h (older ones are dropped). */
export async function rotateSecret(
  principal: Principal,
  clientId: string,
  webhookId: string,
  call: CallContext,
): Promise<WebhookWithSecret> {
  await requireOrganization(principal, clientId);
  await requireWebhook(clientId, webhookId);
  const secret = newSecret();
  const nowMs = Date.now();
  const next = await store.updateWebhook(
    clientId,
    webhookId,
    (current) => ({
      ...current,
      secrets: [
        { secret, expires_at: null },
        ...signingSecrets(current.secrets, nowMs)
          .filter((s) => s.expires_at === null)
          .map((s) => ({ secret: s.secret, expires_at: new Date(nowMs + ROTATION_OVERLAP_MS).toISOString() })),
      ],
      updated_at: new Date(nowMs).toISOString(),
    }),
    audit(requestMeta(call), 'webhook_secret_rotated', principal.uid, clientId, { webhook_id: webhookId }),
  );
  if (!next) throw notFound('Webhook endpoint not found');
  return { ...webhookView(next), secret };
}

export async function listDeliveries(
  principal: Principal,
  clientId: string,
  webhookId: string,
  page: PageRequest,
): Promise<{ data: Delivery[]; pagination: PageInfo }> {
  await requireOrganization(principal, clientId);
  await requireWebhook(clientId, webhookId);
  const { deliveries, pagination } = await store.deliveriesOf(clientId, webhookId, page);
  return { data: deliveries.map(deliveryView), pagination };
}

/** A resend's change: its TTL counted again from now too, so a late resend is not deleted mid-schedule. */
function resentNow(): Partial<StoredDelivery> {
  const nowMs = Date.now();
  return { ...resent(nowMs), expires_at: Timestamp.fromMillis(nowMs + DELIVERY_KEPT_MS) };
}

/** Pending again, due now, its schedule restarted; the same message id and body, so a receiver can tell it from a new event. */
export async function resendDelivery(
  principal: Principal,
  clientId: string,
  webhookId: string,
  deliveryId: string,
  call: CallContext,
): Promise<Delivery> {
  await requireOrganization(principal, clientId);
  await requireWebhook(clientId, webhookId);
  if (!isDocumentId(deliveryId)) throw notFound('Delivery not found');
  const delivery = await store.updateDelivery(
    clientId,
    deliveryId,
    (current) =>
      current.target.kind === 'webhook' && current.target.webhook_id === webhookId ? resentNow() : undefined,
    audit(requestMeta(call), 'webhook_delivery_resent', principal.uid, clientId, {
      webhook_id: webhookId,
      delivery_id: deliveryId,
    }),
  );
  if (!delivery) throw notFound('Delivery not found');
  return deliveryView(delivery);
}

const GONE_META: AuditMeta = { ip_address: '', user_agent: 'webhook-delivery', request_id: 'webhook-delivery' };

/** A receiver answered 410 Gone: the endpoint is disabled (nothing more is sent), audited as webhook_disabled. */
export async function disableGone(clientId: string, webhookId: string, deliveryId: string): Promise<void> {
  const now = new Date().toISOString();
  await store.updateWebhook(
    clientId,
    webhookId,
    (current) =>
      current.active
        ? { ...current, active: false, disabled_reason: `The receiver answered 410 Gone at ${now}`, updated_at: now }
        : undefined,
    audit(GONE_META, 'webhook_disabled', null, clientId, { webhook_id: webhookId, delivery_id: deliveryId, code: 410 }),
  );
}
