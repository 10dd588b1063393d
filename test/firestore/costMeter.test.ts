import assert from 'node:assert/strict';
import { sequentialRoundTrips } from '../../functions/src/firestore/costMeter';

describe('sequentialRoundTrips (the critical path the cost meter reports)', () => {
  it('counts round trips made one after another', () => {
    assert.equal(
      sequentialRoundTrips([
        [0, 10],
        [10, 20],
        [20, 30],
      ]),
      3,
    );
  });
  it('counts round trips made side by side once', () => {
    assert.equal(
      sequentialRoundTrips([
        [0, 10],
        [1, 12],
        [2, 9],
      ]),
      1,
    );
  });
  it('follows the longest chain when a chain runs beside a single call', () => {
    // The limiter [0,10] beside a token check, then the client read [3,13], then the handler's read [13,20].
    assert.equal(
      sequentialRoundTrips([
        [0, 10],
        [3, 13],
        [13, 20],
      ]),
      2,
    );
  });
  it('is 0 for a request that made none', () => assert.equal(sequentialRoundTrips([]), 0));
});
