import http from 'node:http';
import https from 'node:https';
import { createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWTPayload } from 'jose';
import { ApiError, badRequest, serviceUnavailable } from '../shared/errors';
import { guardedLookup, RefusedAddress } from '../webhooks/sender';
import { MAX_ID_TOKEN_LENGTH } from './claims';
import { onEmulators } from './platformHttp';

// The id_token's signature and registered claims, checked with jose against
// the platform's JWKS. Each platform's key set is fetched once and kept (jose
// caches it and refetches on an unknown kid, at most every 30 s).

/** Why a token is refused, named in the reply's details so a platform admin can tell which check failed. */
export type TokenRefusal =
  | 'malformed'
  | 'bad_signature'
  | 'wrong_issuer'
  | 'wrong_audience'
  | 'expired'
  | 'issued_in_future'
  | 'lifetime_too_long'
  | 'nonce_mismatch'
  | 'nonce_reused'
  | 'state_mismatch'
  | 'state_expired';

const TOKEN_TEXT: Record<TokenRefusal, string> = {
  malformed: 'The id_token is not a JWT',
  bad_signature: 'The id_token is not signed by a key of the platform’s JWKS',
  wrong_issuer: 'The id_token’s issuer (iss) is not the registered platform',
  wrong_audience: 'The id_token is not addressed to this tool (aud/azp is not the registered client_id)',
  expired: 'The id_token has expired',
  issued_in_future: 'The id_token’s issue time (iat) is in the future; check the platform’s clock',
  lifetime_too_long: 'The id_token lives longer than an hour (exp − iat); the tool takes short-lived launches only',
  nonce_mismatch: 'The id_token’s nonce is not the one this login sent',
  nonce_reused: 'The id_token’s nonce has been used already (a replayed launch)',
  state_mismatch: 'The state does not match a login in progress',
  state_expired: 'The login this launch answers has expired; launch again from the course',
};

export const refusedToken = (reason: TokenRefusal): ApiError =>
  new ApiError(reason === 'malformed' ? 'VALIDATION_ERROR' : 'UNAUTHORIZED', TOKEN_TEXT[reason], [
    { path: reason.startsWith('state') ? 'body.state' : 'body.id_token', message: TOKEN_TEXT[reason], reason },
  ]);

/** The payload, unverified: only to refuse a token that is not even a JWT before any read. */
export function decodeIdToken(idToken: string): JWTPayload {
  if (idToken.length > MAX_ID_TOKEN_LENGTH) throw refusedToken('malformed');
  try {
    return decodeJwt(idToken);
  } catch {
    throw refusedToken('malformed');
  }
}

const KEY_SETS_KEPT = 200;
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySetOf(jwksUrl: string): ReturnType<typeof createRemoteJWKSet> {
  let keySet = keySets.get(jwksUrl);
  if (!keySet) {
    if (keySets.size >= KEY_SETS_KEPT) keySets.delete(keySets.keys().next().value as string);
    const url = new URL(jwksUrl);
    // The address is checked where it is connected to: a name resolving to a private address is never fetched.
    const lookup = guardedLookup(() => ({ allowLoopback: onEmulators() }));
    keySet = createRemoteJWKSet(url, {
      agent: url.protocol === 'https:' ? new https.Agent({ lookup }) : new http.Agent({ lookup }),
      timeoutDuration: 5000,
      cooldownDuration: 30_000,
      cacheMaxAge: 10 * 60_000,
    });
    keySets.set(jwksUrl, keySet);
  }
  return keySet;
}

/** Forgets every cached key set (tests that change a platform's keys). */
export const forgetKeySets = (): void => keySets.clear();

const keySetUnreadable = () =>
  badRequest('The platform’s JWKS (jwks_url) did not answer a JSON Web Key Set; check the registration', [
    { path: 'jwks_url', message: 'Not a JSON Web Key Set', reason: 'jwks_invalid' },
  ]);

