import assert from 'node:assert/strict';
import { adminDb } from '../support/admin';
import {
  auditRecordsWritten,
  createSuperAdmin,
  createTenant,
  createUser,
  signInAnonymously,
} from '../support/fixtures';
import { expectValidation } from '../support/assertions';
import { freshIp, get, type ApiResponse } from '../support/http';
import { expired } from '../support/tokens';

describe('GET /api/audit-logs', () => {
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let other: Awaited<ReturnType<typeof createTenant>>;
  let superAdmin: Awaited<ReturnType<typeof createSuperAdmin>>;

  before(async () => {
    [tenant, other, superAdmin] = await Promise.all([createTenant(), createTenant(), createSuperAdmin()]);
    // One login each, and one refused token claiming the tenant's student.
    await Promise.all([
      get('/api/me', { token: tenant.admin.token }),
      get('/api/me', { token: tenant.student.token }),
      get('/api/me', { token: other.admin.token }),
      get('/api/me', { ip: freshIp(), token: expired(tenant.student.token) }),
    ]);
    // Recorded beside the replies: the tests read them once they are there.
    await Promise.all([
      auditRecordsWritten(tenant.admin.uid, 'login', 1),
      auditRecordsWritten(tenant.student.uid, 'login', 1),
      auditRecordsWritten(other.admin.uid, 'login', 1),
      auditRecordsWritten(tenant.student.uid, 'token_rejected', 1),
    ]);
  });

  it('shows a Client Admin its own organization’s records only, newest first', async () => {
    const res = await get('/api/audit-logs?limit=100', { token: tenant.admin.token });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.data.length >= 2);
    for (const record of res.body.data) assert.equal(record.client_id, tenant.clientId);
    const times = res.body.data.map((r: { timestamp: string }) => r.timestamp);
    assert.deepEqual(times, [...times].sort().reverse());
    const users = new Set(res.body.data.map((r: { user_id: string }) => r.user_id));
    assert.ok(users.has(tenant.admin.uid) && users.has(tenant.student.uid));
  });

  it('returns records with every documented field', async () => {
    const res = await get(`/api/audit-logs?user_id=${tenant.student.uid}&event_type=login`, {
      token: tenant.admin.token,
    });
    assert.equal(res.body.data.length, 1);
    const [record] = res.body.data;
    assert.equal(record.event_type, 'login');
    assert.equal(record.user_id, tenant.student.uid);
    assert.equal(record.success, true);
    assert.equal(typeof record.ip_address, 'string');
    assert.match(record.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('refuses a Client Admin who names another organization (403)', async () => {
    const res = await get(`/api/audit-logs?client_id=${other.clientId}`, { token: tenant.admin.token });
    assert.equal(res.status, 403, res.text);
  });

  it('refuses Students (403) and callers without a token (401)', async () => {
    assert.equal((await get('/api/audit-logs', { token: tenant.student.token })).status, 403);
    assert.equal((await get('/api/audit-logs', { ip: freshIp() })).status, 401);
  });

  it('refuses an anonymous Guest, a user with no role, and the admin of a deactivated client (403)', async () => {
    const [guest, noRole, inactive] = await Promise.all([
      signInAnonymously(),
      createUser(null),
      createTenant({ active_status: 0 }),
    ]);
    for (const token of [guest.token, noRole.token, inactive.admin.token]) {
      const res = await get('/api/audit-logs', { token });
      assert.equal(res.status, 403, res.text);
      assert.equal(res.body.error, 'FORBIDDEN');
    }
  });

  it('lets a Super Admin see refused tokens, which belong to no organization', async () => {
    const res = await get(`/api/audit-logs?event_type=token_rejected&user_id=${tenant.student.uid}`, {
      token: superAdmin.token,
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.length, 1);
    assert.equal(res.body.data[0].reason, 'expired');
    assert.equal(res.body.data[0].success, false);
    const asAdmin = await get(`/api/audit-logs?event_type=token_rejected`, { token: tenant.admin.token });
    assert.equal(asAdmin.body.data.length, 0);
  });

  it('filters by success', async () => {
    const res = await get(`/api/audit-logs?success=false&user_id=${tenant.student.uid}`, { token: superAdmin.token });
    assert.ok(res.body.data.length >= 1);
    for (const record of res.body.data) assert.equal(record.success, false);
  });

  it('filters a Super Admin’s view by client_id', async () => {
    const res = await get(`/api/audit-logs?client_id=${other.clientId}`, { token: superAdmin.token });
    assert.equal(res.status, 200);
    assert.ok(res.body.data.length >= 1);
    for (const record of res.body.data) assert.equal(record.client_id, other.clientId);
  });

  it('paginates with page and limit, and counts the total', async () => {
    const batch = adminDb.batch();
    for (let i = 0; i < 5; i += 1) {
      const ref = adminDb.collection('audit_logs').doc();
      batch.set(ref, {
        id: ref.id,
        event_type: 'login',
        user_id: `paged-${tenant.clientId}`,
        ip_address: 'x',
        success: true,
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        client_id: tenant.clientId,
        actor_id: null,
        reason: null,
        user_agent: null,
        request_id: 'seed',
        details: null,
      });
    }
    await batch.commit();
    const page2 = await get(`/api/audit-logs?user_id=paged-${tenant.clientId}&limit=2&page=2`, {
      token: tenant.admin.token,
    });
    assert.equal(page2.status, 200, page2.text);
    const { next_cursor, ...numbers } = page2.body.pagination;
    assert.deepEqual(numbers, { page: 2, limit: 2, total: 5, pages: 3 });
    assert.equal(typeof next_cursor, 'string', 'a page before the last offers a cursor to the next');
    assert.deepEqual(
      page2.body.data.map((r: { timestamp: string }) => r.timestamp.slice(17, 19)),
      ['02', '01'],
    );
  });

  /** Five records for one made-up user, at 00:00:00..04 (or all at one instant), to page through. */
  async function seedRecords(userId: string, sameInstant = false) {
    const batch = adminDb.batch();
    for (let i = 0; i < 5; i += 1) {
      const ref = adminDb.collection('audit_logs').doc();
      batch.set(ref, {
        id: ref.id,
        event_type: 'login',
        user_id: userId,
        ip_address: 'x',
        success: true,
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, sameInstant ? 0 : i)).toISOString(),
        client_id: tenant.clientId,
        actor_id: null,
        reason: null,
        user_agent: null,
        request_id: 'seed',
        details: null,
      });
    }
    await batch.commit();
  }

  /** Follows next_cursor from page 1 to the end. */
  async function walk(query: string) {
    const ids: string[] = [];
    const pages: number[] = [];
    let cursor: string | null = null;
    do {
      const res: ApiResponse = await get(`/api/audit-logs?${query}${cursor ? `&cursor=${cursor}` : ''}`, {
        token: tenant.admin.token,
      });
      assert.equal(res.status, 200, res.text);
      ids.push(...res.body.data.map((r: { id: string }) => r.id));
      pages.push(res.body.pagination.page);
      cursor = res.body.pagination.next_cursor;
    } while (cursor);
    return { ids, pages };
  }

  it('walks every record exactly once by following next_cursor, newest first, numbering the pages', async () => {
    const userId = `cursor-${tenant.clientId}`;
    await seedRecords(userId);
    const { ids, pages } = await walk(`user_id=${userId}&limit=2`);
    assert.deepEqual(pages, [1, 2, 3]);
    assert.equal(new Set(ids).size, 5);
    const byOffset = await get(`/api/audit-logs?user_id=${userId}&limit=5`, { token: tenant.admin.token });
    assert.deepEqual(
      ids,
      byOffset.body.data.map((r: { id: string }) => r.id),
      'the same order as by offset',
    );
  });

  it('walks records that share a timestamp without skipping or repeating any', async () => {
    const userId = `tied-${tenant.clientId}`;
    await seedRecords(userId, true);
    const { ids } = await walk(`user_id=${userId}&limit=1`);
    assert.equal(ids.length, 5);
    assert.equal(new Set(ids).size, 5);
  });

  it('answers 400 naming query.page and the cap of 1,000 items for a page past it, and serves the page that ends at it', async () => {
    expectValidation(
      await get('/api/audit-logs?page=52&limit=20', { token: tenant.admin.token }),
      ['query.page'],
      ['1000'],
    );
    expectValidation(await get('/api/audit-logs?page=99999999999999999999', { token: tenant.admin.token }), [
      'query.page',
    ]);
    assert.equal((await get('/api/audit-logs?page=51&limit=20', { token: tenant.admin.token })).status, 200);
  });

  it('answers 400 to a cursor it did not issue, and to a cursor sent with a page', async () => {
    expectValidation(await get('/api/audit-logs?cursor=not-a-cursor', { token: tenant.admin.token }), ['query.cursor']);
    expectValidation(await get(`/api/audit-logs?cursor=${'A'.repeat(2000)}`, { token: tenant.admin.token }), [
      'query.cursor',
    ]);
    expectValidation(await get('/api/audit-logs?cursor=WzEsIngiLCJ5Il0&page=2', { token: tenant.admin.token }), [
      'query.page',
    ]);
  });

  it('answers 400, never 500, to a well-formed cursor whose contents were forged', async () => {
    const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const forged of [
      [1, 'x', 'a/b'], // an id no document can have
      [1, 'x', '__x__'],
      [1, 'x', ''],
      [9007199254740992, 'x', 'z'], // a page past any walk
      [1, { nested: true }, 'z'],
    ]) {
      expectValidation(await get(`/api/audit-logs?cursor=${forge(forged)}`, { token: tenant.admin.token }), [
        'query.cursor',
      ]);
    }
    const loneSurrogate = Buffer.from('[1,"\\ud800","z"]').toString('base64url');
    expectValidation(await get(`/api/audit-logs?cursor=${loneSurrogate}`, { token: tenant.admin.token }), [
      'query.cursor',
    ]);
  });

  it('answers 400 naming the field to a user_id or client_id over 128 characters, never 500', async () => {
    expectValidation(await get(`/api/audit-logs?user_id=${'u'.repeat(3000)}`, { token: tenant.admin.token }), [
      'query.user_id',
    ]);
    expectValidation(await get(`/api/audit-logs?client_id=${'c'.repeat(3000)}`, { token: superAdmin.token }), [
      'query.client_id',
    ]);
  });

  it('rejects unknown filters and bad values with 400', async () => {
    for (const query of ['event_type=party', 'success=yes', 'page=0', 'colour=blue']) {
      const res = await get(`/api/audit-logs?${query}`, { token: tenant.admin.token });
      assert.equal(res.status, 400, `${query}: ${res.text}`);
      assert.equal(res.body.error, 'VALIDATION_ERROR');
    }
  });
});
