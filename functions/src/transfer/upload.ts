import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import busboy from 'busboy';
import { ApiError, badRequest, type UploadBody } from '../shared';

// No Firebase here: the one file part of a multipart/form-data upload, read
// through busboy with its size limit enforced while the bytes arrive (not
// after). What the file is (CSV, GIFT, a zip…) is for the consumer to read.

export const FILE_FIELD = 'file';
/** Room for the multipart envelope (boundaries, part headers) around a file of the largest size. */
const ENVELOPE_BYTES = 64 * 1024;

export interface UploadedFile {
  /** The name the client gave the file part, if any. */
  filename: string | undefined;
  /** The file's bytes as they arrive; ends early (and the read fails 413) past the size limit. */
  stream: Readable;
}

export interface UploadRead<T> {
  result: T;
  /** SHA-256 of the file's bytes, hex. */
  sha256: string;
  bytes: number;
}

export const tooLarge = (maxBytes: number) =>
  new ApiError(
    'PAYLOAD_TOO_LARGE',
    `The file is larger than ${maxBytes / (1024 * 1024)} MB; split it into smaller files`,
  );
export const uploadError = (message: string) => badRequest(message, [{ path: FILE_FIELD, message }]);

/** The upload's one file part, as it arrives. */
export interface ReceivedFile extends UploadedFile {
  /**
   * The upload read to its end, with what the consumer read from `stream`
   * (the reading the caller started): rejects with 400 (malformed upload,
   * another part) or 413 (too large) as soon as that is known, having read no
   * further; a reading's ApiError is the answer as it stands.
   */
  finish<T>(reading: Promise<T>): Promise<UploadRead<T>>;
}

/**
 * The one file part named "file", once it begins: the caller reads its stream
 * and hands that reading to `finish`. Rejects with 400 (not multipart, a field
 * or another part first, no file) or 413 (declared too large) before any file.
 */
export function receiveFile(upload: UploadBody, maxBytes: number): Promise<ReceivedFile> {
  if (!upload.multipart) {
    return Promise.reject(uploadError(`Send the file as multipart/form-data with one file part named "${FILE_FIELD}"`));
  }
  const declared = Number(upload.headers['content-length'] ?? 0);
  if (declared > maxBytes + ENVELOPE_BYTES) return Promise.reject(tooLarge(maxBytes));

  return new Promise<ReceivedFile>((resolveFile, rejectFile) => {
    let settled = false;
    let source: Readable | undefined;
    let consumer: PassThrough | undefined;
    let fileSeen = false;
    let formClosed = false;
    let consumed: { value: unknown } | undefined;
    let bytes = 0;
    const hash = createHash('sha256');
    // Settled once the file began: by the first failure, or by the end of both the form and the reading.
    let resolveRead!: (read: UploadRead<unknown>) => void;
    let rejectRead!: (err: ApiError) => void;
    const read = new Promise<UploadRead<unknown>>((resolve, reject) => {
      resolveRead = resolve;
      rejectRead = reject;
    });
    read.catch(() => undefined); // a failure before the reading is handed over is still its answer, later

    const fail = (err: ApiError) => {
      if (settled) return;
      settled = true;
      consumer?.destroy();
      if (source) {
        source.unpipe();
        source.resume(); // drain what the client is still sending, unread
      }
      if (fileSeen) rejectRead(err);
      else rejectFile(err);
    };
    const finishIfDone = () => {
      if (settled || !formClosed) return;
      if (!fileSeen) return fail(uploadError(`No file part named "${FILE_FIELD}" was sent`));
      if (!consumed) return;
      settled = true;
      resolveRead({ result: consumed.value, sha256: hash.digest('hex'), bytes });
    };
    const finish = <T>(reading: Promise<T>): Promise<UploadRead<T>> => {
      reading.then(
        (value) => {
          consumed = { value };
          finishIfDone();
        },
        (err: unknown) => fail(err instanceof ApiError ? err : uploadError((err as Error).message)),
      );
      return read as Promise<UploadRead<T>>;
    };

    let form: busboy.Busboy;
    try {
      form = busboy({
        headers: upload.headers,
        // busboy calls a file of exactly fileSize bytes truncated: one byte more, so the limit itself is taken.
        limits: { fileSize: maxBytes + 1, files: 1, fields: 0, headerPairs: 16, fieldNameSize: 100 },
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
      const stream = new PassThrough();
      consumer = stream;
      file.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        hash.update(chunk);
      });
      file.on('limit', () => fail(tooLarge(maxBytes)));
      // busboy destroys the file stream with an error when the body ends mid-part; unhandled, that would crash the process.
      file.on('error', (err: Error) => fail(uploadError(`The multipart body is malformed: ${err.message}`)));
      stream.on('error', () => undefined); // destroyed on failure; the failure is already the answer
      file.pipe(stream);
      resolveFile({ filename: info.filename || undefined, stream, finish });
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
      if (rawBody.length > maxBytes + ENVELOPE_BYTES) return fail(tooLarge(maxBytes));
      form.end(rawBody);
    } else {
      source = upload.stream;
      upload.stream.pipe(form);
    }
  });
}

/** The whole stream's bytes (the upload's limit bounds them). */
export async function streamBytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
