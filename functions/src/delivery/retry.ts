import type { DeliveryStatus, DeliveryTry } from '../outbox';

// Pure: what a try's outcome does to its delivery, and in which order the
// runner takes the due ones. No Firebase here, so every decision is tested with
// an explicit clock.

/** After the first try fails: the Standard Webhooks schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), then failed. */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
] as const;

/** The first try and one per delay. */
export const MAX_TRIES = RETRY_DELAYS_MS.length + 1;

/** Tries kept in `history`, newest last: a resend starts the schedule again, so the count alone is unbounded. */
export const HISTORY_KEPT = 20;

/**
 * How long a try holds its delivery (`next_try_at` pushed this far while it runs):
 * longer than a try can take, so no second runner picks it up meanwhile; if the
 * one trying dies, the delivery is due again after it.
 */
export const LEASE_MS = 90_000;

/** A backend failure (ours, not the receiver's) is not a try: the delivery is looked at again after this. */
export const BACKEND_RETRY_MS = 60_000;

/** How long an event may stay without its deliveries before the runner fans it out (its trigger was lost). */
export const FAN_OUT_GRACE_MS = 60_000;

export const isSuccess = (code: number | null): boolean => code !== null && code >= 200 && code < 300;

export interface DeliveryState {
  status: DeliveryStatus;
  tries: number;
  /** Tries since the delivery was made or last resent: the schedule counts these. */
  round_tries: number;
  next_try_at: string | null;
  last_code: number | null;
  last_error: string | null;
  history: DeliveryTry[];
  updated_at: string;
}

/**
 * The delivery after one try: delivered on a 2xx; failed when the receiver is
 * gone (a webhook's 410) or the schedule is spent; else pending, due after the
 * next delay.
 */
export function afterTry(
  before: Pick<DeliveryState, 'tries' | 'history'> & { round_tries?: number },
  outcome: DeliveryTry & { gone?: boolean },
  nowMs: number,
): DeliveryState {
  const roundTries = (before.round_tries ?? before.tries) + 1;
  const common = {
    tries: before.tries + 1,
    round_tries: roundTries,
    last_code: outcome.code,
    last_error: outcome.error,
    history: [...before.history, outcome].slice(-HISTORY_KEPT),
    updated_at: new Date(nowMs).toISOString(),
  };
  if (isSuccess(outcome.code)) return { ...common, status: 'delivered', next_try_at: null, last_error: null };
  if (outcome.gone || roundTries >= MAX_TRIES) return { ...common, status: 'failed', next_try_at: null };
  return {
    ...common,
    status: 'pending',
    next_try_at: new Date(nowMs + RETRY_DELAYS_MS[roundTries - 1]).toISOString(),
  };
}

/** A resend: pending again, due now, its schedule restarted; the message id, the body and the history stay. */
export function resent(nowMs: number): Pick<DeliveryState, 'status' | 'round_tries' | 'next_try_at' | 'updated_at'> {
  const at = new Date(nowMs).toISOString();
  return { status: 'pending', round_tries: 0, next_try_at: at, updated_at: at };
}

/** A backend failure while trying (ours): no try counted, looked at again later. */
export function afterBackendFailure(
  error: string,
  nowMs: number,
): Pick<DeliveryState, 'next_try_at' | 'last_error' | 'updated_at'> {
  return {
    next_try_at: new Date(nowMs + BACKEND_RETRY_MS).toISOString(),
    last_error: error,
    updated_at: new Date(nowMs).toISOString(),
  };
}

/**
 * The runner's order: one due delivery of each organization in turn, so an
 * organization with a thousand due gets no earlier turn than one with one.
 * Each organization's own are taken oldest first.
 */
export function roundRobin<T>(byOrganization: ReadonlyArray<ReadonlyArray<T>>): T[] {
  const order: T[] = [];
  const longest = Math.max(0, ...byOrganization.map((items) => items.length));
  for (let i = 0; i < longest; i += 1) for (const items of byOrganization) if (i < items.length) order.push(items[i]);
  return order;
}

/** The runner's bounds: tries at once overall and per organization, and how many of one organization's it takes per run. */
export const RUNNER_LIMITS = {
  concurrency: 32,
  perOrganization: 4,
  perOrganizationPerRun: 200,
  /** No try is started after this much of a run, so a run ends before the next one (every minute) starts. */
  startWithinMs: 40_000,
} as const;

/**
 * Runs `work` over `items` in their order with at most `concurrency` at once
 * and at most `perKey` at once for any one key; an item whose key is full
 * waits while later items of other keys start (a backlog never blocks others).
 */
export async function runFairly<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  work: (item: T) => Promise<void>,
  limits: { concurrency: number; perKey: number; startWithin?: () => boolean },
): Promise<void> {
  const waiting = [...items];
  const running = new Map<string, number>();
  let active = 0;
  await new Promise<void>((resolve) => {
    const pump = () => {
      for (let i = 0; i < waiting.length && active < limits.concurrency;) {
        if (limits.startWithin && !limits.startWithin()) {
          waiting.length = 0;
          break;
        }
        const key = keyOf(waiting[i]);
        if ((running.get(key) ?? 0) >= limits.perKey) {
          i += 1;
          continue;
        }
        const [item] = waiting.splice(i, 1);
        running.set(key, (running.get(key) ?? 0) + 1);
        active += 1;
        work(item)
          .catch(() => undefined)
          .finally(() => {
            running.set(key, (running.get(key) ?? 1) - 1);
            active -= 1;
            pump();
          });
      }
      // With none running every key is free, so nothing can be left waiting here.
      if (active === 0) resolve();
    };
    pump();
  });
}
