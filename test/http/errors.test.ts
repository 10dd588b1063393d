import assert from 'node:assert/strict';
import { createSuperAdmin, createTenant, uniqueName } from '../support/fixtures';
import { expectError } from '../support/assertions';
import { adminDb } from '../support/admin';
import { api, freshIp, get, post } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';

describe('Error body {error, message, status}', () => {
  let superAdmin: Awaited<ReturnType<typeof createSuperAdmin>>;
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  before(async () => {
    [superAdmin, tenant] = await Promise.all([createSuperAdmin(), createTenant()]);
  });

  it('400 VALIDATION_ERROR with details [{path, message}] for invalid input', async () => {
    const res = await post(
      '/api/clients',
      { name: '', address: 'x', logo_url: 'http://insecure.example.com/l.png', extra: 1 },
      { token: superAdmin.token },
    );
    expectError(res, 400, 'VALIDATION_ERROR');
    const paths = res.body.details.map((d: { path: string }) => d.path);
    assert.ok(paths.includes('body.name'), JSON.stringify(res.body.details));
    assert.ok(paths.includes('body.logo_url'), JSON.stringify(res.body.details));
    for (const detail of res.body.details) assert.equal(typeof detail.message, 'string');
  });

  it('400 VALIDATION_ERROR for malformed JSON, never the platform’s HTML page', async () => {
    const res = await api('POST', '/api/clients', {
      token: superAdmin.token,
      rawBody: '{"name": ',
      contentType: 'application/json',
    });
    expectError(res, 400, 'VALIDATION_ERROR');
    assert.match(res.body.message, /Malformed JSON/);
  });

  it('400 VALIDATION_ERROR for a body that is not JSON', async () => {
    const res = await api('POST', '/api/clients', {
      token: superAdmin.token,
      rawBody: 'name=x',
      contentType: 'text/plain',
    });
    expectError(res, 400, 'VALIDATION_ERROR');
    assert.match(res.body.message, /application\/json/);
  });

  it('400 VALIDATION_ERROR for a query parameter out of range', async () => {
    const res = await get('/api/clients?limit=101', { token: superAdmin.token });
    expectError(res, 400, 'VALIDATION_ERROR');
    assert.equal(res.body.details[0].path, 'query.limit');
  });

  it('401 UNAUTHORIZED for a missing token', async () => {
    expectError(await get('/api/clients', { ip: freshIp() }), 401, 'UNAUTHORIZED');
  });

  it('403 FORBIDDEN when the role does not allow the endpoint', async () => {
    expectError(await get('/api/clients', { token: tenant.admin.token }), 403, 'FORBIDDEN');
  });

  it('403 FORBIDDEN for a resource of another organization', async () => {
    const other = await createTenant();
    expectError(await get(`/api/clients/${other.clientId}`, { token: tenant.admin.token }), 403, 'FORBIDDEN');
  });

  it('404 NOT_FOUND for a resource that does not exist', async () => {
    expectError(await get('/api/clients/no-such-client', { token: superAdmin.token }), 404, 'NOT_FOUND');
  });

  it('404 NOT_FOUND for an unknown route, with or without a token', async () => {
    expectError(await get('/api/nothing-here'), 404, 'NOT_FOUND');
    expectError(await api('DELETE', '/api/clients', { token: superAdmin.token }), 404, 'NOT_FOUND');
  });

  it('409 CONFLICT when the resource already exists', async () => {
    const body = { name: uniqueName('Conflict School'), address: 'x', logo_url: 'https://example.com/l.png' };
    assert.equal((await post('/api/clients', body, { token: superAdmin.token })).status, 201);
    expectError(await post('/api/clients', body, { token: superAdmin.token }), 409, 'CONFLICT');
  });

  it('413 PAYLOAD_TOO_LARGE for a JSON body over the limit', async () => {
    const body = { name: 'x'.repeat(300 * 1024), address: 'x', logo_url: 'https://example.com/l.png' };
    expectError(await post('/api/clients', body, { token: superAdmin.token }), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('429 RATE_LIMITED past the limit (see the rate limit tests for the rules)', async () => {
    // One instance: the lockout holds at once on the instance that counted the tenth failure, and on
    // another only from its next flush (docs/security.md); the emulator may serve from several.
    const server = await startInProcessApi();
    try {
      const ip = freshIp();
      for (let i = 0; i < 10; i += 1) await get('/api/me', { ip, token: 'bad', baseUrl: server.baseUrl });
      expectError(await get('/api/health', { ip, baseUrl: server.baseUrl }), 429, 'RATE_LIMITED');
    } finally {
      await server.close();
    }
  });

  it('every response says which request it was, for support', async () => {
    const res = await get('/api/health');
    assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{16,}$/i);
  });
});

describe('Security headers and CORS', () => {
  it('sends security headers and forbids caching', async () => {
    const res = await get('/api/health');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'self'|default-src 'none'/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    // X-Powered-By is not checked: the Functions emulator's proxy adds it outside our app.
  });

  it('allows an origin on the CORS allowlist and no other', async () => {
    const allowed = await get('/api/health', { headers: { Origin: 'http://localhost:5173' } });
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'http://localhost:5173');
    const refused = await get('/api/health', { headers: { Origin: 'https://evil.example' } });
    assert.equal(refused.headers.get('access-control-allow-origin'), null);
  });

  it('answers a CORS preflight from an allowed origin', async () => {
    const res = await api('OPTIONS', '/api/clients', {
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    assert.equal(res.status, 204);
    assert.match(res.headers.get('access-control-allow-headers') ?? '', /Authorization/i);
    assert.match(
      res.headers.get('access-control-allow-headers') ?? '',
      /X-Attempt-Token/i,
      'a browser may send the attempt token as a header',
    );
  });
});

describe('Error body for inputs the platform or Firestore would choke on (app in-process)', () => {
  let server: InProcessApi;
  let superAdmin: Awaited<ReturnType<typeof createSuperAdmin>>;
  before(async () => {
    [server, superAdmin] = await Promise.all([startInProcessApi(), createSuperAdmin()]);
  });
  after(() => server.close());

  it('400 VALIDATION_ERROR for a path parameter with a broken percent-escape, before any token is looked at', async () => {
    const res = await api('GET', '/api/tests/%E0%A4%A', { baseUrl: server.baseUrl });
    expectError(res, 400, 'VALIDATION_ERROR');
  });

  it('400 VALIDATION_ERROR naming the field for a lone UTF-16 surrogate in a body, and nothing is written', async () => {
    const name = `Surrogate School ${Date.now()}`;
    const res = await api('POST', '/api/clients', {
      baseUrl: server.baseUrl,
      token: superAdmin.token,
      rawBody: `{"name":"${name}\\ud800","address":"1 Road","logo_url":"https://example.com/l.png"}`,
      contentType: 'application/json',
    });
    expectError(res, 400, 'VALIDATION_ERROR');
    assert.equal(res.body.details[0].path, 'body.name');
    assert.equal(
      (await adminDb.collection('clients').where('address', '==', '1 Road').where('name', '>=', name).get()).size,
      0,
    );
  });
});
