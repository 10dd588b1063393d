import assert from 'node:assert/strict';
import type { DeliveryTry } from '../../functions/src/outbox/documents';
import {
  afterTry,
  HISTORY_KEPT,
  MAX_TRIES,
  resent,
  RETRY_DELAYS_MS,
  roundRobin,
  runFairly,
} from '../../functions/src/delivery/retry';

// Pure retry decisions of the outbox, with an explicit clock.

const T0 = Date.parse('2026-01-01T00:00:00Z');
const failed = (code: number | null = 500): DeliveryTry => ({
  at: new Date(T0).toISOString(),
  code,
  error: 'x',
  ms: 1,
});

describe('delivery retry: afterTry', () => {
  it('follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up after the 8th try', () => {
    assert.deepEqual(RETRY_DELAYS_MS, [5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6]);
    let state = { tries: 0, history: [] as DeliveryTry[], round_tries: 0 };
    const delays: number[] = [];
    for (let i = 0; i < MAX_TRIES; i += 1) {
      const next = afterTry(state, failed(), T0);
      if (next.next_try_at) delays.push(Date.parse(next.next_try_at) - T0);
      state = next;
      if (i < MAX_TRIES - 1) assert.equal(next.status, 'pending');
      else assert.equal(next.status, 'failed');
    }
    assert.deepEqual(delays, [...RETRY_DELAYS_MS]);
    assert.equal(state.tries, 8);
  });

  it('marks a 2xx delivered, with the code kept and no next try', () => {
    const next = afterTry({ tries: 2, history: [] }, { ...failed(204), error: null }, T0);
    assert.deepEqual([next.status, next.tries, next.last_code, next.next_try_at], ['delivered', 3, 204, null]);
  });

  it('counts a 3xx, a timeout (code null) and a 4xx as failures', () => {
    for (const code of [301, 302, null, 400, 404, 429])
      assert.equal(afterTry({ tries: 0, history: [] }, failed(code), T0).status, 'pending', String(code));
  });

  it('fails at once when the receiver is gone (410)', () => {
    const next = afterTry({ tries: 0, history: [] }, { ...failed(410), gone: true }, T0);
    assert.equal(next.status, 'failed');
  });

  it('keeps a bounded history, newest last', () => {
    let state = { tries: 0, history: [] as DeliveryTry[], round_tries: 0 };
    for (let i = 0; i < 3 * HISTORY_KEPT; i += 1)
      state = { ...afterTry(state, failed(500 + (i % 10)), T0), round_tries: 0 };
    assert.equal(state.history.length, HISTORY_KEPT);
    assert.equal(state.tries, 3 * HISTORY_KEPT);
  });

  it('restarts the schedule after a resend', () => {
    const spent = { tries: 8, round_tries: 8, history: [] };
    const again = { ...spent, ...resent(T0) };
    const next = afterTry(again, failed(), T0);
    assert.equal(next.status, 'pending');
    assert.equal(Date.parse(next.next_try_at!) - T0, 5_000);
    assert.equal(next.tries, 9);
  });
});

describe('delivery retry: roundRobin and runFairly', () => {
  it('takes one of each organization in turn', () => {
    assert.deepEqual(roundRobin([['a1', 'a2', 'a3'], ['b1'], ['c1', 'c2']]), ['a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
  });

  it('never runs more than the per-key cap at once, and lets other keys past a full one', async () => {
    const items = [...Array.from({ length: 20 }, (_, i) => ({ k: 'a', i })), { k: 'b', i: 0 }];
    const running = new Map<string, number>();
    let peakA = 0;
    const startedAt = new Map<string, number>();
    const t0 = Date.now();
    await runFairly(
      items,
      (x) => x.k,
      async (x) => {
        startedAt.set(`${x.k}${x.i}`, Date.now() - t0);
        running.set(x.k, (running.get(x.k) ?? 0) + 1);
        peakA = Math.max(peakA, running.get('a') ?? 0);
        await new Promise((r) => setTimeout(r, x.k === 'a' ? 30 : 1));
        running.set(x.k, running.get(x.k)! - 1);
      },
      { concurrency: 8, perKey: 2 },
    );
    assert.equal(peakA, 2);
    assert.ok(startedAt.get('b0')! < 20, `b started at ${startedAt.get('b0')} ms, not behind a's backlog`);
    assert.equal(startedAt.size, 21);
  });

  it('stops starting work once its time is up, and still finishes what runs', async () => {
    let started = 0;
    let allowed = 3;
    await runFairly(
      Array.from({ length: 10 }, (_, i) => i),
      () => 'k',
      async () => {
        started += 1;
        allowed -= 1;
      },
      { concurrency: 1, perKey: 1, startWithin: () => allowed > 0 },
    );
    assert.equal(started, 3);
  });
});
