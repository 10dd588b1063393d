import assert from 'node:assert/strict';
import type { ApiResponse } from './http';

// Bodies no parser can read, each with the one answer it gets (test/http/bodyParsers, test/fuzz).

export interface BodyCase {
  title: string;
  headers: Record<string, string>;
  body: string;
  status: 400 | 413;
  code: 'VALIDATION_ERROR' | 'PAYLOAD_TOO_LARGE';
  /** Whether the app's own express.json sees it too (application/json), not only the platform's parsers. */
  json: boolean;
}

const JSON_TYPE = { 'Content-Type': 'application/json' };
const FORM_TYPE = { 'Content-Type': 'application/x-www-form-urlencoded' };

export const UNREADABLE_BODIES: BodyCase[] = [
  {
    title: 'Content-Encoding: gzip on a body that is not gzip',
    headers: { ...JSON_TYPE, 'Content-Encoding': 'gzip' },
    body: '{"test_id":"x"}',
    status: 400,
    code: 'VALIDATION_ERROR',
    json: true,
  },
  {
    title: 'Content-Encoding: br on a body that is not brotli',
    headers: { ...JSON_TYPE, 'Content-Encoding': 'br' },
    body: '{"test_id":"x"}',
    status: 400,
    code: 'VALIDATION_ERROR',
    json: true,
  },
  {
    title: 'Content-Encoding: deflate on a body that is not deflate',
    headers: { ...JSON_TYPE, 'Content-Encoding': 'deflate' },
    body: '{"test_id":"x"}',
    status: 400,
    code: 'VALIDATION_ERROR',
    json: true,
  },
  {
    title: 'an unknown Content-Encoding',
    headers: { ...JSON_TYPE, 'Content-Encoding': 'x-unknown' },
    body: '{"test_id":"x"}',
    status: 400,
    code: 'VALIDATION_ERROR',
    json: true,
  },
  {
    title: 'an unknown JSON charset',
    headers: { 'Content-Type': 'application/json; charset=x-klingon' },
    body: '{"test_id":"x"}',
    status: 400,
    code: 'VALIDATION_ERROR',
    json: true,
  },
  {
    title: 'a text body with an unknown charset',
    headers: { 'Content-Type': 'text/plain; charset=x-klingon' },
    body: 'x',
    status: 400,
    code: 'VALIDATION_ERROR',
    json: false,
  },
  {
    title: 'a gzip text body that is not gzip',
    headers: { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' },
    body: 'x',
    status: 400,
    code: 'VALIDATION_ERROR',
    json: false,
  },
  {
    title: 'an octet-stream body marked gzip that is not gzip',
    headers: { 'Content-Type': 'application/octet-stream', 'Content-Encoding': 'gzip' },
    body: 'x',
    status: 400,
    code: 'VALIDATION_ERROR',
    json: false,
  },
  {
    title: 'a urlencoded body marked gzip that is not gzip',
    headers: { ...FORM_TYPE, 'Content-Encoding': 'gzip' },
    body: 'a=1',
    status: 400,
    code: 'VALIDATION_ERROR',
    json: false,
  },
  {
    title: 'a urlencoded body nested 40 deep',
    headers: FORM_TYPE,
    body: `a${'[a]'.repeat(40)}=1`,
    status: 400,
    code: 'VALIDATION_ERROR',
    json: false,
  },
  {
    title: 'a urlencoded body of 2,000 fields',
    headers: FORM_TYPE,
    body: Array.from({ length: 2000 }, (_, i) => `f${i}=1`).join('&'),
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    json: false,
  },
];

/** The documented body, and nothing of the server's insides: no stack frame, no file path. */
export function expectNoInternals(res: Pick<ApiResponse, 'text'>): void {
  assert.ok(
    !/\bat .+[:(]\d+|node_modules|\/work\/|\/workspace\/|\.[jt]s\b|<html|<pre>/i.test(res.text),
    `no stack, path or HTML: ${res.text.slice(0, 300)}`,
  );
}
