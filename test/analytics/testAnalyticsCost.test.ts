import assert from 'node:assert/strict';
import { publishTest } from '../attempts/fixtures';
import { createTenant, createUser } from '../support/fixtures';
import { debugCost } from '../support/http';
import { analytics, take } from './fixtures';

// The cost of a test's analytics does not grow with its attempts. Run alone (scripts/testGroups.mjs):
// the frozen version is cached per instance, so the figures compare only while one instance serves.

describe('GET /api/analytics/tests/{testId}: cost (X-Debug-Cost)', function () {
  this.timeout(120_000);

  it('reads the same documents in the same round trips with 1 submitted attempt and with 12: no attempt is read', async () => {
    const tenant = await createTenant();
    const figures: Array<Record<string, number>> = [];
    for (const takers of [1, 12]) {
      const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 3 });
      const students = await Promise.all(Array.from({ length: takers }, () => createUser('student', tenant.clientId)));
      for (const [i, s] of students.entries())
        await take(s, test.id, { 'Question 1': i % 2 ? 'A' : 'B', 'Question 2': 'A' });
      await analytics(tenant.admin.token, test.id); // the frozen version is read once per instance, then cached
      const res = await analytics(tenant.admin.token, test.id);
      assert.equal(res.body.completed, takers);
      const { reads, round_trips, sequential_round_trips } = debugCost(res);
      figures.push({ reads, round_trips, sequential_round_trips });
    }
    assert.deepEqual(figures[1], figures[0], JSON.stringify(figures));
  });
});
