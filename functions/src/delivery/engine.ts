import { errorText, log } from '../platform';
import { deliveryChannels, type DeliveryTry, type StoredDelivery, type StoredEvent } from '../outbox';
import {
  afterBackendFailure,
  afterTry,
  FAN_OUT_GRACE_MS,
  LEASE_MS,
  RETRY_DELAYS_MS,
  roundRobin,
  runFairly,
  RUNNER_LIMITS,
} from './retry';
import * as store from './store';

// The delivery engine, generic over channels (outbox/channels.ts): an event's
// trigger fans it out into deliveries and tries them at once; the runner, every
// minute, fans out any event whose trigger was lost and tries every due delivery.

/** Runs of the runner that may fail to fan one event out before it is set aside (logged as an error). */
const FAN_OUT_ATTEMPTS = 10;
/** A fan-out tries this many of its deliveries itself; the rest are due at once for the runner. */
const TRIED_BY_FAN_OUT = 100;
/** Tries one fan-out runs at once. */
const FAN_OUT_CONCURRENCY = 16;

/**
 * Plans the event's deliveries on every channel and creates them under their
 * deterministic ids (a second run makes none), marks the event fanned out,
 * then tries those it made, and once more 5 s later those that failed (the
 * schedule's first delay; later ones are the runner's). A plan that throws
 * leaves the event not fanned out: the runner does it again.
 */
export async function fanOut(event: StoredEvent, nowMs = Date.now()): Promise<{ created: number }> {
  const channels = deliveryChannels();
  const planned = (
    await Promise.all(Object.values(channels).map(async (channel) => (channel ? await channel.plan(event) : [])))
  ).flat();
  const made = await store.createDeliveries(event, planned, nowMs, (index) =>
    index < TRIED_BY_FAN_OUT ? nowMs + LEASE_MS : nowMs,
  );
  await store.markFannedOut(event.client_id, event.id);
  const held = made.slice(0, TRIED_BY_FAN_OUT);
  const outcomes = new Map<string, StoredDelivery | undefined>();
  await runFairly(
    held,
    (d) => d.id,
    async (d) => void outcomes.set(d.id, await tryDelivery(d)),
    { concurrency: FAN_OUT_CONCURRENCY, perKey: 1 },
  );
  const firstRetry = held.filter((d) => outcomes.get(d.id)?.status === 'pending');
  if (firstRetry.length > 0) {
    await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[0]));
    await runFairly(
      firstRetry,
      (d) => d.id,
      async (d) => void (await claimAndTry(d.client_id, d.id, Date.now())),
      { concurrency: FAN_OUT_CONCURRENCY, perKey: 1 },
    );
  }
  return { created: made.length };
}

/** Claims a due delivery (none when not due or taken) and tries it. */
export async function claimAndTry(clientId: string, id: string, nowMs: number): Promise<StoredDelivery | undefined> {
  const delivery = await store.claim(clientId, id, nowMs);
  return delivery ? tryDelivery(delivery, nowMs) : undefined;
}

/**
 * One try of a delivery this caller holds: the channel sends it, the outcome is
 * recorded (every try, its history bounded). A channel that throws is our
 * backend failing: no try counted, looked at again later.
 */
export async function tryDelivery(delivery: StoredDelivery, nowMs?: number): Promise<StoredDelivery> {
  const channel = deliveryChannels()[delivery.target.kind];
  let next: Partial<StoredDelivery>;
  let tried: DeliveryTry | undefined;
  try {
    if (!channel) throw new Error(`No channel delivers ${delivery.target.kind}`);
    tried = await channel.send(delivery);
    next = afterTry(delivery, tried, nowMs ?? Date.now());
  } catch (err) {
    log.warn('outbox_try_failed', { delivery: delivery.id, client_id: delivery.client_id, error: errorText(err) });
    next = afterBackendFailure(`Not sent: ${errorText(err)}`.slice(0, 500), nowMs ?? Date.now());
  }
  // A resend while this try ran wins: this outcome only counts as a try of it.
  await store.recordOutcome(delivery.client_id, delivery.id, delivery.next_try_at, next, tried);
  return { ...delivery, ...next };
}

/**
 * The scheduled runner: fans out events left without deliveries, then tries
 * the due deliveries of every organization in turn (retry.ts roundRobin), at
 * most RUNNER_LIMITS.perOrganization of one organization at once. Each try is
 * cut at 15 s, so another organization's due delivery starts within
 * ceil(its place in the turn / concurrency) × 15 s of the run's start, whatever
 * the backlog of the others.
 */
export async function runDue(nowMs = Date.now()): Promise<{ fannedOut: number; tried: number }> {
  const startedAt = Date.now();
  let fannedOut = 0;
  for (const event of await store.unfannedEvents(nowMs - FAN_OUT_GRACE_MS, 50)) {
    try {
      await fanOutLate(event, nowMs);
      fannedOut += 1;
    } catch (err) {
      // One that keeps failing is set aside after FAN_OUT_ATTEMPTS runs, so it cannot hold the oldest places for ever.
      const given = await store.fanOutFailed(event, errorText(err), FAN_OUT_ATTEMPTS);
      (given ? log.error : log.warn)(given ? 'outbox_fan_out_given_up' : 'outbox_fan_out_failed', {
        event: event.id,
        client_id: event.client_id,
        error: errorText(err),
      });
    }
  }
  const organizations = await store.organizationsWithPending();
  const due = await Promise.all(
    organizations.map((clientId) => store.dueDeliveries(clientId, nowMs, RUNNER_LIMITS.perOrganizationPerRun)),
  );
  let tried = 0;
  await runFairly(
    roundRobin(due),
    (d) => d.client_id,
    async (d) => {
      if (await claimAndTry(d.client_id, d.id, nowMs)) tried += 1;
    },
    {
      concurrency: RUNNER_LIMITS.concurrency,
      perKey: RUNNER_LIMITS.perOrganization,
      startWithin: () => Date.now() - startedAt < RUNNER_LIMITS.startWithinMs,
    },
  );
  return { fannedOut, tried };
}

/** A lost trigger's fan-out, by the runner: deliveries made due at once, tried by this same run. */
async function fanOutLate(event: StoredEvent, nowMs: number): Promise<void> {
  const channels = deliveryChannels();
  const planned = (
    await Promise.all(Object.values(channels).map(async (channel) => (channel ? await channel.plan(event) : [])))
  ).flat();
  await store.createDeliveries(event, planned, nowMs, () => nowMs);
  await store.markFannedOut(event.client_id, event.id);
}
