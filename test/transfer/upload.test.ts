import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { receiveFile, streamBytes } from '../../functions/src/transfer/upload';
import type { UploadBody } from '../../functions/src/shared/callContext';
import { ApiError, conflict } from '../../functions/src/shared/errors';
import { multipartBody, type FilePart } from '../support/multipart';

// Pure: the one file part of an upload, received and read to its end by the
// caller, which hands transfer/upload its reading (no callback into the caller).

const KB = 1024;

function uploadOf(parts: FilePart[], { raw = true } = {}): UploadBody {
  const { body, contentType } = multipartBody(parts);
  const headers = { 'content-type': contentType };
  return raw
    ? { headers, multipart: true, rawBody: body, stream: Readable.from([]) }
    : { headers, multipart: true, stream: Readable.from([body]) };
}

const csvPart = (content: string | Buffer): FilePart => ({ field: 'file', filename: 'bank.csv', content });

async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof ApiError, String(err));
    return { status: err.status, message: err.message };
  }
  assert.fail('expected a refusal');
}

describe('transfer/upload receiveFile', () => {
  for (const raw of [true, false]) {
    it(`gives the file, then the reading with the file's SHA-256 and size (${raw ? 'body read by the platform' : 'request stream'})`, async () => {
      const content = 'a,b\n1,2\n';
      const file = await receiveFile(uploadOf([csvPart(content)], { raw }), 64 * KB);
      assert.equal(file.filename, 'bank.csv');
      const read = await file.finish(streamBytes(file.stream).then((b) => b.toString('utf8')));
      assert.deepEqual(read, {
        result: content,
        sha256: createHash('sha256').update(content).digest('hex'),
        bytes: content.length,
      });
    });
  }

  it('answers 413 once the file passes the limit, whatever the reading made of it', async () => {
    const file = await receiveFile(uploadOf([csvPart(Buffer.alloc(8 * KB, 'x'))]), 4 * KB);
    assert.deepEqual(await refusal(file.finish(streamBytes(file.stream))), {
      status: 413,
      message: 'The file is larger than 0.00390625 MB; split it into smaller files',
    });
  });

  it('takes a file of exactly the limit, and refuses one byte more', async () => {
    const atLimit = await receiveFile(uploadOf([csvPart(Buffer.alloc(4 * KB, 'x'))]), 4 * KB);
    assert.equal((await atLimit.finish(streamBytes(atLimit.stream))).bytes, 4 * KB);
    const over = await receiveFile(uploadOf([csvPart(Buffer.alloc(4 * KB + 1, 'x'))]), 4 * KB);
    assert.equal((await refusal(over.finish(streamBytes(over.stream)))).status, 413);
  });

  it("answers a reading's ApiError as it stands, and any other failure as a 400 on the file", async () => {
    const first = await receiveFile(uploadOf([csvPart('x')]), 64 * KB);
    assert.deepEqual(await refusal(first.finish(Promise.reject(conflict('taken')))), { status: 409, message: 'taken' });
    const second = await receiveFile(uploadOf([csvPart('x')]), 64 * KB);
    assert.deepEqual(await refusal(second.finish(Promise.reject(new Error('unreadable')))), {
      status: 400,
      message: 'unreadable',
    });
  });

  it('refuses before any file: not multipart, a part of another name, no file at all', async () => {
    const notMultipart: UploadBody = { headers: {}, multipart: false, stream: Readable.from([]) };
    assert.equal((await refusal(receiveFile(notMultipart, KB))).status, 400);
    assert.deepEqual(await refusal(receiveFile(uploadOf([{ field: 'upload', filename: 'a.csv', content: 'x' }]), KB)), {
      status: 400,
      message: 'The file part must be named "file" (got "upload")',
    });
    assert.deepEqual(await refusal(receiveFile(uploadOf([]), KB)), {
      status: 400,
      message: 'No file part named "file" was sent',
    });
  });
});
