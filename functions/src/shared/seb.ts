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
   * The page the request says it was sent from (its Referer, as sent), when there is one: SEB's JavaScript
   * API gives a page the hashes of its own URL, which a page that cannot have SEB add headers to its fetches
   * sends instead (docs/security.md#safe-exam-browser). Counted only when sebPageFits.
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

/** What a request bound to SEB does: start (or resume) an attempt, or act on the attempt `attemptId`. */
export type SebAction = { start: true } | { attemptId: string };

/** The web app's pages a start is made from: the student's home (both start forms) and an LMS launch's landing. */
const START_PAGES: readonly string[] = ['/', '/lti'];
/** The web app's page of one attempt: `/attempts/{id}`, the id in one path segment. */
const ATTEMPT_PAGE = /^\/attempts\/([^/]+)$/;

const decodedSegment = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
};

/**
 * Whether `pageUrl` is a page whose hashes count for `action`: on the request's own origin, and the page
 * SEB's JavaScript API hashed for it in the web app — a start page for a start, the attempt's own page for
 * anything done to that attempt (any query; `..` resolved and an encoded slash kept, as a browser does).
 * So a hash seen on one page never opens another attempt, nor answers from the page every student shares.
 */
export function sebPageFits(action: SebAction, requestUrl: string, pageUrl: string): boolean {
  if (!URL.canParse(pageUrl) || !URL.canParse(requestUrl)) return false;
  const page = new URL(pageUrl);
  if (page.origin !== new URL(requestUrl).origin) return false;
  if ('start' in action) return START_PAGES.includes(page.pathname);
  const segment = ATTEMPT_PAGE.exec(page.pathname)?.[1];
  return segment !== undefined && decodedSegment(segment) === action.attemptId;
}

/**
 * Whether the request passes: either header equal to the hash of the URL with one of its keys (the
 * Config Key hash against the config keys, the request hash against the Browser Exam Keys), or of the page
 * it came from when that page fits `action`. With no keys nothing is asked. Headers are assumed
 * well-formed (malformedSebHeaders first).
 */
export function sebAllows(keys: Partial<SebKeys> | null | undefined, request: SebRequest, action: SebAction): boolean {
  if (!sebRequired(keys)) return true;
  const page = request.pageUrl;
  const urls =
    page !== undefined && sebPageFits(action, request.url, page)
      ? [request.url, withoutFragment(new URL(page).href)]
      : [request.url];
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
 * not 64 hex digits → 400 naming it; no header, or none matching the URL (or a page fitting `action`) with a
 * key → 403.
 */
export function sebRefusal(
  keys: Partial<SebKeys> | null | undefined,
  request: SebRequest | undefined,
  action: SebAction,
): ApiError | null {
  if (!sebRequired(keys)) return null;
  if (!request) return forbidden(SEB_REFUSAL);
  const malformed = malformedSebHeaders(request);
  if (malformed.length > 0)
    return badRequest(
      'A Safe Exam Browser header must be 64 hexadecimal digits (a SHA-256 hash)',
      malformed.map((name) => ({ path: `header.${name}`, message: 'Must be 64 hexadecimal digits' })),
    );
  return sebAllows(keys, request, action) ? null : forbidden(SEB_REFUSAL);
}
