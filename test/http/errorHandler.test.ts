import assert from 'node:assert/strict';
import type { Request, Response } from 'express';
import { errorHandler } from '../../functions/src/http/errorHandler';
import { ApiError, badRequest, clipText, MAX_ERROR_DETAILS, MAX_ERROR_TEXT } from '../../functions/src/shared/errors';
import { captureLog, type LogEntry } from '../../functions/src/platform/log';
import { AnsweredAtDeadline } from '../../functions/src/platform/backendDeadline';

function fakeResponse() {
  const res = { statusCode: 0, body: undefined as any, headers: {} as Record<string, string>, headersSent: false };
  const response = {
    get headersSent() {
      return res.headersSent;
    },
    status(code: number) {
      res.statusCode = code;
      return this;
    },
    json(body: unknown) {
      res.body = body;
      return this;
    },
    setHeader(name: string, value: string) {
      res.headers[name] = value;
    },
  };
  return { res, response: response as unknown as Response };
}

/** The handler's answer to `err`; what it logs is kept out of the test report. */
const run = (err: unknown) => {
  const { res, response } = fakeResponse();
  const release = captureLog(() => undefined);
  try {
    errorHandler(err, {} as Request, response, () => undefined);
  } finally {
    release();
  }
  return res;
};

describe('errorHandler', () => {
  it('sends nothing and logs no server error when the request was answered at its backend deadline', () => {
    const entries: LogEntry[] = [];
    const release = captureLog((entry) => entries.push(entry));
    try {
      for (const err of [
        new AnsweredAtDeadline(),
        Object.assign(new Error('Cannot set headers after they are sent'), { code: 'ERR_HTTP_HEADERS_SENT' }),
        new Error('something else'),
      ]) {
        const { res, response } = fakeResponse();
        res.headersSent = true;
        (response as unknown as { locals: object }).locals = { answeredAtDeadline: true };
        errorHandler(err, {} as Request, response, () => undefined);
        assert.equal(res.statusCode, 0);
        assert.equal(res.body, undefined);
      }
    } finally {
      release();
    }
    // Only what was not the deadline's own doing is noted, as a warning.
    assert.deepEqual(
      entries.map((e) => [e.severity, e.data.error]),
      [['WARNING', 'something else']],
    );
  });

  it('answers an ApiError with its code, message, status and headers', () => {
    const res = run(new ApiError('RATE_LIMITED', 'slow down', undefined, { 'Retry-After': '7' }));
    assert.equal(res.statusCode, 429);
    assert.deepEqual(res.body, { error: 'RATE_LIMITED', message: 'slow down', status: 429 });
    assert.equal(res.headers['Retry-After'], '7');
  });

  it('turns an unexpected error into SERVER_ERROR without leaking its message', () => {
    const res = run(new Error('connection string postgres://secret'));
    assert.equal(res.statusCode, 500);
    assert.equal(res.body.error, 'SERVER_ERROR');
    assert.equal(res.body.status, 500);
    assert.match(res.body.message, /request id/);
    assert.ok(!JSON.stringify(res.body).includes('secret'));
  });

  it('maps a body parser’s "too large" to PAYLOAD_TOO_LARGE', () => {
    const res = run(Object.assign(new Error('too big'), { type: 'entity.too.large', status: 413 }));
    assert.equal(res.statusCode, 413);
    assert.equal(res.body.error, 'PAYLOAD_TOO_LARGE');
  });

  it('maps a path Express cannot decode (URIError) to VALIDATION_ERROR', () => {
    const res = run(Object.assign(new URIError("Failed to decode param '%E0%A4%A'"), { status: 400 }));
    assert.equal(res.statusCode, 400);
    assert.equal(res.body.error, 'VALIDATION_ERROR');
    assert.match(res.body.message, /percent-encoding/);
  });

  it('maps Firestore UNAVAILABLE to SERVICE_UNAVAILABLE with Retry-After', () => {
    const res = run(Object.assign(new Error('14 UNAVAILABLE: no connection'), { code: 14 }));
    assert.equal(res.statusCode, 503);
    assert.equal(res.body.error, 'SERVICE_UNAVAILABLE');
    assert.ok(Number(res.headers['Retry-After']) >= 1);
    assert.ok(!JSON.stringify(res.body).includes('no connection'), 'the backend’s message is not passed on');
  });

  it('maps a transaction Firestore closed under contention (INVALID_ARGUMENT "Transaction is invalid or closed") to SERVICE_UNAVAILABLE with Retry-After', () => {
    const res = run(Object.assign(new Error('3 INVALID_ARGUMENT: Transaction is invalid or closed.'), { code: 3 }));
    assert.equal(res.statusCode, 503);
    assert.equal(res.body.error, 'SERVICE_UNAVAILABLE');
    assert.ok(Number(res.headers['Retry-After']) >= 1);
  });

  it('maps a transaction that ran out of retries under contention (ABORTED) to SERVICE_UNAVAILABLE with Retry-After', () => {
    const res = run(
      Object.assign(new Error('10 ABORTED: Too much contention on these documents. Please try again.'), { code: 10 }),
    );
    assert.equal(res.statusCode, 503);
    assert.equal(res.body.error, 'SERVICE_UNAVAILABLE');
    assert.ok(Number(res.headers['Retry-After']) >= 1);
  });

  it('maps malformed JSON to VALIDATION_ERROR', () => {
    const res = run(Object.assign(new SyntaxError('Unexpected token'), { type: 'entity.parse.failed', status: 400 }));
    assert.equal(res.statusCode, 400);
    assert.equal(res.body.error, 'VALIDATION_ERROR');
  });
});

