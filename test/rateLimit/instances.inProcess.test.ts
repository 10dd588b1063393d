import assert from 'node:assert/strict';
import { addressBucket } from '../../functions/src/rateLimit/addressBucket';
import { shareThreshold } from '../../functions/src/rateLimit/localCounts';
import { counterKey, currentWindow } from '../../functions/src/rateLimit/window';
import { adminDb } from '../support/admin';
import { freshIp, get } from '../support/http';
import { startInProcessApi, TEST_CONFIG, type InProcessApi } from '../support/inProcessApi';
import { awayFromWindowEdge } from '../support/windows';

// Function instances as production scales them out: each app its own limiter
// (its own counts and blocks), all counting into the same shared counters.

const INSTANCES = 20;
const LIMIT = TEST_CONFIG.ratePerMinute;
/** docs/security.md#rate-limits: a caller spread over N instances gets at most limit + N × share − 1 in a window. */
const SLACK = INSTANCES * shareThreshold(LIMIT) - 1;

const counterOf = (ip: string) =>
  adminDb.collection('rate_limits').doc(counterKey('ip', addressBucket(ip), currentWindow(Date.now())));

describe('Rate limits across instances', function () {
  this.timeout(120_000);
  let instances: InProcessApi[];
  before(async () => {
    instances = await Promise.all(Array.from({ length: INSTANCES }, () => startInProcessApi()));
  });
  after(() => Promise.all(instances.map((i) => i.close())));

  it(`hold one address spread over ${INSTANCES} instances within the stated slack, and answer the rest 429 with Retry-After and X-RateLimit-*`, async () => {
    await awayFromWindowEdge(30_000);
    const ip = freshIp();
    const statuses: number[] = [];
    const refusals = [];
    // 40 rounds, each one request to every instance at once.
    for (let round = 0; round < 40; round += 1) {
      const answers = await Promise.all(
        instances.map((instance) => get('/api/no-such-route', { ip, baseUrl: instance.baseUrl })),
      );
      for (const res of answers) {
        statuses.push(res.status);
        if (res.status === 429) refusals.push(res);
      }
    }
    const admitted = statuses.filter((s) => s === 404).length;
    assert.equal(admitted + refusals.length, statuses.length, `only 404 and 429: ${[...new Set(statuses)]}`);
    assert.ok(admitted >= LIMIT, `at least the limit is served: ${admitted}`);
    assert.ok(admitted <= LIMIT + SLACK, `${admitted} admitted, over limit + slack (${LIMIT} + ${SLACK})`);
    for (const res of refusals) {
      assert.equal(res.body.error, 'RATE_LIMITED');
      const retryAfter = Number(res.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      assert.equal(res.headers.get('x-ratelimit-limit'), String(LIMIT));
      assert.equal(res.headers.get('x-ratelimit-remaining'), '0');
      assert.ok(Number(res.headers.get('x-ratelimit-reset')) >= 1);
    }
    // The shared counter holds what was flushed: never more than was served.
    const shared = (await counterOf(ip).get()).get('requests');
    assert.ok(shared >= LIMIT && shared <= admitted, `shared count ${shared} of ${admitted} admitted`);
  });

  it('write no counter for an address well under its limit: 19 requests spread over every instance', async () => {
    await awayFromWindowEdge(10_000);
    const ip = freshIp();
    const answers = await Promise.all(
      instances.slice(0, shareThreshold(LIMIT) - 1).map((i) => get('/api/no-such-route', { ip, baseUrl: i.baseUrl })),
    );
    assert.deepEqual([...new Set(answers.map((r) => r.status))], [404]);
    assert.equal((await counterOf(ip).get()).exists, false);
  });

  it('write no counter for GET /api/health, however often one instance is asked', async () => {
    await awayFromWindowEdge(10_000);
    const ip = freshIp();
    const [instance] = instances;
    for (let i = 0; i < LIMIT; i += 1) {
      const res = await get('/api/health', { ip, baseUrl: instance.baseUrl });
      assert.equal(res.status, 200, `request ${i + 1}`);
      assert.equal(res.headers.get('x-ratelimit-remaining'), String(LIMIT - i - 1));
    }
    assert.equal((await get('/api/health', { ip, baseUrl: instance.baseUrl })).status, 429, 'still limited');
    assert.equal((await counterOf(ip).get()).exists, false);
  });
});
