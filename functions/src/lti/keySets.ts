import { createLocalJWKSet, errors, type JWTVerifyGetKey } from 'jose';
import { badRequest, serviceUnavailable } from '../shared';
import { MAX_RESPONSE_BYTES } from '../outbound';
import { platformRequest } from './platformHttp';

// The platforms' key sets (JWKS), read through the one bounded outbound reader (platformHttp.ts:
// 64 KB, 5 s for the whole answer, no redirect, public addresses only) and kept per instance, as
// jose's remote sets did: for 10 minutes, and read again when a token names an unknown kid, at
// most once per 30 s, so made-up kids cannot make the tool hammer a platform.

/** How long a key set is used before it is read again. */
const MAX_AGE_MS = 10 * 60_000;
/** The least time between two reads for an unknown kid. */
const COOLDOWN_MS = 30_000;
/** How long a key set's answer may take, its last byte included. */
const JWKS_TIMEOUT_MS = 5000;
const KEY_SETS_KEPT = 200;

interface Held {
  keys: JWTVerifyGetKey;
  fetchedAtMs: number;
  /** When a token's unknown kid last made it read again. */
  kidReadAtMs: number | null;
}

/** Pure: use the key set held, or read it (again) first. */
export function keySetMove(
  held: { fetchedAtMs: number; kidReadAtMs: number | null } | undefined,
  nowMs: number,
  unknownKid: boolean,
): 'use' | 'read' {
  if (!held || nowMs - held.fetchedAtMs >= MAX_AGE_MS) return 'read';
  if (!unknownKid) return 'use';
  return held.kidReadAtMs === null || nowMs - held.kidReadAtMs >= COOLDOWN_MS ? 'read' : 'use';
}

const held = new Map<string, Held>();
const reading = new Map<string, Promise<Held>>();

/** Forgets every key set held (tests that change a platform's keys). */
export const forgetKeySets = (): void => held.clear();

const keySetInvalid = (message: string) =>
  badRequest(`${message}; check the registration`, [{ path: 'jwks_url', message, reason: 'jwks_invalid' }]);

/** One read of the key set: its keys, or the ApiError that says why not (the platform's fault: 4xx; down: 503). */
async function readKeySet(jwksUrl: string): Promise<JWTVerifyGetKey> {
  const reply = await platformRequest(
    jwksUrl,
    { method: 'GET', headers: { accept: 'application/jwk-set+json, application/json' } },
    { timeoutMs: JWKS_TIMEOUT_MS, maxBytes: MAX_RESPONSE_BYTES },
  );
  if (reply.status === null) {
    if (reply.failure === 'refused')
      throw keySetInvalid(`The platform’s JWKS (jwks_url) is not on a public https address (${reply.error})`);
    if (reply.failure === 'too_large')
      throw badRequest(
        `The platform’s JWKS (jwks_url) is larger than ${MAX_RESPONSE_BYTES / 1024} KB, the most the tool reads; check the registration`,
        [{ path: 'jwks_url', message: reply.error, reason: 'jwks_too_large' }],
      );
    if (reply.failure === 'timeout')
      throw serviceUnavailable(
        `The platform’s JWKS did not answer within ${JWKS_TIMEOUT_MS / 1000} s; retry the launch shortly`,
      );
    throw serviceUnavailable('The platform’s JWKS is unreachable; retry the launch shortly');
  }
  // Not 200: the platform is down or moving.
  if (reply.status !== 200) throw serviceUnavailable('The platform’s JWKS is unavailable; retry the launch shortly');
  try {
    return createLocalJWKSet(JSON.parse(reply.body));
  } catch {
    throw keySetInvalid('The platform’s JWKS (jwks_url) did not answer a JSON Web Key Set');
  }
}

/** Reads the key set, one read in flight per URL (launches at once share it), and holds it. */
function read(jwksUrl: string, kidReadAtMs: number | null): Promise<Held> {
  let pending = reading.get(jwksUrl);
  if (!pending) {
    pending = readKeySet(jwksUrl)
      .then((keys) => {
        const fresh: Held = { keys, fetchedAtMs: Date.now(), kidReadAtMs };
        if (!held.has(jwksUrl) && held.size >= KEY_SETS_KEPT) held.delete(held.keys().next().value as string);
        held.set(jwksUrl, fresh);
        return fresh;
      })
      .finally(() => reading.delete(jwksUrl));
    reading.set(jwksUrl, pending);
  }
  return pending;
}

/** The key a token's header names, from the platform's key set: held, read, or read again for an unknown kid. */
export function platformKeys(jwksUrl: string): JWTVerifyGetKey {
  return async (header, token) => {
    const now = Date.now();
    let current = held.get(jwksUrl);
    if (!current || keySetMove(current, now, false) === 'read')
      current = await read(jwksUrl, current?.kidReadAtMs ?? null);
    try {
      return await current.keys(header, token);
    } catch (err) {
      if (!(err instanceof errors.JWKSNoMatchingKey) || keySetMove(current, Date.now(), true) !== 'read') throw err;
      const again = await read(jwksUrl, Date.now());
      return again.keys(header, token);
    }
  };
}
