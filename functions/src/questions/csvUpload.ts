import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { parse } from 'csv-parse';
import type { UploadBody } from '../shared/callContext';
import { ApiError, badRequest } from '../shared/errors';
import { recordStartLine } from './csvRows';

// No Firebase here: a multipart upload streamed through busboy into csv-parse,
// with its limits enforced while the bytes arrive (not after), and each record
// handed on as soon as it is parsed.

export interface UploadLimits {
  /** Largest file, in bytes. */
  maxBytes: number;
  /** Most data rows (the header not counted). */
  maxRows: number;
}

export interface CsvRecord {
  /** The file line the record starts on (the header is line 1). */
  line: number;
  cells: string[];
}

export interface UploadSummary {
  /** SHA-256 of the file's bytes, hex. */
  sha256: string;
  bytes: number;
  /** Data rows read (the header not counted). */
  rows: number;
}

export const FILE_FIELD = 'file';
/** Room for the multipart envelope (boundaries, part headers) around a file of the largest size. */
const ENVELOPE_BYTES = 64 * 1024;
/** The longest single record csv-parse buffers: far above any valid row, far below the file limit. */
const MAX_RECORD_BYTES = 256 * 1024;

const tooLarge = (limits: UploadLimits) =>
  new ApiError(
    'PAYLOAD_TOO_LARGE',
    `The file is larger than ${limits.maxBytes / (1024 * 1024)} MB; split it into smaller files`,
  );
const uploadError = (message: string) => badRequest(message, [{ path: FILE_FIELD, message }]);

/**
 * Reads the one file part of a multipart/form-data request as CSV. The header
 * record and every data record go to `onRecord` in file order. Rejects with
 * 400 (malformed upload or CSV, too many rows) or 413 (too large) as soon as
 * that is known, having read no further.
 */
