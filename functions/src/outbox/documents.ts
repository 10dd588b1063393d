import type { Timestamp } from 'firebase-admin/firestore';
import type { EventType } from './events';

// The outbox: what happened, recorded in the same transaction as the change
// (an event), and what must be sent because of it (a delivery per receiver),
// each delivery tried and retried on its own until it lands or is given up.

/** clients/{c}/events/{eventId}: one change worth telling others about. Written with the change, never after it. */
export interface StoredEvent {
  id: string;
  client_id: string;
  type: EventType;
  test_id: string;
  /** The attempts it concerns, each with its revision as the change wrote it: one, several for a regrade, none for a test. */
  attempts: Array<{ id: string; revision: number }>;
  /** When the change happened (ISO). */
  timestamp: string;
  /** Set once its deliveries exist: the runner fans out any event still false a minute after it happened (a lost trigger). */
  fanned_out: boolean;
  /** Late fan-outs by the runner that failed; after 10 it is set aside with `fan_out_error` (logged as an error). */
  fan_out_failures?: number;
  fan_out_error?: string;
  /** Firestore's TTL deletes it after this (docs/operations.md). */
  expires_at: Timestamp;
}

/**
 * Where a delivery goes, as its channel says it: `kind` is the name the channel is provided under
 * (the engine sends through that channel), the other fields the channel's own, stored as it wrote them.
 */
export interface DeliveryTarget {
  kind: string;
  [field: string]: unknown;
}

/** One delivery a channel plans for an event. */
export interface PlannedDelivery {
  target: DeliveryTarget;
  /** The exact body, the same on every try. */
  payload: string;
  /**
   * The target's part of the delivery id, from the channel: the same target of the same event always
   * gives the same key, two deliveries of one event (a regrade's attempts) two keys. [A-Za-z0-9_-], short.
   */
  key: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One try of a delivery, as it ended. */
export interface DeliveryTry {
  at: string;
  /** The receiver's HTTP status, or null when there was none (a timeout, a refused connection, a refused address). */
  code: number | null;
  error: string | null;
  ms: number;
}

/** clients/{c}/deliveries/{deliveryId}: one event for one receiver, with every try's outcome. */
export interface StoredDelivery {
  id: string;
  client_id: string;
  event_id: string;
  event_type: EventType;
  /** The id a receiver sees: the same on every try, so a receiver can drop a repeat. */
  message_id: string;
  target: DeliveryTarget;
  /** The exact body sent, the same on every try. */
  payload: string;
  status: DeliveryStatus;
  tries: number;
  /** Tries since it was made or last resent: the retry schedule counts these (absent: `tries`). */
  round_tries?: number;
  /** When the next try is due (ISO), while pending. */
  next_try_at: string | null;
  last_code: number | null;
  last_error: string | null;
  /** The latest tries, newest last (bounded). */
  history: DeliveryTry[];
  created_at: string;
  updated_at: string;
  expires_at: Timestamp;
}

/** What one kind of receiver needs: which deliveries an event makes for it, and how one try is sent. */
export interface DeliveryChannel {
  /** The deliveries this event makes (read what is needed: its receivers); none when nobody listens. */
  plan(event: StoredEvent): Promise<PlannedDelivery[]>;
  /** One try. A receiver's failure is an outcome, not a throw; a throw is our backend failing (tried again later). */
  send(
    delivery: StoredDelivery,
  ): Promise<DeliveryTry & { /** The receiver said never again (a 410 Gone): the delivery ends. */ gone?: boolean }>;
}
