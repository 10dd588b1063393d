import assert from 'node:assert/strict';
import {
  MAX_IMPORT_MEDIA_BYTES,
  MAX_MEDIA_BYTES,
  MEDIA_CONTENT_TYPES,
  sniffMedia,
} from '../../functions/src/media/mediaType';
import { gif, jpeg, mp3, ogg, png, svg, wav, webp } from './samples';

describe('media: sniffMedia (type by content)', () => {
  const allowed: Array<[string, () => Buffer, string]> = [
    ['PNG', png, 'image/png'],
    ['JPEG', jpeg, 'image/jpeg'],
    ['GIF', gif, 'image/gif'],
    ['WebP', webp, 'image/webp'],
    ['MP3', mp3, 'audio/mpeg'],
    ['Ogg Vorbis', ogg, 'audio/ogg'],
    ['WAV', wav, 'audio/wav'],
  ];
  for (const [what, make, type] of allowed) {
    it(`accepts ${what} as ${type}`, async () =>
      assert.deepEqual(await sniffMedia(make()), { ok: true, contentType: type }));
  }

  it('serves only the listed types', () => {
    assert.deepEqual([...new Set(allowed.map(([, , type]) => type))].sort(), [...MEDIA_CONTENT_TYPES].sort());
  });

  it('refuses a shell script (whatever it is named: the name is never asked)', async () => {
    const result = await sniffMedia(Buffer.from('#!/bin/sh\nrm -rf /\n'));
    assert.equal(result.ok, false);
  });

  it('refuses SVG (a document that can run script)', async () => {
    const result = await sniffMedia(svg());
    assert.equal(result.ok, false);
    assert.match(!result.ok ? result.reason : '', /PNG, JPEG, GIF, WebP, MP3, Ogg or WAV/);
  });

  it('refuses a recognised type not on the list, naming it', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    const result = await sniffMedia(pdf);
    assert.equal(result.ok, false);
    assert.match(!result.ok ? result.reason : '', /application\/pdf/);
  });

  it('refuses an empty file', async () => assert.equal((await sniffMedia(Buffer.alloc(0))).ok, false));

  it('refuses a file over 2 MB, even a valid PNG, and accepts one of exactly 2 MB', async () => {
    const atLimit = Buffer.concat([png(), Buffer.alloc(MAX_MEDIA_BYTES - png().length)]);
    assert.equal((await sniffMedia(atLimit)).ok, true);
    const over = Buffer.concat([atLimit, Buffer.alloc(1)]);
    const result = await sniffMedia(over);
    assert.equal(result.ok, false);
    assert.match(!result.ok ? result.reason : '', /at most 2097152/);
  });

  it('caps an import at 20 MB of media', () => assert.equal(MAX_IMPORT_MEDIA_BYTES, 20 * 1024 * 1024));
});
