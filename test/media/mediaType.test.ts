import assert from 'node:assert/strict';
import {
  ATTACHMENT_CONTENT_TYPES,
  MAX_ATTACHMENT_BYTES,
  MAX_IMPORT_MEDIA_BYTES,
  MAX_MEDIA_BYTES,
  MAX_VIDEO_BYTES,
  MEDIA_CONTENT_TYPES,
  sniffAttachment,
  sniffMedia,
} from '../../functions/src/media/mediaType';
import { gif, jpeg, mp3, mp4, ogg, pdf, png, svg, wav, webm, webp } from './samples';

describe('media: sniffMedia (type by content)', () => {
  const allowed: Array<[string, () => Buffer, string]> = [
    ['PNG', png, 'image/png'],
    ['JPEG', jpeg, 'image/jpeg'],
    ['GIF', gif, 'image/gif'],
    ['WebP', webp, 'image/webp'],
    ['MP3', mp3, 'audio/mpeg'],
    ['Ogg Vorbis', ogg, 'audio/ogg'],
    ['WAV', wav, 'audio/wav'],
    ['MP4', mp4, 'video/mp4'],
    ['WebM', webm, 'video/webm'],
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
    assert.match(!result.ok ? result.reason : '', /PNG, JPEG, GIF, WebP, MP3, Ogg, WAV, MP4 or WebM/);
  });

  it('refuses a recognised type not on the list, naming it', async () => {
    const result = await sniffMedia(pdf());
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

  it('takes a video of up to 20 MB, while a picture or a sound stays at 2 MB', async () => {
    const atLimit = Buffer.concat([mp4(), Buffer.alloc(MAX_VIDEO_BYTES - mp4().length)]);
    assert.deepEqual(await sniffMedia(atLimit), { ok: true, contentType: 'video/mp4' });
    const over = await sniffMedia(Buffer.concat([atLimit, Buffer.alloc(1)]));
    assert.equal(over.ok, false);
    assert.match(!over.ok ? over.reason : '', /at most 20971520/);
    const bigPicture = await sniffMedia(Buffer.concat([png(), Buffer.alloc(3 * 1024 * 1024)]));
    assert.equal(bigPicture.ok, false);
    assert.match(!bigPicture.ok ? bigPicture.reason : '', /image\/png may be at most 2097152/);
  });

  it('caps an import at 20 MB of media', () => assert.equal(MAX_IMPORT_MEDIA_BYTES, 20 * 1024 * 1024));
});

describe('media: sniffAttachment (a taker’s file, by content)', () => {
  const cases: Array<[string, () => Buffer, string | RegExp]> = [
    ['a PDF', pdf, 'application/pdf'],
    ['a PNG', () => png(), 'image/png'],
    ['a JPEG', jpeg, 'image/jpeg'],
    [
      'an HTML page that calls itself a PDF',
      () => Buffer.from('<html><body>%PDF-1.4 <script>x()</script></body></html>'),
      /not a recognised file.*PDF, PNG or JPEG/,
    ],
    ['a GIF (media, but not an attachment)', gif, /image\/gif; an attachment may be PDF, PNG or JPEG/],
    ['a video', mp4, /video\/mp4/],
    ['an empty file', () => Buffer.alloc(0), /empty/],
  ];
  for (const [what, make, expected] of cases)
    it(`${what} → ${String(expected)}`, async () => {
      const result = await sniffAttachment(make());
      if (typeof expected === 'string') assert.deepEqual(result, { ok: true, contentType: expected });
      else assert.match(result.ok ? result.contentType : result.reason, expected);
    });

  it('takes exactly 10 MB, not a byte more', async () => {
    const atLimit = Buffer.concat([pdf(), Buffer.alloc(MAX_ATTACHMENT_BYTES - pdf().length)]);
    assert.equal((await sniffAttachment(atLimit)).ok, true);
    const over = await sniffAttachment(Buffer.concat([atLimit, Buffer.alloc(1)]));
    assert.equal(over.ok, false);
    assert.match(!over.ok ? over.reason : '', /at most 10485760/);
  });

  it('names PDF, PNG and JPEG only', () =>
    assert.deepEqual([...ATTACHMENT_CONTENT_TYPES], ['application/pdf', 'image/png', 'image/jpeg']));
});
