import type { Request } from 'express';
import { params } from '../config';
import { publicUrl, SEB_CONFIG_KEY_HEADER, SEB_REQUEST_HASH_HEADER, type SebRequest } from '../shared';

// The URL a Safe Exam Browser request was made to, as the browser saw it: behind
// Hosting the function receives the rewritten request, whose path and query are
// the public ones but whose host is the function's. The public origin is
// PUBLIC_BASE_URL when it is set (the authority: no header can move it); else
// the scheme and host Hosting forwarded (X-Forwarded-Proto, X-Forwarded-Host),
// else the request's own. See docs/security.md#safe-exam-browser.

let configured: string | undefined;
/** PUBLIC_BASE_URL, read once per instance ('' when unset). */
function configuredBase(): string {
  if (configured === undefined) {
    try {
      configured = params.publicBaseUrl.value().trim();
    } catch {
      configured = '';
    }
  }
  return configured;
}

/**
 * The request's public URL, the page it came from, and SEB's headers, as sent (checked where a test
 * requires SEB). `forwardedOrigin` is the scheme and host Hosting forwarded, the route's own `baseUrl`:
 * the origin when PUBLIC_BASE_URL is unset.
 */
export function sebRequestOf(req: Request, forwardedOrigin: string): SebRequest {
  const base = configuredBase() || forwardedOrigin;
  const configKeyHash = req.get(SEB_CONFIG_KEY_HEADER);
  const requestHash = req.get(SEB_REQUEST_HASH_HEADER);
  return {
    url: publicUrl(base, req.originalUrl),
    // Which page counts (its origin, its path) is the check's to decide: shared/seb.ts sebPageFits.
    ...(configKeyHash !== undefined || requestHash !== undefined ? { pageUrl: req.get('referer') } : {}),
    configKeyHash,
    requestHash,
  };
}
