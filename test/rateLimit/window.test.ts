import assert from 'node:assert/strict';
import { counterKey, currentWindow, limitState, secondsUntil } from '../../functions/src/rateLimit/window';

describe('rate limit windows', () => {
  it('align to the minute, so every instance counts into the same window', () => {
    const w = currentWindow(Date.UTC(2026, 0, 1, 12, 0, 42, 500));
    assert.equal(w.resetAtMs, Date.UTC(2026, 0, 1, 12, 1, 0));
    assert.equal(currentWindow(Date.UTC(2026, 0, 1, 12, 0, 1)).id, w.id);
    assert.equal(currentWindow(Date.UTC(2026, 0, 1, 12, 1, 0)).id, w.id + 1);
  });
  it('report whole seconds until reset, at least 1', () => {
    assert.equal(secondsUntil(10_000, 8_500), 2);
    assert.equal(secondsUntil(10_000, 9_999), 1);
    assert.equal(secondsUntil(10_000, 10_000), 1);
  });
  it('allow exactly the limit and refuse the next request', () => {
    assert.deepEqual(limitState(100, 100, 60_000, 0), { limit: 100, remaining: 0, resetSeconds: 60, exceeded: false });
    assert.equal(limitState(101, 100, 60_000, 0).exceeded, true);
    assert.equal(limitState(1, 100, 60_000, 0).remaining, 99);
  });
  it('name counters safely for Firestore document ids, IPv6 included', () => {
    const key = counterKey('ip', '2001:db8::1/evil', currentWindow(0));
    assert.ok(!key.includes('/'));
    assert.equal(key, 'ip_2001%3Adb8%3A%3A1%2Fevil_0');
  });
});
