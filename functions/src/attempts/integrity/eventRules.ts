import {
  EVENT_TYPES,
  type EventType,
  type LastEvent,
  type StoredIntegrityEvent,
  type StoredIntegritySummary,
} from './documents';

// Pure: what a batch of integrity events does to an attempt's record of them.

export const MAX_EVENTS_PER_REQUEST = 100;
export const MAX_EVENTS_PER_ATTEMPT = 2_000;
/** How far past the server's clock an event's `at` may be: a page's clock runs a little ahead at most. */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;

/** The 409s of an attempt that takes no more events (api.md: after submission, or past expires_at + 30 s). */
export const EVENTS_AFTER_SUBMISSION = 'This attempt has been submitted; it takes no more integrity events';
export const EVENTS_AFTER_DEADLINE =
  'This attempt is past its deadline (expires_at + 30 s); it takes no more integrity events';

export interface IncomingEvent {
  type: EventType;
  at: string;
  client_seq: number;
}

/** An event's document id: its client_seq in 16 digits (every safe integer), so ids sort as the numbers do. */
export const eventId = (clientSeq: number): string => String(clientSeq).padStart(16, '0');

export const emptyCounts = (): Record<EventType, number> =>
  Object.fromEntries(EVENT_TYPES.map((t) => [t, 0])) as Record<EventType, number>;

/** The later of two events: by `at`, then by client_seq. */
const later = (a: LastEvent | null, b: LastEvent): LastEvent => {
  if (!a) return b;
  const [ta, tb] = [Date.parse(a.at), Date.parse(b.at)];
  if (tb !== ta) return tb > ta ? b : a;
  return b.client_seq > a.client_seq ? b : a;
};

export type EventsPlan =
  | { over: true; stored: number; wouldBe: number }
  | {
      over: false;
      /** The events to write (the batch's own repeats and those already stored left out). */
      fresh: StoredIntegrityEvent[];
      duplicates: number;
      /** The summary as it will stand; undefined when nothing is new (nothing written). */
      summary: StoredIntegritySummary | undefined;
    };

/**
 * A batch judged against what is stored: events whose client_seq is already stored (or repeated in the
 * batch: the first wins) are duplicates, ignored; the rest are written with the summary's counts, total
 * and last event, unless they would take the attempt past MAX_EVENTS_PER_ATTEMPT (then nothing is).
 */
export function planEvents(
  attemptId: string,
  stored: StoredIntegritySummary | undefined,
  incoming: readonly IncomingEvent[],
  alreadyStored: ReadonlySet<number>,
  nowMs: number,
): EventsPlan {
  const seen = new Set(alreadyStored);
  const receivedAt = new Date(nowMs).toISOString();
  const fresh: StoredIntegrityEvent[] = [];
  for (const event of incoming) {
    if (seen.has(event.client_seq)) continue;
    seen.add(event.client_seq);
    fresh.push({
      type: event.type,
      at: new Date(event.at).toISOString(),
      client_seq: event.client_seq,
      received_at: receivedAt,
    });
  }
  const total = stored?.total ?? 0;
  if (total + fresh.length > MAX_EVENTS_PER_ATTEMPT)
    return { over: true, stored: total, wouldBe: total + fresh.length };
  if (fresh.length === 0) return { over: false, fresh, duplicates: incoming.length, summary: undefined };
  const counts = { ...emptyCounts(), ...stored?.counts };
  let last = stored?.last_event ?? null;
  for (const event of fresh) {
    counts[event.type] += 1;
    last = later(last, { type: event.type, at: event.at, client_seq: event.client_seq });
  }
  return {
    over: false,
    fresh,
    duplicates: incoming.length - fresh.length,
    summary: { attempt_id: attemptId, total: total + fresh.length, counts, last_event: last, updated_at: receivedAt },
  };
}

export interface SummaryView {
  total: number;
  counts: Record<EventType, number>;
  last_event: LastEvent | null;
}

/** The summary as replies show it: every type counted (0 when none; all 0 before any event). */
export function summaryView(summary: StoredIntegritySummary | undefined): SummaryView {
  return {
    total: summary?.total ?? 0,
    counts: { ...emptyCounts(), ...summary?.counts },
    last_event: summary?.last_event ?? null,
  };
}
