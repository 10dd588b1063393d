import assert from 'node:assert/strict';
import { percentageOf, round4 } from '../../functions/src/shared/scores';

// Pure: how scores are reported, no emulator needed.

describe('shared/scores percentageOf', () => {
  it('is score / total × 100, rounded to 4 decimals', () => {
    assert.equal(percentageOf(7, 10), 70);
    assert.equal(percentageOf(10, 10), 100);
    assert.equal(percentageOf(0, 10), 0);
    assert.equal(percentageOf(1, 3), 33.3333);
    assert.equal(percentageOf(2, 3), 66.6667);
    assert.equal(percentageOf(0.7, 1), 70);
  });

  it('is 0 when the total is 0', () => {
    assert.equal(percentageOf(5, 0), 0);
    assert.equal(percentageOf(0, 0), 0);
  });
});

describe('shared/scores round4', () => {
  it('rounds to 4 decimals and never answers -0', () => {
    assert.equal(round4(1 / 3), 0.3333);
    assert.equal(round4(2 / 3), 0.6667);
    assert.ok(Object.is(round4(-0.00001), 0));
  });
});
