import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { addressAllowed } from '../webhooks/addressGuard';

// Pure (no Firebase): the tool's own requests to an LTI platform's services
// (its token endpoint, line items, memberships). Each is bounded in time and in
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

/** The first address a host name resolves to that may not be called, or null (an address literal was checked already). */
async function privateAddressOf(hostname: string): Promise<string | null> {
  if (ipaddr.isValid(hostname.replace(/^\[|\]$/g, ''))) return null;
  const found = await lookup(hostname, { all: true }).catch(() => []);
  const policy = { allowLoopback: onEmulators() };
  return found.find((a) => !addressAllowed(a.address, policy))?.address ?? null;
}

/** Reads at most `maxBytes` of the body; more is an error (the rest is never read). */
async function boundedText(res: Response, maxBytes: number): Promise<string | null> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** One request to a platform: its answer (any status), or why there was none. Never throws. */
export async function platformRequest(
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  opts: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<PlatformReply | PlatformFailure> {
  const started = Date.now();
  const ms = () => Date.now() - started;
  const problem = platformUrlProblem(url);
  if (problem) return { status: null, error: `Refused to call ${url}: ${problem}`, ms: ms() };
  // A name is resolved first: one that reaches a private address is not called (a platform's claims name these URLs).
  const refused = await privateAddressOf(new URL(url).hostname);
  if (refused) return { status: null, error: `Refused to call ${url}: resolves to ${refused}, not public`, ms: ms() };
  const timeoutMs = opts.timeoutMs ?? PLATFORM_TIMEOUT_MS;
  try {
    const res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    const body = await boundedText(res, opts.maxBytes ?? PLATFORM_MAX_BYTES);
    if (body === null)
      return { status: null, error: `The answer passed ${opts.maxBytes ?? PLATFORM_MAX_BYTES} bytes`, ms: ms() };
    return { status: res.status, headers: res.headers, body, ms: ms() };
  } catch (err) {
    const name = (err as { name?: string }).name;
    const error =
      name === 'TimeoutError' || name === 'AbortError'
        ? `No answer within ${timeoutMs / 1000} s`
        : `Could not reach the platform: ${describeNetworkError(err)}`;
    return { status: null, error, ms: ms() };
  }
}

function describeNetworkError(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}

/** A short excerpt of a platform's answer for a delivery's last_error (never the whole of it). */
export const excerpt = (text: string, max = 200): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};
