import assert from 'node:assert/strict';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { documentedOperations, seedKeyOf } from './endpointFuzz';
import { ALL_GROUPS, SHARDS } from './groups';

// The fuzz shards together fuzz every operation: each has a seed, and no seed names an operation that is gone.

describe('fuzz seeds', function () {
  let server: InProcessApi;
  before(async () => {
    server = await startInProcessApi();
  });
  after(() => server.close());

  it('has a seed for every operation in the OpenAPI document (for each shape of a body that has several), and none for an operation it lacks', async () => {
    const documented = (await documentedOperations(server)).map((op) => op.seedKey).sort();
    const seeded = ALL_GROUPS.flatMap((group) => group.seeds.map(seedKeyOf));
    assert.deepEqual(
      documented.filter((key) => !seeded.includes(key)),
      [],
      'operations without a fuzz seed',
    );
    assert.deepEqual(
      seeded.filter((key) => !documented.includes(key)),
      [],
      'seeds for operations that do not exist',
    );
    assert.equal(new Set(seeded).size, seeded.length, 'one seed per operation and shape');
  });

  it('puts each group in exactly one shard', () => {
    const placed = Object.values(SHARDS).flat();
    assert.deepEqual(
      ALL_GROUPS.filter((group) => placed.filter((g) => g === group).length !== 1).map((g) => g.seeds[0]?.operation),
      [],
    );
    assert.equal(placed.length, ALL_GROUPS.length);
  });
});
