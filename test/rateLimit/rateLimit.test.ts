import assert from 'node:assert/strict';
import { addressBucket } from '../../functions/src/rateLimit/addressBucket';
import { shareThreshold } from '../../functions/src/rateLimit/localCounts';
import { counterKey, currentWindow } from '../../functions/src/rateLimit/window';
import { adminDb } from '../support/admin';
import { awayFromWindowEdge } from '../support/windows';
import { createSuperAdmin, createTenant, uniqueName } from '../support/fixtures';
import { freshIp, get, post, type ApiResponse } from '../support/http';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function assertLimitHeaders(res: ApiResponse, limit: number) {
  assert.equal(res.headers.get('x-ratelimit-limit'), String(limit), `limit header on ${res.status}`);
  const remaining = Number(res.headers.get('x-ratelimit-remaining'));
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  assert.ok(Number.isInteger(remaining) && remaining >= 0 && remaining <= limit, `remaining ${remaining}`);
  assert.ok(
    Number.isInteger(reset) && reset >= 1 && reset <= 60,
    `reset ${reset} is whole seconds until the window resets`,
  );
}

function assertRateLimited(res: ApiResponse) {
  assert.equal(res.status, 429, res.text);
  assert.equal(res.body.error, 'RATE_LIMITED');
  assert.equal(res.body.status, 429);
  const retryAfter = Number(res.headers.get('retry-after'));
  assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  assert.equal(res.headers.get('x-ratelimit-remaining'), '0');
}

describe('Rate limit headers', () => {
  it('are on every response: success, 401, 404 and public routes alike', async () => {
    const ip = freshIp();
    const tenant = await createTenant();
    const responses = await Promise.all([
      get('/api/me', { ip, token: tenant.student.token }),
      get('/api/me', { ip }),
      get('/api/no-such-route', { ip }),
      get('/api/health', { ip }),
    ]);
    assert.deepEqual(
      responses.map((r) => r.status),
      [200, 401, 404, 200],
    );
    for (const res of responses) assertLimitHeaders(res, 100);
  });

  it('count down X-RateLimit-Remaining one request at a time', async () => {
    await awayFromWindowEdge(15_000);
    const ip = freshIp();
    const first = await get('/api/health', { ip });
    const second = await get('/api/health', { ip });
    assert.equal(first.headers.get('x-ratelimit-remaining'), '99');
    assert.equal(second.headers.get('x-ratelimit-remaining'), '98');
  });
});

describe('Default limit: 100 requests per minute per IP', () => {
  it('answers the 101st request with 429 RATE_LIMITED and Retry-After, and then resets with the window', async function () {
    this.timeout(120_000);
    await awayFromWindowEdge(20_000);
    const ip = freshIp();
    for (let i = 0; i < 100; i += 1) {
      const res = await get('/api/health', { ip });
      assert.equal(res.status, 200, `request ${i + 1}: ${res.text}`);
    }
    const refused = await get('/api/health', { ip });
    assertRateLimited(refused);
    assert.equal((await get('/api/health', { ip: freshIp() })).status, 200, 'another address is not affected');

    await sleep(Number(refused.headers.get('retry-after')) * 1000 + 500);
    const afterReset = await get('/api/health', { ip });
    assert.equal(afterReset.status, 200, afterReset.text);
    assert.equal(afterReset.headers.get('x-ratelimit-remaining'), '99');
  });

  /** As if another function instance had already served this address 100 times this minute. */
  async function usedUpElsewhere(ip: string) {
    await awayFromWindowEdge(5_000);
    await adminDb
      .collection('rate_limits')
      .doc(counterKey('ip', addressBucket(ip), currentWindow(Date.now())))
      .set({ requests: 100 });
  }

  /**
   * Counts reach the shared counter in flushes: an instance that has not flushed
   * this address yet admits at most its share (a fifth of the limit) before its
   * flush reads the others' count back (docs/security.md#rate-limits).
   */
  async function refusedWithinShare(ip: string, sentAs = ip) {
    const statuses: number[] = [];
    for (let i = 0; i <= shareThreshold(100); i += 1) {
      const res = await get('/api/no-such-route', { ip: sentAs });
      statuses.push(res.status);
      if (res.status === 429) return assertRateLimited(res);
    }
    assert.fail(`no 429 within ${statuses.length} requests: ${statuses.join(',')}`);
  }

  it('keeps the count in Firestore, so every function instance enforces the same limit', async () => {
    const ip = freshIp();
    await usedUpElsewhere(ip);
    await refusedWithinShare(ip);
  });

  it('takes the address the trusted front end appended, not one the client put in X-Forwarded-For', async () => {
    const realIp = freshIp();
    await usedUpElsewhere(realIp);
    // The client claims to be someone else; the front end appends the address it really saw.
    await refusedWithinShare(realIp, `${freshIp()}, ${realIp}`);
  });
});

