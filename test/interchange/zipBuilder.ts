import { createRequire } from 'node:module';
import path from 'node:path';
import type { Readable } from 'node:stream';

// Test helper: a zip built in memory with yazl, and the raw patches a hostile
// zip needs (yazl refuses to write `..` or absolute names itself).

/** The part of yazl's ZipFile used here (yazl is a dependency of functions/, not of the repo root). */
interface YazlZipFile {
  addBuffer(buffer: Buffer, name: string, options?: { compress?: boolean }): void;
  addEmptyDirectory(name: string): void;
  end(): void;
  outputStream: Readable;
}
const yazl = createRequire(path.resolve(__dirname, '../../functions/package.json'))('yazl') as {
  ZipFile: new () => YazlZipFile;
};

export type ZipContent = Record<string, string | Uint8Array>;

/** The zip of these files (deflated unless `store`); a name ending in "/" is a directory. */
export function buildZip(files: ZipContent, options: { store?: boolean } = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) {
    if (name.endsWith('/')) zip.addEmptyDirectory(name);
    else
      zip.addBuffer(typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content), name, {
        compress: !options.store,
      });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/**
 * Every occurrence of `from` in the zip's bytes made `to` (same length): the
 * names sit in both the local and the central headers, and no checksum covers
 * them, so a name yazl would refuse is written this way.
 */
export function patchBytes(zip: Buffer, from: string, to: string): Buffer {
  if (Buffer.byteLength(from) !== Buffer.byteLength(to)) throw new Error('patch must keep the length');
  const out = Buffer.from(zip);
  const needle = Buffer.from(from, 'latin1');
  const replacement = Buffer.from(to, 'latin1');
  let at = out.indexOf(needle);
  if (at < 0) throw new Error(`"${from}" is not in the zip`);
  while (at >= 0) {
    replacement.copy(out, at);
    at = out.indexOf(needle, at + needle.length);
  }
  return out;
}

const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/** Every header's stated uncompressed size set to `size` (a header that lies about what the entry inflates to). */
export function lieAboutSizes(zip: Buffer, size: number): Buffer {
  const out = Buffer.from(zip);
  for (let i = 0; i + 4 <= out.length; i++) {
    const sig = out.readUInt32LE(i);
    if (sig === CENTRAL_HEADER && i + 28 <= out.length) out.writeUInt32LE(size, i + 24);
    else if (sig === LOCAL_HEADER && i + 26 <= out.length) out.writeUInt32LE(size, i + 22);
  }
  return out;
}
