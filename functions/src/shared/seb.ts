import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError, badRequest, forbidden } from './errors';

// Pure: Safe Exam Browser's request check, as Moodle makes it. SEB sends, with
// each request, SHA-256 hex of the request's full URL (fragment removed)
// followed by a key: the Config Key (X-SafeExamBrowser-ConfigKeyHash) or the
// Browser Exam Key (X-SafeExamBrowser-RequestHash). The service knows the keys
// (write-only delivery settings of the test) and the URL, and recomputes it.

export const SEB_CONFIG_KEY_HEADER = 'x-safeexambrowser-configkeyhash';
export const SEB_REQUEST_HASH_HEADER = 'x-safeexambrowser-requesthash';
export const MAX_SEB_KEYS = 10;
/** A key as SEB shows it: SHA-256, lowercase hex. */
export const SEB_KEY_PATTERN = /^[0-9a-f]{64}$/;
const HASH_PATTERN = /^[0-9a-fA-F]{64}$/;

export const SEB_REFUSAL = 'This test must be taken in Safe Exam Browser';

/** The keys a test (or an attempt, as it started) requires; none: SEB is not required. */
export interface SebKeys {
  config_keys: string[];
  browser_exam_keys: string[];
}

/** A test's keys as an attempt keeps them. */
export const sebKeysOf = (test: { seb_config_keys?: string[]; seb_browser_exam_keys?: string[] }): SebKeys => ({
  config_keys: test.seb_config_keys ?? [],
  browser_exam_keys: test.seb_browser_exam_keys ?? [],
});

export const sebRequired = (keys: Partial<SebKeys> | null | undefined): boolean =>
  (keys?.config_keys?.length ?? 0) + (keys?.browser_exam_keys?.length ?? 0) > 0;

/** What a request brings to the check: its public URL and SEB's headers (as sent, unchecked). */
export interface SebRequest {
  url: string;
  /**
   * The page the request was sent from (its Referer, on the same public origin), when there is one: SEB's
   * JavaScript API gives a page the hashes of its own URL, which a page that cannot have SEB add headers to
   * its fetches sends instead (docs/security.md#safe-exam-browser).
   */
  pageUrl?: string;
  configKeyHash: string | undefined;
  requestHash: string | undefined;
}

/** A header that is not 64 hex digits, named for a 400 (only headers that were sent). */
export function malformedSebHeaders(request: Pick<SebRequest, 'configKeyHash' | 'requestHash'>): string[] {
  const bad: string[] = [];
  if (request.configKeyHash !== undefined && !HASH_PATTERN.test(request.configKeyHash)) bad.push(SEB_CONFIG_KEY_HEADER);
  if (request.requestHash !== undefined && !HASH_PATTERN.test(request.requestHash)) bad.push(SEB_REQUEST_HASH_HEADER);
  return bad;
}

/** The URL SEB hashes: the fragment removed. */
export const withoutFragment = (url: string): string => {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
};

/** SHA-256 hex of the URL followed by the key. */
export const sebHash = (url: string, key: string): string =>
  createHash('sha256')
    .update(withoutFragment(url) + key, 'utf8')
    .digest('hex');

const sameHex = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a.toLowerCase()), Buffer.from(b.toLowerCase()));

/**
 * Whether the request passes: either header equal to the hash of the URL with one of its keys (the
 * Config Key hash against the config keys, the request hash against the Browser Exam Keys). With no keys
 * nothing is asked. Headers are assumed well-formed (malformedSebHeaders first).
 */
export function sebAllows(keys: Partial<SebKeys> | null | undefined, request: SebRequest): boolean {
  if (!sebRequired(keys)) return true;
  const urls = request.pageUrl === undefined ? [request.url] : [request.url, request.pageUrl];
  const matches = (header: string | undefined, list: string[] | undefined) =>
    header !== undefined && (list ?? []).some((key) => urls.some((url) => sameHex(sebHash(url, key), header)));
  return matches(request.configKeyHash, keys?.config_keys) || matches(request.requestHash, keys?.browser_exam_keys);
}

/**
 * The public URL of a request from its parts: `base` (PUBLIC_BASE_URL when set, else the scheme and host
 * Hosting forwarded) and the path with its query as the function received it.
 */
export const publicUrl = (base: string, pathAndQuery: string): string => `${base.replace(/\/+$/, '')}${pathAndQuery}`;

/**
 * Why a request is refused for SEB (null: it passes): nothing is asked without keys; a header sent that is
 * not 64 hex digits → 400 naming it; no header, or none matching the URL with a key → 403.
 */
export function sebRefusal(
  keys: Partial<SebKeys> | null | undefined,
  request: SebRequest | undefined,
): ApiError | null {
  if (!sebRequired(keys)) return null;
  if (!request) return forbidden(SEB_REFUSAL);
  const malformed = malformedSebHeaders(request);
  if (malformed.length > 0)
    return badRequest(
      'A Safe Exam Browser header must be 64 hexadecimal digits (a SHA-256 hash)',
      malformed.map((name) => ({ path: `header.${name}`, message: 'Must be 64 hexadecimal digits' })),
    );
  return sebAllows(keys, request) ? null : forbidden(SEB_REFUSAL);
}
