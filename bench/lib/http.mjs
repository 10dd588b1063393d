// @ts-check
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { BASE_URL } from './env.mjs';

const COST_KEYS = new Set(['reads', 'writes', 'round_trips', 'sequential_round_trips', 'auth_calls']);

/** `reads=1; writes=0; round_trips=2; sequential_round_trips=1; auth_calls=0` → an object of those, or null. */
export function parseCost(header) {
  if (!header) return null;
  const cost = {};
  for (const part of header.split(';')) {
    const [key, value] = part.trim().split('=');
    if (COST_KEYS.has(key) && /^\d+$/.test(value ?? '')) cost[key] = Number(value);
  }
  return Object.keys(cost).length === COST_KEYS.size ? cost : null;
}

/**
 * One request through the Hosting emulator, timed from send to the last byte of
 * the body. `ip` is the virtual client's address, as the trusted front end
 * would append it to X-Forwarded-For. Never throws: a network error or timeout
 * comes back as status 0 with `error`. `rawBody` with `contentType` is sent as it is;
 * `baseUrl` sends it elsewhere than the Hosting emulator; `headers` are added as they are.
 * The answer carries `rateLimit` (X-RateLimit-Limit) and `retryAfter` (Retry-After, s) when sent.
 * @param {{ method?: string, path: string, token?: string, body?: unknown, rawBody?: any, contentType?: string,
 *   ip?: string, timeoutMs?: number, baseUrl?: string, headers?: Record<string, string> }} request
 */
export async function call({
  method = 'GET',
  path,
  token,
  body,
  rawBody,
  contentType,
  ip,
  timeoutMs = 30_000,
  baseUrl = BASE_URL,
  headers: extraHeaders = {},
}) {
  const headers = { ...extraHeaders };
  if (ip) headers['X-Forwarded-For'] = ip;
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload;
  if (rawBody !== undefined) {
    // Sent as it is (a multipart upload, say).
    payload = rawBody;
    headers['Content-Type'] = contentType;
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }
  const started = performance.now();
  try {
    const res = await fetch(baseUrl + path, {
      method,
      headers,
      body: payload,
      redirect: 'manual', // never follow anything off loopback
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    const ms = performance.now() - started;
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const rateLimit = res.headers.get('x-ratelimit-limit');
    const retryAfter = res.headers.get('retry-after');
    return {
      status: res.status,
      ms,
      cost: parseCost(res.headers.get('x-debug-cost')),
      json,
      text,
      rateLimit: rateLimit === null ? null : Number(rateLimit),
      retryAfter: retryAfter === null ? null : Number(retryAfter),
    };
  } catch (err) {
    return {
      status: 0,
      ms: performance.now() - started,
      cost: null,
      json: undefined,
      text: '',
      error: err.message ?? String(err),
    };
  }
}

/** A multipart/form-data body with one file part named "file". */
export function multipart(filename, content) {
  const boundary = `----bench-${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
