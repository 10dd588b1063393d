import type * as Yauzl from '../../functions/node_modules/@types/yauzl';

// yauzl lives in functions/ (the import reads packages with it); its types too.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const yauzl: typeof Yauzl = require('../../functions/node_modules/yauzl');

/** Every entry of a zip, name → bytes, in the zip's order (yauzl, the reader the import uses). */
export function zipEntries(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Buffer>();
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err);
      file.on('error', reject);
      file.on('end', () => resolve(entries));
      file.on('entry', (entry: Yauzl.Entry) => {
        file.openReadStream(entry, (openErr, stream) => {
          if (openErr || !stream) return reject(openErr);
          const parts: Buffer[] = [];
          stream.on('data', (c: Buffer) => parts.push(c));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(parts));
            file.readEntry();
          });
        });
      });
      file.readEntry();
    });
  });
}
