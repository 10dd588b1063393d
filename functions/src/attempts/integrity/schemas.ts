import { z } from 'zod';
import { pagedQuery, Pagination } from '../../shared';
import { EVENT_TYPES } from './documents';
import { FUTURE_TOLERANCE_MS, MAX_EVENTS_PER_ATTEMPT, MAX_EVENTS_PER_REQUEST } from './eventRules';

// Request and reply shapes of the integrity events endpoints.

const EventType = z
  .enum(EVENT_TYPES)
  .describe(
    'focus_lost (the tab hidden or the window blurred), focus_back, paste, fullscreen_exit, offline, online, reload',
  );

const At = z.iso
  .datetime({ offset: true })
  .refine((text) => Number.isFinite(Date.parse(text)), 'Must be a real instant')
  .refine((text) => Date.parse(text) >= Date.parse('2000-01-01T00:00:00Z'), 'Must be after 2000')
  // Read at each request: the server's clock now, plus a page's clock running a little ahead.
  .refine(
    (text) => Date.parse(text) <= Date.now() + FUTURE_TOLERANCE_MS,
    `Must not be more than ${FUTURE_TOLERANCE_MS / 60_000} minutes past the server’s clock`,
  )
  .describe(
    `When it happened by the page’s clock: ISO 8601 with an offset, not more than ${FUTURE_TOLERANCE_MS / 60_000} minutes past the server’s clock`,
  );

export const IntegrityEvent = z
  .strictObject({
    type: EventType,
    at: At,
    client_seq: z
      .int()
      .min(0)
      .max(Number.MAX_SAFE_INTEGER)
      .describe(
        'The page’s own counter for its events, unique per attempt: an event whose client_seq is already stored is a duplicate (a replayed offline queue), ignored',
      ),
  })
  .meta({ id: 'IntegrityEvent' });

export const PostEventsBody = z
  .strictObject({
    events: z
      .array(IntegrityEvent)
      .min(1)
      .max(MAX_EVENTS_PER_REQUEST)
      .describe(`1 to ${MAX_EVENTS_PER_REQUEST} events`),
  })
  .meta({ id: 'PostIntegrityEvents' });
export type PostEventsInput = z.infer<typeof PostEventsBody>;

const Counts = z
  .object(
    Object.fromEntries(EVENT_TYPES.map((t) => [t, z.number().int()])) as Record<
      (typeof EVENT_TYPES)[number],
      z.ZodNumber
    >,
  )
  .describe('Events stored, per type (0 when none)');

const LastEvent = z
  .object({ type: EventType, at: z.string().describe('ISO 8601 UTC'), client_seq: z.number().int() })
  .nullable()
  .describe('The latest event by at (then client_seq); null before any');

/** What the live view shows per attempt: counts, total and the last event. */
export const IntegritySummary = z
  .object({
    total: z.number().int().describe(`Events stored for the attempt (at most ${MAX_EVENTS_PER_ATTEMPT})`),
    counts: Counts,
    last_event: LastEvent,
  })
  .meta({ id: 'IntegritySummary' });

export const PostEventsReply = z
  .object({
    stored: z.number().int().describe('Events of this request that were new, now stored'),
    duplicates: z
      .number()
      .int()
      .describe('Events of this request ignored: their client_seq was already stored (or repeated in the request)'),
    summary: IntegritySummary,
  })
  .meta({ id: 'IntegrityEventsStored' });

export const StoredEventView = z
  .object({
    type: EventType,
    at: z.string().describe('ISO 8601 UTC, the page’s clock'),
    client_seq: z.number().int(),
    received_at: z.string().describe('ISO 8601 UTC, the server’s clock when it was stored'),
  })
  .meta({ id: 'IntegrityEventView' });

export const EventPage = z
  .object({ data: z.array(StoredEventView), summary: IntegritySummary, pagination: Pagination })
  .meta({ id: 'IntegrityEventPage' });

export const ListEventsQuery = pagedQuery({});
