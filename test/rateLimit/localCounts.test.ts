import assert from 'node:assert/strict';
import { LocalCounts, MIN_FLUSH_INTERVAL_MS, shareThreshold } from '../../functions/src/rateLimit/localCounts';

const RESET = 60_000;
const LIMIT = 100;
const SHARE = shareThreshold(LIMIT);

/** Admits `n` requests of `key` at `now`, asserting each is admitted. */
function admit(counts: LocalCounts, key: string, n: number, now = 0) {
  const decisions = [];
  for (let i = 0; i < n; i += 1) {
    const d = counts.decide(key, LIMIT, RESET, now);
    assert.equal(d.kind, 'admit', `request ${i + 1}`);
    decisions.push(d);
  }
  return decisions;
}

describe('shareThreshold', () => {
  it('is a fifth of the limit, at least one', () => {
    assert.equal(shareThreshold(100), 20);
    assert.equal(shareThreshold(10), 2);
    assert.equal(shareThreshold(3), 1);
    assert.equal(shareThreshold(0), 1);
  });
});

describe('LocalCounts', () => {
  it('admits below its share with no flush due, counting up from one', () => {
    const counts = new LocalCounts();
    const decisions = admit(counts, 'k', SHARE - 1);
    assert.deepEqual(
      decisions.map((d) => d.kind === 'admit' && d.count),
      Array.from({ length: SHARE - 1 }, (_, i) => i + 1),
    );
    assert.ok(
      decisions.every((d) => d.kind === 'admit' && !d.flushDue),
      'no write below the share',
    );
  });

  it('makes a flush due with the request that fills its share, and holds the next one until a flush', () => {
    const counts = new LocalCounts();
    admit(counts, 'k', SHARE - 1);
    assert.deepEqual(counts.decide('k', LIMIT, RESET, 0), { kind: 'admit', count: SHARE, flushDue: true });
    assert.deepEqual(counts.decide('k', LIMIT, RESET, 0), { kind: 'wait' });
  });

  it('decides from the shared count read back plus what it counted since', () => {
    const counts = new LocalCounts();
    admit(counts, 'k', SHARE);
    assert.equal(counts.startFlush('k', 0), SHARE);
    // In flight: still counted.
    assert.deepEqual(counts.decide('k', LIMIT, RESET, 0), { kind: 'wait' });
    counts.flushed('k', { requests: 70, auth_failures: 3 }); // 50 from other instances
    assert.equal(counts.failures('k'), 3);
    const [next] = admit(counts, 'k', 1);
    assert.equal(next.kind === 'admit' && next.count, 71);
  });

  it('refuses past the limit without counting the refusal', () => {
    const counts = new LocalCounts();
    admit(counts, 'k', SHARE);
    counts.startFlush('k', 0);
    counts.flushed('k', { requests: LIMIT - 1, auth_failures: 0 });
    admit(counts, 'k', 1);
    assert.deepEqual(counts.decide('k', LIMIT, RESET, 0), { kind: 'refuse', count: LIMIT + 1 });
    assert.deepEqual(counts.decide('k', LIMIT, RESET, 0), { kind: 'refuse', count: LIMIT + 1 });
  });

  it('is exact alone: one instance admits exactly the limit', () => {
    const counts = new LocalCounts();
    let admitted = 0;
    let now = 0;
    for (let i = 0; i < 150; i += 1) {
      let d = counts.decide('k', LIMIT, RESET, now);
      if (d.kind === 'wait') {
        now += counts.flushDelay('k', now);
        const amount = counts.startFlush('k', now);
        counts.flushed('k', { requests: admitted, auth_failures: 0 });
        assert.ok(amount > 0);
        d = counts.decide('k', LIMIT, RESET, now);
      }
      if (d.kind === 'admit') admitted += 1;
    }
    assert.equal(admitted, LIMIT);
  });

  it('starts flushes of one key at least a second apart', () => {
    const counts = new LocalCounts();
    assert.equal(counts.flushDelay('k', 5_000), 0, 'never flushed: at once');
    admit(counts, 'k', 3, 5_000);
    counts.startFlush('k', 5_000);
    counts.flushed('k', { requests: 3, auth_failures: 0 });
    assert.equal(counts.flushDelay('k', 5_400), MIN_FLUSH_INTERVAL_MS - 400);
    assert.equal(counts.flushDelay('k', 6_000), 0);
  });

  it('keeps a failed flush’s counts for the next one', () => {
    const counts = new LocalCounts();
    admit(counts, 'k', 5);
    assert.equal(counts.startFlush('k', 0), 5);
    admit(counts, 'k', 2);
    counts.flushFailed('k');
    assert.equal(counts.startFlush('k', 1_000), 7);
  });

  it('counts a request admitted while its flush failed (fail open), over the share', () => {
    const counts = new LocalCounts();
    admit(counts, 'k', SHARE);
    counts.admitUncounted('k', RESET, 0);
    assert.equal(counts.startFlush('k', 0), SHARE + 1);
  });

  it('never lets a read-back lower the count: counts only grow in a window', () => {
    const counts = new LocalCounts();
    admit(counts, 'k', 1);
    counts.seen('k', { requests: 40, auth_failures: 2 });
    counts.seen('k', { requests: 30, auth_failures: 1 });
    assert.equal(counts.failures('k'), 2);
    const [d] = admit(counts, 'k', 1);
    assert.equal(d.kind === 'admit' && d.count, 42);
  });

  it('lets a request that writes nothing through at its share without a flush, while the count allows', () => {
    const counts = new LocalCounts();
    admit(counts, 'k', SHARE);
    const quiet = { writesNothing: true };
    assert.deepEqual(counts.decide('k', LIMIT, RESET, 0, quiet), { kind: 'admit', count: SHARE + 1, flushDue: false });
    for (let i = SHARE + 2; i <= LIMIT; i += 1) assert.equal(counts.decide('k', LIMIT, RESET, 0, quiet).kind, 'admit');
    assert.equal(counts.decide('k', LIMIT, RESET, 0, quiet).kind, 'refuse');
  });

  it('holds keys apart', () => {
    const counts = new LocalCounts();
    admit(counts, 'a', SHARE);
    const [d] = admit(counts, 'b', 1);
    assert.equal(d.kind === 'admit' && d.count, 1);
  });

  it('stays bounded: past windows go first, then the oldest key', () => {
    const counts = new LocalCounts(3);
    counts.decide('old', LIMIT, 1_000, 0);
    counts.decide('a', LIMIT, RESET, 0);
    counts.decide('b', LIMIT, RESET, 0);
    counts.decide('c', LIMIT, RESET, 2_000); // 'old' has expired
    assert.equal(counts.size, 3);
    counts.decide('d', LIMIT, RESET, 2_000); // full of live keys: 'a' goes
    assert.equal(counts.size, 3);
    const [fresh] = admit(counts, 'a', 1, 2_000);
    assert.equal(fresh.kind === 'admit' && fresh.count, 1);
  });

  /**
   * N instances, one caller spread over them in turn, flushes answered in
   * order: what they admit together stays within limit + N × share − 1.
   */
  it('holds a caller spread over 20 instances within limit + 20 × share', () => {
    const N = 20;
    const instances = Array.from({ length: N }, () => new LocalCounts());
    let shared = 0;
    let admitted = 0;
    let now = 0;
    for (let i = 0; i < 5_000; i += 1) {
      const counts = instances[i % N];
      now += 1;
      let d = counts.decide('k', LIMIT, RESET, now);
      if (d.kind === 'wait') {
        now += counts.flushDelay('k', now);
        shared += counts.startFlush('k', now);
        counts.flushed('k', { requests: shared, auth_failures: 0 });
        d = counts.decide('k', LIMIT, RESET, now);
      }
      if (d.kind === 'admit') admitted += 1;
    }
    assert.ok(admitted >= LIMIT && admitted <= LIMIT + N * SHARE - 1, `${admitted} admitted`);
  });
});