describe('Failed authentications: ten from one IP in a minute lock that IP out', () => {
  it('answers 429 to the eleventh request, even one with a valid token, for the rest of the minute', async () => {
    await awayFromWindowEdge(15_000);
    const ip = freshIp();
    const tenant = await createTenant();
    for (let i = 0; i < 10; i += 1) {
      const res = await get('/api/me', { ip, token: `garbage-${i}` });
      assert.equal(res.status, 401, `attempt ${i + 1}: ${res.text}`);
    }
    const locked = await get('/api/me', { ip, token: tenant.student.token });
    assertRateLimited(locked);
    assert.match(locked.body.message, /failed authentications/);
    assert.equal((await get('/api/me', { ip: freshIp(), token: tenant.student.token })).status, 200);
  });

  it('locks out the whole IPv6 /64, so rotating addresses within it gains nothing', async () => {
    await awayFromWindowEdge(15_000);
    const prefix = freshIp().split('::')[0];
    for (let i = 0; i < 10; i += 1) {
      const res = await get('/api/me', { ip: `${prefix}::${(i + 1).toString(16)}`, token: `rotating-${i}` });
      assert.equal(res.status, 401, `attempt ${i + 1}: ${res.text}`);
    }
    assertRateLimited(await get('/api/me', { ip: `${prefix}::beef`, token: 'one-more' }));
    assert.equal((await get('/api/health', { ip: freshIp() })).status, 200, 'another /64 is not affected');
  });

  it('stops recording refused tokens once the IP is locked out, so a flood cannot grow the audit log', async () => {
    await awayFromWindowEdge(15_000);
    const ip = freshIp();
    for (let i = 0; i < 25; i += 1) await get('/api/me', { ip, token: `flood-${i}` });
    const records = await adminDb.collection('audit_logs').where('ip_address', '==', ip).get();
    assert.equal(records.size, 10);
  });
});

describe('Sensitive operations: 10 per minute per signed-in user', () => {
  it('answers the eleventh POST /api/clients with 429 while the same user can still read', async () => {
    await awayFromWindowEdge(20_000);
    const superAdmin = await createSuperAdmin();
    for (let i = 0; i < 10; i += 1) {
      const res = await post(
        '/api/clients',
        { name: uniqueName('Rate School'), address: 'x', logo_url: 'https://example.com/l.png' },
        { ip: freshIp(), token: superAdmin.token },
      );
      assert.equal(res.status, 201, `create ${i + 1}: ${res.text}`);
      assertLimitHeaders(res, 10);
    }
    const refused = await post(
      '/api/clients',
      { name: uniqueName('Rate School'), address: 'x', logo_url: 'https://example.com/l.png' },
      { ip: freshIp(), token: superAdmin.token },
    );
    assertRateLimited(refused);
    assert.equal(refused.headers.get('x-ratelimit-limit'), '10');
    const read = await get('/api/clients', { token: superAdmin.token });
    assert.equal(read.status, 200, read.text);
  });
});
