import assert from 'node:assert/strict';
import { MAX_ERROR_DETAILS, MAX_ERROR_TEXT } from '../../functions/src/shared/errors';
import type { ApiResponse } from './http';

export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** The documented error body, exactly: JSON `{error, message, status}` (+ `details`), no internals. */
export function expectError(res: ApiResponse, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/, res.text);
  assert.equal(res.body?.error, code, res.text);
  assert.equal(res.body.status, status, res.text);
  assert.equal(typeof res.body.message, 'string');
  assert.ok(res.body.message.length > 0, 'the error has a message');
  // `questions` / `rows`: the report of a question or roster import refused whole (documented in the Error schema).
  const extra = Object.keys(res.body).filter(
    (k) => !['error', 'message', 'status', 'details', 'details_total', 'questions', 'rows'].includes(k),
  );
  assert.deepEqual(
    extra,
    [],
    `no fields beyond {error, message, status, details, details_total, questions, rows}: ${res.text}`,
  );
  assert.ok(res.body.message.length <= MAX_ERROR_TEXT, `the message is at most ${MAX_ERROR_TEXT} characters`);
  if (res.body.details !== undefined)
    assert.ok(res.body.details.length <= MAX_ERROR_DETAILS, `at most ${MAX_ERROR_DETAILS} details`);
  assert.ok(!/at .+\.js:\d+/.test(res.text), 'no stack trace leaks');
}

/** 400 VALIDATION_ERROR whose details name every path given (and mention every word given). */
export function expectValidation(res: ApiResponse, paths: string[], mentions: string[] = []): void {
  expectError(res, 400, 'VALIDATION_ERROR');
  const details = res.body.details as Array<{ path: string; message: string }>;
  assert.ok(Array.isArray(details) && details.length > 0, `details is a non-empty array: ${res.text}`);
  for (const d of details) {
    assert.equal(typeof d.path, 'string', res.text);
    assert.equal(typeof d.message, 'string', res.text);
  }
  for (const path of paths)
    assert.ok(
      details.some((d) => d.path === path),
      `a detail at ${path}: ${res.text}`,
    );
  for (const word of mentions) {
    assert.ok(
      details.some((d) => `${d.path} ${d.message}`.includes(word)),
      `a detail mentions ${word}: ${res.text}`,
    );
  }
}
