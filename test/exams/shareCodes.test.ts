import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { expectError, expectValidation, ISO_UTC } from '../support/assertions';
import { createRoleMatrix, createUser, type RoleMatrix, type TestUser } from '../support/fixtures';
import { del, get, post } from '../support/http';
import { as, draftWithQuestions, publishedTest, shareCodeDoc } from './fixtures';

// Share codes over real HTTP. Share-code writes are sensitive (10 per minute
// per user), so each test that writes does so as an administrator of its own.

const CODE = /^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{13}$/;
const SHARE_CODE_FIELDS = ['code', 'created_at', 'created_by', 'expires_at', 'max_uses', 'revoked', 'test_id', 'uses'];
/** A listed code also names who issued it. */
const LISTED_SHARE_CODE_FIELDS = [...SHARE_CODE_FIELDS, 'created_by_email', 'created_by_name'].sort();

let m: RoleMatrix;
let testId: string;
before(async () => {
  m = await createRoleMatrix();
  testId = (await publishedTest(m.tenant.admin.token, m.tenant.clientId, 1)).test.id;
});

const freshAdmin = (): Promise<TestUser> => createUser('client_admin', m.tenant.clientId);
const issue = (body: Record<string, unknown>, token?: string, id = testId) =>
  post(`/api/tests/${id}/share-codes`, body, as(token));
const revoke = (code: string, token?: string, id = testId) => del(`/api/tests/${id}/share-codes/${code}`, as(token));
const list = (query = '', token?: string, id = testId) => get(`/api/tests/${id}/share-codes${query}`, as(token));
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('POST /api/tests/{testId}/share-codes', () => {
  it('answers a Client Admin 201 with a 13-character Crockford code, its limits and no uses yet', async () => {
    const admin = await freshAdmin();
    const expires = inDays(7);
    const res = await issue({ expires_at: expires, max_uses: 500 }, admin.token);
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), SHARE_CODE_FIELDS);
    assert.match(res.body.code, CODE);
    assert.deepEqual(
      { ...res.body, code: undefined, created_at: undefined },
      {
        code: undefined,
        created_at: undefined,
        test_id: testId,
        expires_at: expires,
        max_uses: 500,
        uses: 0,
        revoked: false,
        created_by: admin.uid,
      },
    );
    assert.match(res.body.created_at, ISO_UTC);
    const stored = (await shareCodeDoc(res.body.code).get()).data()!;
    assert.equal(stored.client_id, m.tenant.clientId);
    assert.equal(stored.created_by, admin.uid);
  });

  it('splits max_uses over seat shards whose capacities add up to it exactly', async () => {
    const admin = await freshAdmin();
    const res = await issue({ max_uses: 500 }, admin.token);
    const seats = await shareCodeDoc(res.body.code).collection('seats').get();
    assert.ok(seats.size > 1, 'more than one shard takes the writes of a class redeeming at once');
    assert.equal(
      seats.docs.reduce((sum, d) => sum + d.get('capacity'), 0),
      500,
    );
    assert.ok(seats.docs.every((d) => d.get('used') === 0));
  });

  it('issues a code with no expiry and unlimited uses when both are absent; a time with an offset comes back in UTC', async () => {
    const admin = await freshAdmin();
    const open = await issue({}, admin.token);
    assert.equal(open.status, 201, open.text);
    assert.equal(open.body.expires_at, null);
    assert.equal(open.body.max_uses, null);
    const later = new Date(Date.now() + 3 * 86_400_000);
    const withOffset = later.toISOString().replace('Z', '+00:00');
    const res = await issue({ expires_at: withOffset }, admin.token);
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.expires_at, later.toISOString());
  });

  it('gives every code its own value (65 random bits each)', async () => {
    const admin = await freshAdmin();
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await issue({}, admin.token)).body.code);
    assert.equal(new Set(codes).size, 5);
    codes.forEach((c) => assert.match(c, CODE));
  });

  it('answers 400 naming expires_at when it is past, more than a year ahead or not ISO 8601', async () => {
    const admin = await freshAdmin();
    for (const expires_at of [inDays(-1), inDays(367), 'next week', '2030-13-01T00:00:00Z']) {
      expectValidation(await issue({ expires_at }, admin.token), ['body.expires_at']);
    }
  });

  it('answers 400 naming max_uses outside 1 to 100000 or not an integer, and 400 to an unknown field', async () => {
    const admin = await freshAdmin();
    for (const max_uses of [0, 100_001, 1.5, '10'])
      expectValidation(await issue({ max_uses }, admin.token), ['body.max_uses']);
    expectValidation(await issue({ uses: 3 }, admin.token), ['body']);
  });

  it('answers 409 CONFLICT for a draft and for an archived test', async () => {
    const admin = await freshAdmin();
    const draft = await draftWithQuestions(admin.token, m.tenant.clientId, 1);
    expectError(await issue({}, admin.token, draft.test.id), 409, 'CONFLICT');
    const archived = await publishedTest(admin.token, m.tenant.clientId, 1);
    assert.equal((await post(`/api/tests/${archived.test.id}/archive`, undefined, as(admin.token))).status, 200);
    expectError(await issue({}, admin.token, archived.test.id), 409, 'CONFLICT');
  });

  it('answers a Super Admin 201; another organization’s admin 403; a Student and a Guest 403; no token 401; an unknown test 404', async () => {
    assert.equal((await issue({}, m.superAdmin.token)).status, 201);
    expectError(await issue({}, m.otherTenant.admin.token), 403, 'FORBIDDEN');
    expectError(await issue({}, m.tenant.student.token), 403, 'FORBIDDEN');
    expectError(await issue({}, m.guest.token), 403, 'FORBIDDEN');
    expectError(await issue({}), 401, 'UNAUTHORIZED');
    const admin = await freshAdmin();
    expectError(await issue({}, admin.token, randomUUID()), 404, 'NOT_FOUND');
  });
});