describe('ApiError reply bounds (every error reply, whatever the endpoint)', () => {
  it('lists at most the first 100 details, in order, with details_total the count of all of them', () => {
    const details = Array.from({ length: 5000 }, (_, i) => ({
      path: `row ${i + 2}.marks`,
      message: 'Greater than 0',
      row: i + 2,
    }));
    const body = run(badRequest('5000 of 5000 rows are invalid', details)).body;
    assert.equal(MAX_ERROR_DETAILS, 100);
    assert.deepEqual(body.details, details.slice(0, 100));
    assert.equal(body.details_total, 5000);
  });

  it('leaves details_total out when every detail is listed (100 or fewer)', () => {
    const details = Array.from({ length: 100 }, (_, i) => ({ path: `p${i}`, message: 'm' }));
    const body = run(badRequest('x', details)).body;
    assert.equal(body.details.length, 100);
    assert.ok(!('details_total' in body));
  });

  it('cuts the message, each detail path and message, and any other text in a detail to 500 characters ending in "…"', () => {
    const long = 'c,'.repeat(400_000);
    const body = run(badRequest(long, [{ path: long, message: long, field: long, row: 1 }])).body;
    assert.equal(MAX_ERROR_TEXT, 500);
    for (const text of [body.message, body.details[0].path, body.details[0].message, body.details[0].field]) {
      assert.equal(text.length, 500);
      assert.ok(text.endsWith('…'));
      assert.ok(long.startsWith(text.slice(0, -1)));
    }
    assert.equal(body.details[0].row, 1);
    assert.ok(JSON.stringify(body).length < 3000);
  });

  it('never splits a surrogate pair when cutting', () => {
    const cut = clipText(`${'x'.repeat(498)}😀😀`);
    assert.equal(cut, `${'x'.repeat(498)}…`);
    assert.ok(!/[\ud800-\udfff]/.test(cut));
  });

  it('keeps short texts as they are', () => {
    assert.deepEqual(run(badRequest('short', [{ path: 'body.a', message: 'bad' }])).body, {
      error: 'VALIDATION_ERROR',
      message: 'short',
      status: 400,
      details: [{ path: 'body.a', message: 'bad' }],
    });
  });
});
