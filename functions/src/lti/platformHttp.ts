import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';
import { guardedLookup, RefusedAddress } from '../webhooks/sender';

// No Firebase: the tool's own requests to an LTI platform
// (its key set, its token endpoint, line items, memberships). Each is bounded in time and in
// the bytes read, follows no redirect, and goes only to an https URL on a
// public address, except loopback on the emulators (the tests' platform).

/** How long one request to a platform may take, reading its answer included. */
export const PLATFORM_TIMEOUT_MS = 15_000;
/** The most of an answer read (a token, a score's reply); a memberships page asks for more. */
export const PLATFORM_MAX_BYTES = 64 * 1024;

export interface PlatformReply {
  status: number;
  headers: Headers;
  body: string;
  ms: number;
}
export interface PlatformFailure {
  status: null;
  /** Why there was no answer: the address refused, no whole answer in time, an answer past maxBytes, the network. */
  failure: 'refused' | 'timeout' | 'too_large' | 'network';
  error: string;
  ms: number;
}

/** On the emulators (the Firestore emulator in use): loopback platforms are allowed, as the tests' own. */
export const onEmulators = (): boolean =>
  Boolean(process.env.FIRESTORE_EMULATOR_HOST) || process.env.FUNCTIONS_EMULATOR === 'true';

/**
 * Why the tool will not call this URL, or null: not a URL, not https, or an address that is not
 * public. A host name is not resolved here: platforms are named by their registration and launches
 * it signed, and never get to choose an address per request beyond that.
 */
export function platformUrlProblem(url: string, loopbackAllowed = onEmulators()): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a URL';
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const literal = ipaddr.isValid(host) ? ipaddr.process(host) : null;
  const loopback = host === 'localhost' || literal?.range() === 'loopback';
  if (loopback && loopbackAllowed)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? null : 'not http(s)';
  if (parsed.protocol !== 'https:') return 'not https';
  if (loopback || (literal && literal.range() !== 'unicast')) return 'not a public address';
  return null;
}

/**
 * One request to a platform: its answer (any status), or why there was none. Never throws. The
 * address is checked where it is connected to (the webhooks' guarded lookup): a name that resolves
 * to a private address, even one that changed since it was checked, is never called.
 */
export function platformRequest(
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  opts: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<PlatformReply | PlatformFailure> {
  const started = Date.now();
  const ms = () => Date.now() - started;
  const problem = platformUrlProblem(url);
  if (problem)
    return Promise.resolve({ status: null, failure: 'refused', error: `Refused to call ${url}: ${problem}`, ms: ms() });
  const timeoutMs = opts.timeoutMs ?? PLATFORM_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? PLATFORM_MAX_BYTES;
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: PlatformReply | PlatformFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const request = client.request(
      target,
      {
        method: init.method,
        agent: false,
        lookup: guardedLookup(() => ({ allowLoopback: onEmulators() })),
        headers: {
          ...init.headers,
          ...(init.body !== undefined ? { 'content-length': Buffer.byteLength(init.body) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes)
            return finish({
              status: null,
              failure: 'too_large',
              error: `The answer passed ${maxBytes} bytes`,
              ms: ms(),
            });
          chunks.push(chunk);
        });
        response.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers))
            for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
          finish({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8'), ms: ms() });
        });
        response.on('error', (err) =>
          finish({ status: null, failure: 'network', error: `Could not reach the platform: ${err.message}`, ms: ms() }),
        );
      },
    );
    const timer = setTimeout(
      () => finish({ status: null, failure: 'timeout', error: `No answer within ${timeoutMs / 1000} s`, ms: ms() }),
      timeoutMs,
    );
    request.on('error', (err) =>
      finish({
        status: null,
        failure: err instanceof RefusedAddress ? 'refused' : 'network',
        error:
          err instanceof RefusedAddress
            ? `Refused to call ${url}: ${err.message}`
            : `Could not reach the platform: ${(err as { code?: string }).code ?? err.message}`,
        ms: ms(),
      }),
    );
    request.end(init.body);
  });
}

/** A short excerpt of a platform's answer for a delivery's last_error (never the whole of it). */
export const excerpt = (text: string, max = 200): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};
