// Pure: the Firestore documents the integrity feature owns (where they live: firestore/paths.ts).

/** What a taker's page reports: the tab hidden or shown, a paste, fullscreen left, the network lost or back, a reload. */
export const EVENT_TYPES = [
  'focus_lost',
  'focus_back',
  'paste',
  'fullscreen_exit',
  'offline',
  'online',
  'reload',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * clients/{c}/attempts/{a}/integrity_events/{client_seq, 16 digits}: one event as its page sent it,
 * keyed by its client_seq, so an offline queue replayed sends nothing twice.
 */
export interface StoredIntegrityEvent {
  type: EventType;
  /** ISO 8601 UTC, the page's clock. */
  at: string;
  client_seq: number;
  /** ISO 8601 UTC, the server's clock when it was stored. */
  received_at: string;
}

/** The last event of an attempt, as the summary keeps it. */
export interface LastEvent {
  type: EventType;
  at: string;
  client_seq: number;
}

/**
 * clients/{c}/attempts/{a}/integrity_summary/summary: what the live view and the results
 * export read of an attempt's events, written with them in their transaction (never by a save).
 */
export interface StoredIntegritySummary {
  attempt_id: string;
  total: number;
  counts: Record<EventType, number>;
  /** The event latest by `at` (then client_seq); null before any. */
  last_event: LastEvent | null;
  updated_at: string;
}
