import assert from 'node:assert/strict';
import { adminDb } from '../support/admin';
import { expectError } from '../support/assertions';
import { duringFault, failReads, failWrites } from '../support/faults';
import { createTenant } from '../support/fixtures';
import { freshIp, get, post } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';

// Firestore failing underneath the webhook endpoints (the app in-process
// against the emulators): a JSON 503 with Retry-After, and nothing half written.

describe('webhook endpoints when Firestore fails', () => {
  let server: InProcessApi;
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  before(async () => {
    process.env.ALLOW_LOOPBACK_URLS = 'true';
    [server, tenant] = await Promise.all([startInProcessApi(), createTenant()]);
  });
  after(() => server.close());
  const opts = () => ({ token: tenant.admin.token, ip: freshIp(), baseUrl: server.baseUrl });

  it('answers a list 503 when its read fails', async () => {
    const { result } = await duringFault(
      () => failReads(new RegExp(`^clients/${tenant.clientId}/webhooks`)),
      () => get(`/api/clients/${tenant.clientId}/webhooks`, opts()),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    assert.ok(result.headers.get('retry-after'));
  });

  it('answers a registration 503 when its commit fails, and writes neither the endpoint nor its audit record', async () => {
    const { result } = await duringFault(
      () => failWrites(new RegExp(`^clients/${tenant.clientId}/webhooks/`)),
      () =>
        post(
          `/api/clients/${tenant.clientId}/webhooks`,
          { url: 'https://hooks.example.com/in', events: ['test.published'] },
          opts(),
        ),
    );
    expectError(result, 503, 'SERVICE_UNAVAILABLE');
    assert.equal((await adminDb.collection(`clients/${tenant.clientId}/webhooks`).get()).size, 0);
    const audits = await adminDb.collection('audit_logs').where('client_id', '==', tenant.clientId).get();
    assert.equal(audits.docs.filter((d) => d.get('event_type') === 'webhook_created').length, 0);
  });
});
