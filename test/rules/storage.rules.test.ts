import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { getStorage } from 'firebase-admin/storage';
import '../support/admin';
import { PROJECT_ID } from '../support/env';
import { createTenant } from '../support/fixtures';
import { png } from '../media/samples';

// Cloud Storage rules (storage.rules, on the Storage emulator): no client reaches
// the bucket, signed in or not; the Admin SDK does. Clients see media only through the API.

const host = process.env.FIREBASE_STORAGE_EMULATOR_HOST ?? '127.0.0.1:9199';
const bucketName = `${PROJECT_ID}.appspot.com`;
const objectUrl = (name: string) => `http://${host}/v0/b/${bucketName}/o/${encodeURIComponent(name)}`;

describe('storage.rules', () => {
  const name = `clients/${randomUUID()}/media/rules-test`;
  let token: string;

  before(async function () {
    this.timeout(30_000);
    await getStorage().bucket(bucketName).file(name).save(png(), { resumable: false, contentType: 'image/png' });
    token = (await createTenant()).admin.token;
  });

  it('lets the Admin SDK read what it wrote', async () => {
    const [bytes] = await getStorage().bucket(bucketName).file(name).download();
    assert.ok(bytes.equals(png()));
  });

  for (const who of ['anyone', 'a signed-in administrator'] as const) {
    it(`refuses ${who} a read, a listing and a write through the client API`, async () => {
      const headers: Record<string, string> = who === 'anyone' ? {} : { Authorization: `Firebase ${token}` };
      const read = await fetch(`${objectUrl(name)}?alt=media`, { headers });
      assert.equal(read.status, 403);
      const list = await fetch(`http://${host}/v0/b/${bucketName}/o?prefix=clients%2F`, { headers });
      assert.equal(list.status, 403);
      const write = await fetch(`${objectUrl(`clients/x/media/${randomUUID()}`)}?uploadType=media`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'image/png' },
        body: new Uint8Array(png()),
      });
      assert.equal(write.status, 403);
    });
  }
});
