import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { readCache } from '../../functions/src/shared/cache';

// Pure: the per-instance read cache (frozen versions, share-code targets, account facts), no emulator needed.

/** A read that counts its calls and answers what `answer` says for that call. */
function countedRead<T>(answer: (call: number) => Promise<T>) {
  const read = () => answer(++read.calls);
  read.calls = 0;
  return read;
}

describe('shared/cache readCache', () => {
  it('reads a key once: callers asking while the read is under way, and after, share it', async () => {
    const cache = readCache<string>({ max: 10 });
    const read = countedRead(async () => 'v');
    const [a, b] = await Promise.all([cache.get('k', read), cache.get('k', read)]);
    assert.equal(await cache.get('k', read), 'v');
    assert.deepEqual([a, b, read.calls], ['v', 'v', 1]);
  });

  it('forgets a read that failed, or found nothing (undefined): the next caller reads again', async () => {
    const cache = readCache<string | undefined>({ max: 10 });
    const failing = countedRead<string | undefined>(async (call) => {
      if (call === 1) throw new Error('backend down');
      return 'back';
    });
    await assert.rejects(cache.get('k', failing), /backend down/);
    assert.equal(await cache.get('k', failing), 'back');
    const missing = countedRead<string | undefined>(async (call) => (call === 1 ? undefined : 'created'));
    assert.equal(await cache.get('m', missing), undefined);
    assert.equal(await cache.get('m', missing), 'created');
    assert.equal(failing.calls + missing.calls, 4);
  });

  it('holds at most `max` entries, dropping the least recently used', async () => {
    const cache = readCache<string>({ max: 2 });
    const read = countedRead(async (call) => `read ${call}`);
    await cache.get('a', read);
    await cache.get('b', read);
    await cache.get('a', read); // a is now the most recently used
    await cache.get('c', read); // b goes
    assert.equal(await cache.get('a', read), 'read 1');
    assert.equal(await cache.get('b', read), 'read 4');
    assert.equal(read.calls, 4);
  });

  it('with ttlMs, reads again once an entry is that old', async () => {
    const cache = readCache<string>({ max: 10, ttlMs: 50 });
    const read = countedRead(async (call) => `read ${call}`);
    assert.equal(await cache.get('k', read), 'read 1');
    assert.equal(await cache.get('k', read), 'read 1');
    await sleep(80);
    assert.equal(await cache.get('k', read), 'read 2');
  });

  it('clear forgets every entry, and a read failing after it leaves the newer entry alone', async () => {
    const cache = readCache<string>({ max: 10 });
    let fail!: (err: Error) => void;
    const first = cache.get('k', () => new Promise<string>((_, reject) => (fail = reject)));
    cache.clear();
    const read = countedRead(async () => 'fresh');
    assert.equal(await cache.get('k', read), 'fresh');
    fail(new Error('late failure'));
    await assert.rejects(first, /late failure/);
    assert.equal(await cache.get('k', read), 'fresh');
    assert.equal(read.calls, 1);
  });
});
