import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { getStorage } from 'firebase-admin/storage';
import { MAX_MEDIA_BYTES } from '../../functions/src/media/mediaType';
import { readMedia, removeMedia, storeMedia } from '../../functions/src/media/store';
import { adminDb } from '../support/admin';
import { PROJECT_ID } from '../support/env';
import { gif, png, wav } from './samples';

// The media store against the Firestore and Storage emulators: records in
// clients/{clientId}/media, bytes in the default bucket under the same name.

const bucket = () => getStorage().bucket(`${PROJECT_ID}.appspot.com`);
const objectExists = async (clientId: string, id: string) =>
  (await bucket().file(`clients/${clientId}/media/${id}`).exists())[0];

describe('media store: storeMedia', () => {
  const clientId = randomUUID();

  it('stores each file by its content, with its record, and reads it back', async () => {
    const importId = randomUUID();
    const { stored, refused } = await storeMedia(
      clientId,
      [
        { name: 'sound.mp3', bytes: png(1) },
        { name: 'ding.wav', bytes: wav() },
      ],
      importId,
    );
    assert.deepEqual(refused, []);
    const picture = stored.get('sound.mp3')!;
    assert.equal(picture.content_type, 'image/png', 'a PNG named .mp3 is a PNG');
    assert.match(picture.id, new RegExp(`^${clientId}\\.[0-9a-f-]{36}$`));
    assert.equal(picture.import_id, importId);
    assert.equal(picture.bytes, png(1).length);
    assert.equal(stored.get('ding.wav')!.content_type, 'audio/wav');
    const record = (await adminDb.doc(`clients/${clientId}/media/${picture.id}`).get()).data();
    assert.deepEqual(record, picture);
    const read = await readMedia(clientId, picture.id);
    assert.deepEqual(read?.doc, picture);
    assert.ok(read?.bytes.equals(png(1)));
  });

  it('reports refused files by name and stores the rest', async () => {
    const { stored, refused } = await storeMedia(
      clientId,
      [
        { name: 'evil.png', bytes: Buffer.from('<script>alert(1)</script>') },
        { name: 'logo.svg', bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') },
        { name: 'huge.png', bytes: Buffer.concat([png(), Buffer.alloc(MAX_MEDIA_BYTES)]) },
        { name: 'ok.gif', bytes: gif() },
      ],
      null,
    );
    assert.deepEqual(
      refused.map((r) => r.name),
      ['evil.png', 'logo.svg', 'huge.png'],
    );
    assert.deepEqual([...stored.keys()], ['ok.gif']);
    assert.equal(stored.get('ok.gif')!.import_id, null);
  });

  it('stores identical bytes of one import once, under every name that brought them', async () => {
    const bytes = png(7);
    const { stored } = await storeMedia(
      clientId,
      [
        { name: 'a.png', bytes },
        { name: 'b.png', bytes },
      ],
      randomUUID(),
    );
    assert.equal(stored.get('a.png')!.id, stored.get('b.png')!.id);
  });

  it('refuses media over 20 MB together with 400, writing nothing', async () => {
    // Eleven distinct files of just under 2 MB: each allowed, together too many.
    const big = (i: number) => Buffer.concat([png(i), Buffer.alloc(MAX_MEDIA_BYTES - 200)]);
    const other = randomUUID();
    const files = Array.from({ length: 11 }, (_, i) => ({ name: `${i}.png`, bytes: big(i) }));
    await assert.rejects(storeMedia(other, files, null), (err: any) => err.status === 400);
    const records = await adminDb.collection(`clients/${other}/media`).get();
    assert.equal(records.size, 0);
  });
});

describe('media store: removeMedia', () => {
  it('removes the records and the bytes (an abandoned import)', async () => {
    const clientId = randomUUID();
    const { stored } = await storeMedia(clientId, [{ name: 'x.png', bytes: png(3) }], randomUUID());
    const id = stored.get('x.png')!.id;
    assert.equal(await objectExists(clientId, id), true);
    await removeMedia(clientId, [id]);
    assert.equal(await readMedia(clientId, id), undefined);
    assert.equal(await objectExists(clientId, id), false);
  });
});

describe('media store: readMedia', () => {
  it('answers undefined for media that does not exist', async () =>
    assert.equal(await readMedia(randomUUID(), `x.${randomUUID()}`), undefined));
});
