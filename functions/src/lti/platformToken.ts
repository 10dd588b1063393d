import { LRUCache } from 'lru-cache';
import type { StoredLtiPlatform } from './documents';
import { excerpt, platformRequest } from './platformHttp';
import { signAsTool } from './toolKeys';

// The tool's access tokens for a platform's services (scores, rosters): the
// OAuth 2 client-credentials grant, the tool authenticating with a JWT it signs
// (RFC 7523, as LTI Advantage requires), kept per instance for each platform and
// set of scopes until shortly before it expires.

/** The client assertion lives this long: it is used at once, once. */
const ASSERTION_SECONDS = 300;
/** A token is given up this long before its own expiry (never used in its last minute), at most half its life. */
const EXPIRY_MARGIN_MS = 60_000;
/** Lifetime assumed when the platform does not say (RFC 6749 leaves expires_in optional). */
const DEFAULT_LIFETIME_SECONDS = 3600;
/** Platforms × scope sets one instance keeps tokens for. */
const CACHED_TOKENS = 1000;

export type TokenResult = { token: string } | { failure: string };

interface CachedToken {
  token: string;
  /** ms since epoch after which it is not used. */
  useUntilMs: number;
}

const tokens = new LRUCache<string, CachedToken>({ max: CACHED_TOKENS });
/** Requests under way, so a burst of deliveries to one platform buys one token. */
const inFlight = new Map<string, Promise<TokenResult>>();

/** One key per registration as it stands: a changed token URL or client id buys a new token. */
const cacheKey = (platform: StoredLtiPlatform, scopes: readonly string[]) =>
  JSON.stringify([
    platform.client_id,
    platform.id,
    platform.platform_client_id,
    platform.auth_token_url,
    [...scopes].sort(),
  ]);

/** When a token obtained at `nowMs`, living `expiresInSeconds`, stops being used. */
export function useUntil(nowMs: number, expiresInSeconds: number): number {
  const lifeMs = expiresInSeconds * 1000;
  return nowMs + lifeMs - Math.min(EXPIRY_MARGIN_MS, lifeMs / 2);
}

/** The token in a token endpoint's 2xx answer, or why it is not one. */
export function readTokenAnswer(body: string): { token: string; expiresIn: number } | { failure: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { failure: `The token endpoint answered something that is not JSON: ${excerpt(body, 100)}` };
  }
  const answer = (json ?? {}) as { access_token?: unknown; token_type?: unknown; expires_in?: unknown };
  if (typeof answer.access_token !== 'string' || answer.access_token === '')
    return { failure: 'The token endpoint answered without an access_token' };
  if (typeof answer.token_type === 'string' && answer.token_type.toLowerCase() !== 'bearer')
    return { failure: `The token endpoint answered a ${excerpt(answer.token_type, 40)} token, not a bearer token` };
  const expiresIn =
    typeof answer.expires_in === 'number' && Number.isFinite(answer.expires_in) && answer.expires_in > 0
      ? answer.expires_in
      : DEFAULT_LIFETIME_SECONDS;
  return { token: answer.access_token, expiresIn };
}

/** Why a token endpoint refused, from its OAuth error answer (RFC 6749 §5.2) if it sent one. */
function refusal(status: number, body: string): string {
  try {
    const { error, error_description } = JSON.parse(body) as { error?: unknown; error_description?: unknown };
    if (typeof error === 'string')
      return `The token endpoint refused (${status} ${excerpt(error, 60)}${
        typeof error_description === 'string' ? `: ${excerpt(error_description, 140)}` : ''
      })`;
  } catch {
    // not JSON: the status and the start of the body say enough
  }
  return `The token endpoint answered ${status}${body ? `: ${excerpt(body, 140)}` : ''}`;
}

async function requestToken(
  platform: StoredLtiPlatform,
  scopes: readonly string[],
): Promise<TokenResult & { expiresIn?: number }> {
  // A Firestore failure reading the tool's key throws from here: the backend's, not the platform's.
  const assertion = await signAsTool(
    { iss: platform.platform_client_id, sub: platform.platform_client_id, aud: platform.auth_token_url },
    ASSERTION_SECONDS,
  );
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    client_assertion: assertion,
    scope: scopes.join(' '),
  });
  const reply = await platformRequest(platform.auth_token_url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: form.toString(),
  });
  if (reply.status === null) return { failure: `Access token: ${reply.error}` };
  if (reply.status < 200 || reply.status > 299) return { failure: refusal(reply.status, reply.body) };
  const answer = readTokenAnswer(reply.body);
  return 'failure' in answer ? answer : { token: answer.token, expiresIn: answer.expiresIn };
}

/**
 * An access token for `scopes` at this platform: the cached one while it is good, else a new one.
 * A platform that refuses or fails answers `{ failure }` (the caller's try fails and is retried);
 * only our own backend failing (the tool's key unreadable) throws.
 */
export async function platformAccessToken(
  platform: StoredLtiPlatform,
  scopes: readonly string[],
  nowMs = Date.now(),
): Promise<TokenResult> {
  const key = cacheKey(platform, scopes);
  const cached = tokens.get(key);
  if (cached && cached.useUntilMs > nowMs) return { token: cached.token };
  const pending = inFlight.get(key);
  if (pending) return pending;
  const request = requestToken(platform, scopes)
    .then((result): TokenResult => {
      if ('token' in result) tokens.set(key, { token: result.token, useUntilMs: useUntil(nowMs, result.expiresIn!) });
      return 'token' in result ? { token: result.token } : { failure: result.failure };
    })
    .finally(() => inFlight.delete(key));
  inFlight.set(key, request);
  return request;
}

/** Forgets the token (the platform refused it: revoked, or its keys changed), so the next try buys a new one. */
export function forgetAccessToken(platform: StoredLtiPlatform, scopes: readonly string[]): void {
  tokens.delete(cacheKey(platform, scopes));
}

/** Test hook: forgets every token, as a fresh instance would. */
export function forgetAllAccessTokens(): void {
  tokens.clear();
}
