import assert from 'node:assert/strict';
import { SingleFlight } from '../../web/src/taker/singleFlight';

describe('SingleFlight (one send of a queue at a time)', () => {
  it('shares the running pass with calls made meanwhile, and makes one more pass for them', async () => {
    let passes = 0;
    let running = 0;
    let most = 0;
    let release: () => void = () => {};
    const flight = new SingleFlight(async () => {
      passes++;
      most = Math.max(most, ++running);
      if (passes === 1) await new Promise<void>((r) => (release = r));
      running--;
      return true;
    });
    const first = flight.run();
    const during = [flight.run(), flight.run(), flight.run()];
    assert.ok(
      during.every((p) => p === first),
      'the calls meanwhile share the running promise',
    );
    release();
    await first;
    assert.equal(passes, 2, 'one more pass for all the calls made meanwhile');
    assert.equal(most, 1, 'never two passes at once');
  });

  it('stops when a pass says so, without the closing step, and runs it when the passes run out', async () => {
    const after: string[] = [];
    await new SingleFlight(
      async () => false,
      async () => void after.push('stopped'),
    ).run();
    await new SingleFlight(
      async () => true,
      async () => void after.push('ran out'),
    ).run();
    assert.deepEqual(after, ['ran out']);
  });
});
