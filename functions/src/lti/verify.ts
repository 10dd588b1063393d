import { decodeJwt, errors, jwtVerify, type JWTPayload } from 'jose';
import { ApiError } from '../shared';
import { MAX_ID_TOKEN_LENGTH } from './claims';
import { platformKeys } from './keySets';

// The id_token's signature and registered claims, checked with jose against
// the platform's JWKS (keySets.ts: read bounded, kept, read again for an unknown kid).

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
  | 'state_expired'
  | 'cookie_missing'
  | 'cookie_mismatch';

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
  cookie_missing:
    'This browser did not send back the cookie its login set (it blocks this site’s cookies, or the activity opened inside the course’s page): open the activity in a new window, or allow cookies for this site, and launch again',
  cookie_mismatch:
    'This launch was started in another browser than the one it came back to; launch again from the course in this browser',
};

const refusalPath = (reason: TokenRefusal): string =>
  reason.startsWith('state') ? 'body.state' : reason.startsWith('cookie') ? 'cookie.__session' : 'body.id_token';

export const refusedToken = (reason: TokenRefusal): ApiError =>
  new ApiError(reason === 'malformed' ? 'VALIDATION_ERROR' : 'UNAUTHORIZED', TOKEN_TEXT[reason], [
    { path: refusalPath(reason), message: TOKEN_TEXT[reason], reason },
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

/** What a failure means for the caller: the token's fault (4xx), or the key set's (keySets.ts: 400 or 503). */
function verdict(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof errors.JWTExpired) return refusedToken('expired');
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'iss') return refusedToken('wrong_issuer');
    if (err.claim === 'aud' || err.claim === 'azp') return refusedToken('wrong_audience');
    if (err.claim === 'exp' || err.claim === 'iat' || err.claim === 'nbf') return refusedToken('expired');
    return refusedToken('malformed');
  }
  if (
    err instanceof errors.JWSSignatureVerificationFailed ||
    err instanceof errors.JWKSNoMatchingKey ||
    err instanceof errors.JWKSMultipleMatchingKeys ||
    err instanceof errors.JOSEAlgNotAllowed ||
    err instanceof errors.JOSENotSupported ||
    err instanceof errors.JWKInvalid
  )
    return refusedToken('bad_signature');
  // Anything else jose refuses is a token it cannot read.
  if (err instanceof errors.JOSEError) return refusedToken('malformed');
  throw err;
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
    ({ payload } = await jwtVerify(idToken, platformKeys(platform.jwks_url), {
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
