import type { Transaction } from 'firebase-admin/firestore';
import { db, fetchPage, paths } from '../firestore';
import type { StoredDelivery } from '../outbox';
import { conflict, type PageInfo, type PageRequest } from '../shared';
import type { StoredWebhook } from './documents';
import { MAX_WEBHOOKS } from './schemas';
import { deliveriesOfWebhookSpec } from './webhookQuery';

export async function listWebhooks(clientId: string): Promise<StoredWebhook[]> {
  const snap = await paths
    .clientWebhooks(clientId)
    .orderBy('created_at', 'asc')
    .limit(MAX_WEBHOOKS + 5)
    .get();
  return snap.docs.map((d) => d.data() as StoredWebhook);
}

export async function findWebhook(clientId: string, webhookId: string): Promise<StoredWebhook | undefined> {
  const snap = await paths.clientWebhook(clientId, webhookId).get();
  return snap.exists ? (snap.data() as StoredWebhook) : undefined;
}

/** What a change writes beside itself in its transaction: its audit record. */
type Alongside = (tx: Transaction) => void;

/**
 * Creates the endpoint unless the organization has MAX_WEBHOOKS (409), with
 * its audit record, in one transaction: two creates at once cannot both pass the bound.
 */
export async function createWebhook(webhook: StoredWebhook, alongside: Alongside): Promise<void> {
  await db.runTransaction(async (tx) => {
    const count = (await tx.get(paths.clientWebhooks(webhook.client_id).count())).data().count;
    if (count >= MAX_WEBHOOKS)
      throw conflict(`An organization has at most ${MAX_WEBHOOKS} webhook endpoints; delete one first`);
    tx.create(paths.clientWebhook(webhook.client_id, webhook.id), webhook);
    alongside(tx);
  });
}

/** Applies `change` to the endpoint in a transaction (undefined: it is gone, or nothing to change), with its audit record. */
export async function updateWebhook(
  clientId: string,
  webhookId: string,
  change: (current: StoredWebhook) => StoredWebhook | undefined,
  alongside: (tx: Transaction, next: StoredWebhook) => void,
): Promise<StoredWebhook | undefined> {
  const ref = paths.clientWebhook(clientId, webhookId);
  return db.runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (!snap.exists) return undefined;
    const next = change(snap.data() as StoredWebhook);
    if (!next) return undefined;
    tx.set(ref, next);
    alongside(tx, next);
    return next;
  });
}

/** Deletes the endpoint with its audit record; false when it was not there. */
export async function deleteWebhook(clientId: string, webhookId: string, alongside: Alongside): Promise<boolean> {
  const ref = paths.clientWebhook(clientId, webhookId);
  return db.runTransaction(async (tx) => {
    if (!(await tx.get(ref)).exists) return false;
    tx.delete(ref);
    alongside(tx);
    return true;
  });
}

/** Makes a delivery pending again (resend), in a transaction with its audit record; undefined when it is not there. */
export async function updateDelivery(
  clientId: string,
  deliveryId: string,
  change: (current: StoredDelivery) => Partial<StoredDelivery> | undefined,
  alongside: Alongside,
): Promise<StoredDelivery | undefined> {
  const ref = paths.clientDelivery(clientId, deliveryId);
  return db.runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (!snap.exists) return undefined;
    const current = snap.data() as StoredDelivery;
    const patch = change(current);
    if (!patch) return undefined;
    tx.update(ref, patch);
    alongside(tx);
    return { ...current, ...patch };
  });
}

export async function deliveriesOf(
  clientId: string,
  webhookId: string,
  page: PageRequest,
): Promise<{ deliveries: StoredDelivery[]; pagination: PageInfo }> {
  const { docs, pagination } = await fetchPage(
    paths.clientDeliveries(clientId),
    deliveriesOfWebhookSpec(webhookId),
    page,
  );
  return { deliveries: docs as StoredDelivery[], pagination };
}