describe('GET /api/tests/{testId}/share-codes', () => {
  let ownTestId: string;
  let issued: string[];
  before(async () => {
    const admin = await freshAdmin();
    ownTestId = (await publishedTest(admin.token, m.tenant.clientId, 1)).test.id;
    issued = [];
    for (let i = 0; i < 3; i++) issued.push((await issue({ max_uses: 10 }, admin.token, ownTestId)).body.code);
  });

  it('answers a Client Admin 200 with the test’s codes, newest first, as data and pagination', async () => {
    const res = await list('', m.tenant.admin.token, ownTestId);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.pagination, { page: 1, limit: 20, total: 3, pages: 1, next_cursor: null });
    assert.deepEqual(
      res.body.data.map((c: any) => c.code),
      [...issued].reverse(),
    );
    for (const c of res.body.data) {
      assert.deepEqual(Object.keys(c).sort(), LISTED_SHARE_CODE_FIELDS);
      assert.equal(c.uses, 0);
    }
  });

  it('counts uses from the seat shards', async () => {
    const seats = shareCodeDoc(issued[0]).collection('seats');
    await seats.doc('0').update({ used: 1 });
    await seats.doc('1').update({ used: 1 });
    const res = await list('', m.tenant.admin.token, ownTestId);
    assert.equal(res.body.data.find((c: any) => c.code === issued[0]).uses, 2);
  });

  it('pages with limit', async () => {
    const res = await list('?limit=2', m.superAdmin.token, ownTestId);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.length, 2);
    assert.equal(res.body.pagination.pages, 2);
    expectValidation(await list('?limit=0', m.superAdmin.token, ownTestId), ['query.limit']);
  });

  it('answers 403 to another organization’s admin, a Student and a Guest; 401 without a token; 404 to an unknown test', async () => {
    expectError(await list('', m.otherTenant.admin.token, ownTestId), 403, 'FORBIDDEN');
    expectError(await list('', m.tenant.student.token, ownTestId), 403, 'FORBIDDEN');
    expectError(await list('', m.guest.token, ownTestId), 403, 'FORBIDDEN');
    expectError(await list('', undefined, ownTestId), 401, 'UNAUTHORIZED');
    expectError(await list('', m.tenant.admin.token, randomUUID()), 404, 'NOT_FOUND');
  });
});

describe('DELETE /api/tests/{testId}/share-codes/{code}', () => {
  it('revokes a code (204): it is listed as revoked and its document says so; revoking again is 204', async () => {
    const admin = await freshAdmin();
    const { code } = (await issue({}, admin.token)).body;
    const res = await revoke(code, admin.token);
    assert.equal(res.status, 204, res.text);
    assert.equal(res.text, '');
    assert.equal((await shareCodeDoc(code).get()).get('revoked'), true);
    const listed = await list('?limit=100', admin.token);
    assert.equal(listed.body.data.find((c: any) => c.code === code).revoked, true);
    assert.equal((await revoke(code, admin.token)).status, 204);
  });

  it('accepts the code in lower case and with hyphens', async () => {
    const admin = await freshAdmin();
    const { code } = (await issue({}, admin.token)).body;
    const typed = `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`.toLowerCase();
    assert.equal((await revoke(typed, admin.token)).status, 204);
    assert.equal((await shareCodeDoc(code).get()).get('revoked'), true);
  });

  it('answers 404 to an unknown code, to a code of another test and to text that cannot be a code', async () => {
    const admin = await freshAdmin();
    const other = await publishedTest(admin.token, m.tenant.clientId, 1);
    const { code } = (await issue({}, admin.token, other.test.id)).body;
    expectError(await revoke('0000000000000', admin.token), 404, 'NOT_FOUND');
    expectError(await revoke(code, admin.token), 404, 'NOT_FOUND');
    expectError(await revoke('not-a-code', admin.token), 404, 'NOT_FOUND');
    assert.equal((await shareCodeDoc(code).get()).get('revoked'), false);
    expectValidation(await revoke('x'.repeat(33), admin.token), ['params.code']);
  });

  it('answers 403 to another organization’s admin, a Student and a Guest; 401 without a token; the code stays valid', async () => {
    const admin = await freshAdmin();
    const { code } = (await issue({}, admin.token)).body;
    expectError(await revoke(code, m.otherTenant.admin.token), 403, 'FORBIDDEN');
    expectError(await revoke(code, m.tenant.student.token), 403, 'FORBIDDEN');
    expectError(await revoke(code, m.guest.token), 403, 'FORBIDDEN');
    expectError(await revoke(code), 401, 'UNAUTHORIZED');
    assert.equal((await shareCodeDoc(code).get()).get('revoked'), false);
    assert.equal((await revoke(code, m.superAdmin.token)).status, 204, 'a Super Admin may');
  });
});
