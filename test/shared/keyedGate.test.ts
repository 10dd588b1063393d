import assert from 'node:assert/strict';
import { keyedGate } from '../../functions/src/shared/keyedGate';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('keyedGate', () => {
  it('runs at most `limit` tasks of one key at once, and the rest in the order they came', async () => {
    const run = keyedGate(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const release: Array<() => void> = [];
    const tasks = [0, 1, 2, 3, 4].map((i) =>
      run('k', async () => {
        running += 1;
        most = Math.max(most, running);
        order.push(i);
        await new Promise<void>((resolve) => release.push(resolve));
        running -= 1;
        return i;
      }),
    );
    for (let n = 0; n < 5; n++) {
      await tick();
      release.shift()?.();
    }
    assert.deepEqual(await Promise.all(tasks), [0, 1, 2, 3, 4]);
    assert.equal(most, 2);
    assert.deepEqual(order, [0, 1, 2, 3, 4]);
  });

  it('lets tasks of other keys through at once', async () => {
    const run = keyedGate(1);
    let release!: () => void;
    const held = run('a', () => new Promise<void>((resolve) => (release = resolve)));
    assert.equal(await run('b', async () => 'b'), 'b');
    release();
    await held;
  });

  it('passes a task’s failure to its caller and frees its slot', async () => {
    const run = keyedGate(1);
    await assert.rejects(
      run('k', async () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    assert.equal(await run('k', async () => 'next'), 'next');
  });
});
