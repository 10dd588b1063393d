import assert from 'node:assert/strict';
import { get } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';

// The API's own headers, with no Hosting in front (as when the function is called at its own URL).
describe('API replies: security headers', () => {
  let server: InProcessApi;
  before(async () => {
    server = await startInProcessApi();
  });
  after(() => server.close());

  it('a JSON reply says nosniff, loads nothing and is never framed', async () => {
    const res = await get('/api/health', { baseUrl: server.baseUrl });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('content-security-policy'), "default-src 'none';frame-ancestors 'none'");
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
  });
});
