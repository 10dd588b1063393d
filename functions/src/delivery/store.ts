import { createHash } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { ALREADY_EXISTS, db, hasStatus, paths } from '../firestore';
import { DUE_DELIVERIES_QUERY, PENDING_ORGANIZATIONS_QUERY, UNFANNED_EVENTS_QUERY } from './deliveryQuery';
import type { DeliveryTry, PlannedDelivery, StoredDelivery, StoredEvent } from '../outbox';
import { HISTORY_KEPT, LEASE_MS, type DeliveryState } from './retry';

/** How long a delivery is kept (its TTL), from when it was made or last resent. */
export const DELIVERY_KEPT_MS = 30 * 24 * 60 * 60_000;

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');

/** `<eventId>~<target key>`: a fan-out run again makes the same ids, and create() refuses the second. */
export const deliveryId = (eventId: string, key: string) => `${eventId}~${key}`;

/** The message id a receiver sees: from the delivery id, so it is the same on every try and every fan-out. */
export const messageIdOf = (id: string) => `msg_${digest(id).slice(0, 27)}`;

/**
 * Creates the event's deliveries, each under its deterministic id: those that
 * exist already (an earlier run) are left alone. Answers the ones this call
 * made (this caller tries them). `dueAt` per index: the first ones are held by
 * this caller (due after a lease), the rest due at once for the runner.
 */
export async function createDeliveries(
  event: StoredEvent,
  planned: readonly PlannedDelivery[],
  nowMs: number,
  dueAtMs: (index: number) => number,
): Promise<StoredDelivery[]> {
  const now = new Date(nowMs).toISOString();
  const writer = db.bulkWriter();
  // An existing document is a finished outcome, not a failure: never retried.
  writer.onWriteError((error) => error.code !== ALREADY_EXISTS && error.failedAttempts < 5);
  const made: StoredDelivery[] = [];
  const failures: unknown[] = [];
  const writes = planned.map(async (plan, index) => {
    const id = deliveryId(event.id, plan.key);
    const delivery: StoredDelivery = {
      id,
      client_id: event.client_id,
      event_id: event.id,
      event_type: event.type,
      message_id: messageIdOf(id),
      target: plan.target,
      payload: plan.payload,
      status: 'pending',
      tries: 0,
      round_tries: 0,
      next_try_at: new Date(dueAtMs(index)).toISOString(),
      last_code: null,
      last_error: null,
      history: [],
      created_at: now,
      updated_at: now,
      expires_at: Timestamp.fromMillis(nowMs + DELIVERY_KEPT_MS),
    };
    try {
      await writer.create(paths.clientDelivery(event.client_id, id), delivery);
      made.push(delivery);
    } catch (err) {
      if (!hasStatus(err, ALREADY_EXISTS)) failures.push(err);
    }
  });
  await writer.close();
  await Promise.all(writes);
  if (failures.length > 0) throw failures[0];
  return made;
}

export async function markFannedOut(clientId: string, eventId: string): Promise<void> {
  await paths.clientEvent(clientId, eventId).update({ fanned_out: true });
}

/**
 * Takes a due delivery for one try: in a transaction, a pending one whose
 * next_try_at has come is pushed a lease ahead, so no other runner takes it
 * while it is tried. Answers it, or undefined when it is not due (taken, done).
 */
export async function claim(clientId: string, id: string, nowMs: number): Promise<StoredDelivery | undefined> {
  const ref = paths.clientDelivery(clientId, id);
  return db.runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (!snap.exists) return undefined;
    const delivery = snap.data() as StoredDelivery;
    const now = new Date(nowMs).toISOString();
    if (delivery.status !== 'pending' || (delivery.next_try_at !== null && delivery.next_try_at > now))
      return undefined;
    const next_try_at = new Date(nowMs + LEASE_MS).toISOString();
    tx.update(ref, { next_try_at });
    return { ...delivery, next_try_at };
  });
}

/**
 * Records a try's outcome, if the delivery is still held by that try (`heldUntil`, the
 * next_try_at its claim set). Changed meanwhile (resent, or claimed again after the lease),
 * the delivery's state is the newer change's: the try is only counted, into its history.
 */
export async function recordOutcome(
  clientId: string,
  id: string,
  heldUntil: string | null,
  state: Partial<DeliveryState>,
  tried?: DeliveryTry,
): Promise<void> {
  const ref = paths.clientDelivery(clientId, id);
  await db.runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (!snap.exists) return;
    const current = snap.data() as StoredDelivery;
    if (current.status === 'pending' && current.next_try_at === heldUntil) tx.update(ref, state);
    else if (tried)
      tx.update(ref, { tries: current.tries + 1, history: [...current.history, tried].slice(-HISTORY_KEPT) });
  });
}

/**
 * The organizations with a pending delivery, by walking them in client_id order
 * one document at a time: one read per organization, however long its backlog.
 */
export async function organizationsWithPending(max = 1_000): Promise<string[]> {
  const organizations: string[] = [];
  const query = paths
    .allDeliveries()
    .where(PENDING_ORGANIZATIONS_QUERY.equals[0], '==', 'pending')
    .orderBy(PENDING_ORGANIZATIONS_QUERY.orderBy[0].field, 'asc');
  for (let last: string | undefined; organizations.length < max;) {
    const snap = await (last === undefined ? query : query.startAfter(last)).limit(1).get();
    if (snap.empty) break;
    last = (snap.docs[0].get('client_id') as string) ?? '';
    organizations.push(last);
  }
  return organizations;
}

/** One organization's due deliveries, oldest due first. */
export async function dueDeliveries(clientId: string, nowMs: number, limit: number): Promise<StoredDelivery[]> {
  const snap = await paths
    .clientDeliveries(clientId)
    .where(DUE_DELIVERIES_QUERY.equals[0], '==', 'pending')
    .where(DUE_DELIVERIES_QUERY.orderBy[0].field, '<=', new Date(nowMs).toISOString())
    .orderBy(DUE_DELIVERIES_QUERY.orderBy[0].field, 'asc')
    .limit(limit)
    .get();
  return snap.docs.map((d) => d.data() as StoredDelivery);
}

/** Events that happened before `beforeMs` and were never fanned out. */
export async function unfannedEvents(beforeMs: number, limit: number): Promise<StoredEvent[]> {
  const snap = await db
    .collectionGroup(UNFANNED_EVENTS_QUERY.collectionId)
    .where(UNFANNED_EVENTS_QUERY.equals[0], '==', false)
    .where(UNFANNED_EVENTS_QUERY.orderBy[0].field, '<=', new Date(beforeMs).toISOString())
    .orderBy(UNFANNED_EVENTS_QUERY.orderBy[0].field, 'asc')
    .limit(limit)
    .get();
  return snap.docs.map((d) => d.data() as StoredEvent);
}

/**
 * Counts a failed late fan-out on the event; at `giveUpAfter` failures it is
 * marked fanned out with the error kept (`fan_out_error`), so the runner stops
 * picking it. Answers whether it was given up.
 */
export async function fanOutFailed(event: StoredEvent, error: string, giveUpAfter: number): Promise<boolean> {
  const failures = (event.fan_out_failures ?? 0) + 1;
  const given = failures >= giveUpAfter;
  await paths
    .clientEvent(event.client_id, event.id)
    .update({ fan_out_failures: failures, ...(given ? { fanned_out: true, fan_out_error: error.slice(0, 500) } : {}) });
  return given;
}