/** What jose's failure means for the caller: the token's fault (4xx), or the platform's key set down (503). */
function verdict(err: unknown): ApiError {
  if (err instanceof errors.JWTExpired) return refusedToken('expired');
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'iss') return refusedToken('wrong_issuer');
    if (err.claim === 'aud' || err.claim === 'azp') return refusedToken('wrong_audience');
    if (err.claim === 'exp' || err.claim === 'iat' || err.claim === 'nbf') return refusedToken('expired');
    return refusedToken('malformed');
  }
  if (err instanceof errors.JWKSInvalid) return keySetUnreadable();
  if (err instanceof RefusedAddress)
    return badRequest('The platform’s JWKS (jwks_url) is not on a public address; check the registration', [
      { path: 'jwks_url', message: err.message, reason: 'jwks_invalid' },
    ]);
  if (err instanceof errors.JWKSTimeout)
    return serviceUnavailable('The platform’s JWKS did not answer in time; retry the launch shortly');
  if (
    err instanceof errors.JWSSignatureVerificationFailed ||
    err instanceof errors.JWKSNoMatchingKey ||
    err instanceof errors.JWKSMultipleMatchingKeys ||
    err instanceof errors.JOSEAlgNotAllowed ||
    err instanceof errors.JOSENotSupported ||
    err instanceof errors.JWKInvalid
  )
    return refusedToken('bad_signature');
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) return refusedToken('malformed');
  if (err instanceof errors.JOSEError) {
    if (/parse .*as JSON/i.test(err.message)) return keySetUnreadable();
    // Not 200 from the key set: the platform is down or moving.
    return serviceUnavailable('The platform’s JWKS is unavailable; retry the launch shortly');
  }
  // A refused connection, a reset, a DNS failure.
  return serviceUnavailable('The platform’s JWKS is unreachable; retry the launch shortly');
}

/** The longest an id_token may live, exp − iat (Moodle's live a minute, Canvas's an hour). */
export const MAX_ID_TOKEN_LIFETIME_S = 3600;
/** The clock skew allowed between the platform and the tool. */
const CLOCK_SKEW_S = 60;

/**
 * Pure: why a signed token's times are refused beyond its exp (jose checks that), or null. With the
 * lifetime bounded and exp not passed, iat is never more than an hour and a minute old.
 */
export function issuedAtRefusal(times: { iat?: unknown; exp?: unknown }, nowS: number): TokenRefusal | null {
  const { iat, exp } = times;
  if (typeof iat !== 'number' || typeof exp !== 'number') return 'malformed';
  if (iat > nowS + CLOCK_SKEW_S) return 'issued_in_future';
  if (exp - iat > MAX_ID_TOKEN_LIFETIME_S) return 'lifetime_too_long';
  return null;
}

/**
 * Checks the id_token against the platform: RS256 signature by a key of its JWKS, `iss`, `aud`
 * (and `azp` when `aud` names several), `exp` (a minute of clock skew), `iat` (not in the future, at most
 * an hour before `exp`), and the login's nonce.
 */
export async function verifyIdToken(
  idToken: string,
  platform: { issuer: string; platform_client_id: string; jwks_url: string },
  expectedNonce: string,
): Promise<JWTPayload> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keySetOf(platform.jwks_url), {
      issuer: platform.issuer,
      audience: platform.platform_client_id,
      algorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'ES256'],
      clockTolerance: CLOCK_SKEW_S,
      requiredClaims: ['exp', 'iat'],
    }));
  } catch (err) {
    throw verdict(err);
  }
  const timeRefusal = issuedAtRefusal(payload, Math.floor(Date.now() / 1000));
  if (timeRefusal) throw refusedToken(timeRefusal);
  const aud = payload.aud;
  if (Array.isArray(aud) && aud.length > 1 && payload.azp !== platform.platform_client_id)
    throw refusedToken('wrong_audience');
  if (payload.azp !== undefined && payload.azp !== platform.platform_client_id) throw refusedToken('wrong_audience');
  if (payload.nonce !== expectedNonce) throw refusedToken('nonce_mismatch');
  return payload;
}
