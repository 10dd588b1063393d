import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { storeMedia } from '../../functions/src/media/store';
import { adminDb } from '../support/admin';
import { expectError } from '../support/assertions';
import { duringFault, failStorage } from '../support/faults';
import { createTenant } from '../support/fixtures';
import { get, freshIp } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { png } from './samples';

// Cloud Storage failing underneath the media endpoint and the store (the app
// served in-process against the emulators, its Storage client made to fail).

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi();
  tenant = await createTenant();
});
after(() => server.close());

describe('GET /api/media/{mediaId} with Cloud Storage down', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After, and logs why', async () => {
    const { stored } = await storeMedia(tenant.clientId, [{ name: 'a.png', bytes: png(21) }], null);
    const id = stored.get('a.png')!.id;
    const { result: res, entries } = await duringFault(failStorage, () =>
      get(`/api/media/${id}`, { token: tenant.admin.token, ip: freshIp(), baseUrl: server.baseUrl }),
    );
    expectError(res, 503, 'SERVICE_UNAVAILABLE');
    assert.ok(res.headers.get('retry-after'));
    assert.ok(
      entries.some((e) => /Cloud Storage failed/.test(e.message)),
      JSON.stringify(entries),
    );
    const healed = await get(`/api/media/${id}`, { token: tenant.admin.token, ip: freshIp(), baseUrl: server.baseUrl });
    assert.equal(healed.status, 200);
  });

  it('still answers 404 for media that does not exist (the record decides first)', async () => {
    const { result: res } = await duringFault(failStorage, () =>
      get(`/api/media/${tenant.clientId}.${randomUUID()}`, {
        token: tenant.admin.token,
        ip: freshIp(),
        baseUrl: server.baseUrl,
      }),
    );
    expectError(res, 404, 'NOT_FOUND');
  });
});

describe('media store: storeMedia with Cloud Storage down', () => {
  it('fails with 503 and leaves no record behind', async () => {
    const clientId = randomUUID();
    const { result } = await duringFault(failStorage, () =>
      storeMedia(clientId, [{ name: 'a.png', bytes: png(22) }], null).then(
        () => undefined,
        (err: any) => err,
      ),
    );
    assert.equal(result?.status, 503);
    assert.equal((await adminDb.collection(`clients/${clientId}/media`).get()).size, 0);
  });
});
