import yauzl from 'yauzl';
import { BankFileRefused } from './model';

// Pure: the one way a zip bank file (a QTI content package) is unpacked, into
// memory and within bounds. A zip's headers are written by whoever made it, so
// the sizes they state are only a first check: the bytes actually inflated are
// counted, and unpacking stops the moment they pass the bound (a zip bomb
// inflates a few kilobytes into gigabytes).

export interface ZipLimits {
  /** Entries in the central directory, directories included. */
  maxEntries: number;
  /** Bytes once inflated, all files together. */
  maxTotalBytes: number;
}

export const ZIP_LIMITS: ZipLimits = { maxEntries: 1_000, maxTotalBytes: 50 * 1024 * 1024 };

const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/** A path that stays inside the package, or why not. yauzl checks the same first; this holds even if it did not. */
function pathProblem(name: string): string | null {
  if (name.length === 0) return 'an entry has no name';
  if (name.includes('\\')) return `the entry "${name}" has a backslash in its path`;
  if (name.includes('\0')) return `the entry "${name}" has a NUL character in its path`;
  if (/^[a-zA-Z]:/.test(name) || name.startsWith('/')) return `the entry "${name}" has an absolute path`;
  if (name.split('/').includes('..')) return `the entry "${name}" has a path leaving the package (..)`;
  return null;
}

/** yauzl's own refusals, said for the person who uploaded the file. */
function refusalOf(err: unknown): BankFileRefused {
  if (err instanceof BankFileRefused) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/absolute path|invalid relative path|invalid characters in fileName/.test(message))
    return new BankFileRefused(`The zip is refused: an entry's path leaves the package (${message})`);
  if (/too many bytes in the stream|too few bytes in the stream|size mismatch/.test(message))
    return new BankFileRefused(`The zip is refused: an entry's size does not match its header (${message})`);
  if (/end of central directory record signature not found|not a zip/i.test(message))
    return new BankFileRefused('The file is not a zip archive (no end of central directory record)');
  if (/encrypted/i.test(message)) return new BankFileRefused('The zip is refused: it has an encrypted entry');
  return new BankFileRefused(`The zip cannot be read: ${message}`);
}

/**
 * Every file of the zip by its path (directories skipped), refusing with
 * BankFileRefused: more than `maxEntries` entries, more than `maxTotalBytes`
 * inflated, a path that leaves the package (`..`, absolute, a drive letter, a
 * backslash), a name given twice, or a zip that cannot be read.
 */
export async function readZip(bytes: Uint8Array, limits: ZipLimits = ZIP_LIMITS): Promise<Map<string, Uint8Array>> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let zip: yauzl.ZipFile;
  try {
    // strictFileNames: a backslash is refused rather than silently made a slash.
    zip = await yauzl.fromBufferPromise(buffer, {
      lazyEntries: true,
      validateEntrySizes: true,
      strictFileNames: true,
      decodeStrings: true,
    });
  } catch (err) {
    throw refusalOf(err);
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new BankFileRefused(
      `The zip is refused: it has ${zip.entryCount} entries, more than the ${limits.maxEntries} a package may have`,
    );
  }

  const files = new Map<string, Uint8Array>();
  let total = 0;
  let seen = 0;

  const inflate = (entry: yauzl.Entry): Promise<Uint8Array> =>
    new Promise((resolve, reject) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(refusalOf(err));
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > limits.maxTotalBytes) {
            // Counted on what inflates, not on what the header says: stop now.
            stream.destroy();
            reject(
              new BankFileRefused(
                `The zip is refused: it unpacks to more than ${megabytes(limits.maxTotalBytes)} (stopped at "${entry.fileName}")`,
              ),
            );
            return;
          }
          chunks.push(chunk);
        });
        stream.on('error', (e) => reject(refusalOf(e)));
        stream.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
      });
    });

  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (err: unknown) => reject(refusalOf(err));
      zip.on('error', fail);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        seen += 1;
        if (seen > limits.maxEntries)
          return fail(new BankFileRefused(`The zip is refused: more than ${limits.maxEntries} entries`));
        const name = entry.fileName;
        const problem = pathProblem(name);
        if (problem) return fail(new BankFileRefused(`The zip is refused: ${problem}`));
        if (name.endsWith('/')) return zip.readEntry();
        if (files.has(name)) return fail(new BankFileRefused(`The zip is refused: the entry "${name}" appears twice`));
        // The header's size is a quick first refusal; the inflated bytes are still counted.
        if (total + entry.uncompressedSize > limits.maxTotalBytes)
          return fail(
            new BankFileRefused(
              `The zip is refused: it unpacks to more than ${megabytes(limits.maxTotalBytes)} (at "${name}")`,
            ),
          );
        inflate(entry).then((content) => {
          files.set(name, content);
          zip.readEntry();
        }, fail);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return files;
}
