// Pure bookkeeping of one limiter's requests counted on this instance before
// they reach the shared counters (the I/O is in middleware.ts). Per counter key
// (the key names its window): `shared` is the value last read back from the
// shared counter (our own flushed counts included), `inFlight` what a flush
// under way is adding, `pending` what was admitted here since. A decision sees
// shared + inFlight + pending: never less than this instance alone has counted,
// so alone it is exact; what it cannot see is what other instances have not
// flushed yet, and each instance keeps at most `shareThreshold(limit)` such
// counts (the slack: docs/security.md#rate-limits).
//
// Why a caller spread over N instances gets at most limit + N × S − 1 in a
// window (S = shareThreshold(limit)), while the counters can be written: take
// the first commit that brings the shared counter to the limit or past it. Its
// instance added at most S to fewer than `limit`, and admits nothing once it
// reads that back; every other instance admits nothing after its next read-back
// either, and until then holds at most S counts not in that commit. If no
// commit ever reaches the limit, the counter ends below it and each instance
// holds at most S more.

/** Flushes of one key on one instance are at least this far apart. */
export const MIN_FLUSH_INTERVAL_MS = 1000;

/**
 * How many admitted counts an instance may hold unflushed for one key: a flush
 * is due once a key holds that many, and further requests wait for it. Below
 * it a key costs no write at all, so a caller well under its limit (a student
 * in a hall, a health check) writes nothing. A fifth of the limit.
 */
export const shareThreshold = (limit: number): number => Math.max(1, Math.ceil(limit / 5));

export interface SharedCounters {
  requests: number;
  auth_failures: number;
}

interface Entry {
  resetAtMs: number;
  shared: number;
  failures: number;
  pending: number;
  inFlight: number;
  /** When the last flush started (-Infinity: never). */
  lastFlushAt: number;
}

export type Decision =
  /** Over the limit: `count` is what it would have been. Not counted. */
  | { kind: 'refuse'; count: number }
  /** Admitted and counted here; `flushDue`: start a flush of this key (see `flushDelay`). */
  | { kind: 'admit'; count: number; flushDue: boolean }
  /** This instance already holds its share of unflushed counts: wait for a flush, then decide again. */
  | { kind: 'wait' };

const MAX_KEYS = 10_000;

export class LocalCounts {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxKeys = MAX_KEYS) {}

  private entry(key: string, resetAtMs: number, nowMs: number): Entry {
    let found = this.entries.get(key);
    if (found) return found;
    this.evict(nowMs);
    found = { resetAtMs, shared: 0, failures: 0, pending: 0, inFlight: 0, lastFlushAt: -Infinity };
    this.entries.set(key, found);
    return found;
  }

  // Past windows are worth nothing (their keys are never asked for again). Full of
  // live keys, the oldest goes with whatever it had not flushed: a flood of that many
  // callers in one minute gains at most one share each.
  private evict(nowMs: number): void {
    if (this.entries.size < this.maxKeys) return;
    for (const [key, e] of this.entries) if (e.resetAtMs <= nowMs && e.inFlight === 0) this.entries.delete(key);
    if (this.entries.size >= this.maxKeys) this.entries.delete(this.entries.keys().next().value!);
  }

  /**
   * The verdict on one more request against `key`: over the limit, admitted
   * (and counted), or to wait for a flush. `writesNothing`: the request never
   * makes a flush due nor waits for one (its count joins the next flush another
   * request makes): it is admitted while the count allows.
   */
  decide(key: string, limit: number, resetAtMs: number, nowMs: number, { writesNothing = false } = {}): Decision {
    const e = this.entry(key, resetAtMs, nowMs);
    const unflushed = e.pending + e.inFlight;
    const count = e.shared + unflushed + 1;
    if (count > limit) return { kind: 'refuse', count };
    const share = shareThreshold(limit);
    if (!writesNothing && unflushed >= share) return { kind: 'wait' };
    e.pending += 1;
    return { kind: 'admit', count, flushDue: !writesNothing && unflushed + 1 >= share };
  }

  /** Counts a request that was admitted without a verdict (its flush failed: fail open). */
  admitUncounted(key: string, resetAtMs: number, nowMs: number): void {
    this.entry(key, resetAtMs, nowMs).pending += 1;
  }

  /** How long until a flush of `key` may start (0: now): at most one a second. */
  flushDelay(key: string, nowMs: number): number {
    const e = this.entries.get(key);
    if (!e) return 0;
    return Math.max(0, e.lastFlushAt + MIN_FLUSH_INTERVAL_MS - nowMs);
  }

  /** Starts a flush: the amount to add to the shared counter (0 when nothing is pending). */
  startFlush(key: string, nowMs: number): number {
    const e = this.entries.get(key);
    if (!e) return 0;
    e.lastFlushAt = nowMs;
    e.inFlight += e.pending;
    e.pending = 0;
    return e.inFlight;
  }

  /** The flush's increment was committed: `counters` is what it read back, our counts included. */
  flushed(key: string, counters: SharedCounters): void {
    const e = this.entries.get(key);
    if (!e) return;
    e.inFlight = 0;
    this.seen(key, counters);
  }

  /** The flush failed: its counts are pending again, for the next one. */
  flushFailed(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    e.pending += e.inFlight;
    e.inFlight = 0;
  }

  /**
   * Shared counters read back by any other commit (a refused credential's
   * count): never lower what is known, since counts only grow in a window.
   * Counts still in flight are not in it.
   */
  seen(key: string, counters: SharedCounters): void {
    const e = this.entries.get(key);
    if (!e) return;
    e.shared = Math.max(e.shared, counters.requests);
    e.failures = Math.max(e.failures, counters.auth_failures);
  }

  /** Refused credentials of `key` as last read back from the shared counter. */
  failures(key: string): number {
    return this.entries.get(key)?.failures ?? 0;
  }

  /** Test hook: the number of keys held. */
  get size(): number {
    return this.entries.size;
  }
}
