import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressAllowed, checkReceiverUrl, type ReachPolicy } from './addressGuard';

// One POST to a receiver, as the contract bounds it: the address it connects to
// checked at connect time (a name that resolves to a private address, even one
// that changed since registration, is refused before a byte is sent), 15 s for
// the whole exchange, no redirect followed, at most 64 KB of the answer read.

export const SEND_TIMEOUT_MS = 15_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface PostResult {
  /** The receiver's status, null when there was none. */
  code: number | null;
  error: string | null;
  ms: number;
}

export class RefusedAddress extends Error {}

/** dns.lookup, with every address it finds checked: any refused one refuses the name. */
export function guardedLookup(policy: ReachPolicy | (() => ReachPolicy)): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, found) => {
      if (err) return callback(err, '', 4);
      const addresses = found as LookupAddress[];
      const now = typeof policy === 'function' ? policy() : policy;
      const refused = addresses.find((a) => !addressAllowed(a.address, now));
      if (refused || addresses.length === 0)
        return callback(
          new RefusedAddress(`${hostname} resolves to ${refused?.address ?? 'nothing'}, not a public address`),
          '',
          4,
        );
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export function postOnce(
  urlText: string,
  headers: Record<string, string>,
  body: string,
  policy: ReachPolicy,
  limits: { timeoutMs?: number; maxResponseBytes?: number } = {},
): Promise<PostResult> {
  const started = Date.now();
  const timeoutMs = limits.timeoutMs ?? SEND_TIMEOUT_MS;
  const maxBytes = limits.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const done = (code: number | null, error: string | null): PostResult => ({ code, error, ms: Date.now() - started });
  // The URL was checked when registered; checked again, as the policy may differ here (an address literal is never looked up).
  const verdict = checkReceiverUrl(urlText, policy);
  if (!verdict.ok) return Promise.resolve(done(null, `Refused: ${verdict.message}`));
  const url = verdict.url;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        agent: false,
        lookup: guardedLookup(policy),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'exam-webhooks/1',
        },
      },
      (response) => {
        const code = response.statusCode ?? null;
        let read = 0;
        const settle = () =>
          finish(
            done(
              code,
              code !== null && code >= 300 && code < 400
                ? `Redirect to ${String(response.headers.location ?? '(none)').slice(0, 200)} not followed`
                : code !== null && (code < 200 || code >= 300)
                  ? `HTTP ${code}`
                  : null,
            ),
          );
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // Enough read: the status is what counts, a huge answer is not our problem.
          if (read >= maxBytes) settle();
        });
        response.on('end', settle);
        response.on('error', settle);
      },
    );
    const timer = setTimeout(() => finish(done(null, `No answer within ${timeoutMs / 1000} s`)), timeoutMs);
    request.on('error', (err) =>
      finish(
        done(
          null,
          err instanceof RefusedAddress ? `Refused: ${err.message}` : `Connection failed: ${err.message}`.slice(0, 300),
        ),
      ),
    );
    request.end(body);
  });
}