export function readCsvUpload(
  upload: UploadBody,
  limits: UploadLimits,
  onRecord: (record: CsvRecord) => void,
): Promise<UploadSummary> {
  if (!upload.multipart) {
    return Promise.reject(uploadError(`Send the CSV as multipart/form-data with one file part named "${FILE_FIELD}"`));
  }
  const declared = Number(upload.headers['content-length'] ?? 0);
  if (declared > limits.maxBytes + ENVELOPE_BYTES) return Promise.reject(tooLarge(limits));

  return new Promise<UploadSummary>((resolve, reject) => {
    let settled = false;
    let source: Readable | undefined;
    let parser: ReturnType<typeof parse> | undefined;
    let fileSeen = false;
    let formClosed = false;
    let csvEnded = false;
    let records = 0;
    let bytes = 0;
    const hash = createHash('sha256');

    const fail = (err: ApiError) => {
      if (settled) return;
      settled = true;
      parser?.destroy();
      if (source) {
        source.unpipe();
        source.resume(); // drain what the client is still sending, unread
      }
      reject(err);
    };
    const finishIfDone = () => {
      if (settled || !formClosed) return;
      if (!fileSeen) return fail(uploadError(`No file part named "${FILE_FIELD}" was sent`));
      if (!csvEnded) return;
      if (records === 0) return fail(uploadError('The file is empty'));
      if (records === 1) return fail(uploadError('The file has a header row but no questions'));
      settled = true;
      resolve({ sha256: hash.digest('hex'), bytes, rows: records - 1 });
    };

    let form: busboy.Busboy;
    try {
      form = busboy({
        headers: upload.headers,
        limits: { fileSize: limits.maxBytes, files: 1, fields: 0, headerPairs: 16, fieldNameSize: 100 },
      });
    } catch (err) {
      return fail(uploadError(`Not a valid multipart/form-data request: ${(err as Error).message}`));
    }

    form.on('file', (name, file, info) => {
      if (name !== FILE_FIELD) {
        file.resume();
        // A part may come without a name at all.
        return fail(
          uploadError(`The file part must be named "${FILE_FIELD}" (got "${String(name ?? '').slice(0, 40)}")`),
        );
      }
      fileSeen = true;
      const csv = parse({
        bom: true,
        skip_empty_lines: true,
        skip_records_with_empty_values: true, // a spreadsheet's blank rows export as ",,,,,"
        relax_column_count: false,
        record_delimiter: '\n',
        info: true,
        raw: true,
        max_record_size: MAX_RECORD_BYTES,
      });
      parser = csv;
      csv.on('data', (entry: { record: string[]; info: { lines: number }; raw: string }) => {
        if (settled) return;
        records++;
        if (records - 1 > limits.maxRows) {
          return fail(
            uploadError(`The file has more than ${limits.maxRows} question rows; split it into smaller files`),
          );
        }
        try {
          onRecord({ line: recordStartLine(entry.info.lines, entry.raw), cells: entry.record });
        } catch (err) {
          fail(err instanceof ApiError ? err : uploadError((err as Error).message));
        }
      });
      csv.on('error', (err: Error & { lines?: number }) => {
        const where = err.lines ? `line ${err.lines}: ` : '';
        fail(uploadError(`The file is not valid CSV: ${where}${err.message.replace(/ at line \d+| on line \d+/, '')}`));
      });
      csv.on('end', () => {
        csvEnded = true;
        finishIfDone();
      });

      // Bytes → checked UTF-8 text with line ends made "\n" → csv-parse.
      const decoder = new TextDecoder('utf-8', { fatal: true });
      let pendingCR = false;
      const feed = (text: string) => {
        let normalized = (pendingCR ? '\r' : '') + text;
        pendingCR = normalized.endsWith('\r');
        if (pendingCR) normalized = normalized.slice(0, -1);
        normalized = normalized.replace(/\r\n?/g, '\n');
        if (normalized.includes('\u0000')) throw new Error('binary');
        if (normalized.length > 0 && !csv.write(normalized)) {
          file.pause();
          csv.once('drain', () => file.resume());
        }
      };
      file.on('data', (chunk: Buffer) => {
        if (settled) return;
        bytes += chunk.length;
        hash.update(chunk);
        try {
          feed(decoder.decode(chunk, { stream: true }));
        } catch {
          fail(uploadError(`The file "${info.filename ?? ''}" is not UTF-8 text (CSV expected)`.replace(' ""', '')));
        }
      });
      file.on('limit', () => fail(tooLarge(limits)));
      // busboy destroys the file stream with an error when the body ends mid-part; unhandled, that would crash the process.
      file.on('error', (err: Error) => fail(uploadError(`The multipart body is malformed: ${err.message}`)));
      file.on('end', () => {
        if (settled) return;
        try {
          feed(decoder.decode());
          if (pendingCR) csv.write('\n');
        } catch {
          return fail(uploadError('The file is not UTF-8 text (CSV expected)'));
        }
        csv.end();
      });
    });
    form.on('field', (name) =>
      fail(
        uploadError(
          `Unexpected form field "${String(name ?? '').slice(0, 40)}": send only the file part "${FILE_FIELD}"`,
        ),
      ),
    );
    form.on('filesLimit', () => fail(uploadError(`Send exactly one file part, "${FILE_FIELD}"`)));
    form.on('fieldsLimit', () => fail(uploadError(`Send only the file part "${FILE_FIELD}"`)));
    form.on('error', (err: Error) => fail(uploadError(`The multipart body is malformed: ${err.message}`)));
    form.on('close', () => {
      formClosed = true;
      finishIfDone();
    });

    // The platform (Cloud Functions, the emulator) has usually read the body
    // already; served any other way, the request stream is still unread.
    const { rawBody } = upload;
    if (rawBody) {
      if (rawBody.length > limits.maxBytes + ENVELOPE_BYTES) return fail(tooLarge(limits));
      form.end(rawBody);
    } else {
      source = upload.stream;
      upload.stream.pipe(form);
    }
  });
}
