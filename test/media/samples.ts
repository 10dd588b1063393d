import { deflateSync } from 'node:zlib';

// Small but real media files, built here so the tests carry no binary fixtures.

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/** A 1×1 PNG; `seed` changes its pixel, so two calls with different seeds differ. */
export function png(seed = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const pixel = Buffer.from([0, seed & 0xff, (seed >> 8) & 0xff, 0x80]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(pixel)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export const jpeg = (): Buffer =>
  Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF\0', 'latin1'),
    Buffer.from([1, 1, 0, 0, 1, 0, 1, 0, 0]),
    Buffer.from([0xff, 0xd9]),
  ]);

export const gif = (): Buffer =>
  Buffer.concat([
    Buffer.from('GIF89a', 'ascii'),
    Buffer.from([1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff]),
    Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3b]),
  ]);

function riff(form: string, chunks: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32LE(4 + chunks.length);
  return Buffer.concat([Buffer.from('RIFF', 'ascii'), size, Buffer.from(form, 'ascii'), chunks]);
}

export const webp = (): Buffer =>
  riff('WEBP', Buffer.concat([Buffer.from('VP8L', 'ascii'), Buffer.from([5, 0, 0, 0, 0x2f, 0, 0, 0, 0, 0])]));

export function wav(): Buffer {
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0); // PCM
  fmt.writeUInt16LE(1, 2); // mono
  fmt.writeUInt32LE(8000, 4);
  fmt.writeUInt32LE(8000, 8);
  fmt.writeUInt16LE(1, 12);
  fmt.writeUInt16LE(8, 14);
  const fmtHead = Buffer.concat([Buffer.from('fmt ', 'ascii'), Buffer.from([16, 0, 0, 0])]);
  const data = Buffer.concat([Buffer.from('data', 'ascii'), Buffer.from([4, 0, 0, 0, 128, 128, 128, 128])]);
  return riff('WAVE', Buffer.concat([fmtHead, fmt, data]));
}

/** An MP3: an ID3v2 tag, then MPEG-1 Layer III frames of silence. */
export function mp3(): Buffer {
  const id3 = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]);
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat([id3, frame, frame, frame]);
}

/** The first page of an Ogg Vorbis stream. */
export function ogg(): Buffer {
  const header = Buffer.alloc(28);
  header.write('OggS', 0, 'ascii');
  header[5] = 2; // beginning of stream
  header[26] = 1; // one segment
  header[27] = 30;
  const vorbis = Buffer.concat([Buffer.from([1]), Buffer.from('vorbis', 'ascii'), Buffer.alloc(23)]);
  return Buffer.concat([header, vorbis]);
}

export const svg = (): Buffer =>
  Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'utf8');

function isoBox(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'ascii');
  return Buffer.concat([head, body]);
}

/** The start of an MP4: its ftyp box (brand isom) and an empty box after it. */
export const mp4 = (): Buffer =>
  Buffer.concat([
    isoBox('ftyp', Buffer.concat([Buffer.from('isom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2avc1mp41')])),
    isoBox('free', Buffer.alloc(8)),
  ]);

/** The start of a WebM: an EBML header whose DocType is webm, then a Segment. */
export function webm(): Buffer {
  const header = Buffer.concat([
    Buffer.from([0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]),
    Buffer.from('webm', 'ascii'),
    Buffer.from([0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02]),
  ]);
  return Buffer.concat([
    Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x80 | header.length]),
    header,
    Buffer.from([0x18, 0x53, 0x80, 0x67, 0x01, 0, 0, 0, 0, 0, 0, 0]),
  ]);
}

/** A one-page PDF, as small as a PDF may be. */
export const pdf = (): Buffer => Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1');
