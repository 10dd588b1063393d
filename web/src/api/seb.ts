// Safe Exam Browser's JavaScript API, where SEB cannot add its headers to the
// page's own requests (its WebKit builds): SEB gives the page the hashes of the
// page's URL with its Config Key and Browser Exam Key, and the service accepts
// them for the page the request came from (its Referer). See docs/security.md.

interface SebSecurity {
  configKey?: string;
  browserExamKey?: string;
  /** Recomputes the keys for the page's current URL (the app changes it without a reload). */
  updateKeys?: (done: () => void) => void;
}

declare global {
  interface Window {
    SafeExamBrowser?: { security?: SebSecurity };
  }
}

const HASH = /^[0-9a-f]{64}$/i;
const UPDATE_WAIT_MS = 1_000;

/** The headers SEB's JavaScript API gives this page now; none outside SEB. */
export async function sebHeaders(): Promise<Record<string, string>> {
  const security = window.SafeExamBrowser?.security;
  if (!security) return {};
  const update = security.updateKeys;
  if (typeof update === 'function')
    await new Promise<void>((done) => {
      setTimeout(done, UPDATE_WAIT_MS);
      update.call(security, done);
    });
  const headers: Record<string, string> = {};
  if (HASH.test(security.configKey ?? '')) headers['X-SafeExamBrowser-ConfigKeyHash'] = security.configKey!;
  if (HASH.test(security.browserExamKey ?? '')) headers['X-SafeExamBrowser-RequestHash'] = security.browserExamKey!;
  return headers;
}

/** Requests that SEB guards: starting, answering, events and submitting an attempt. */
export const sebGuarded = (method: string, path: string): boolean =>
  method === 'POST' && /^\/api\/attempts(\/[^/]+\/(answers|events|submit|answers\/[^/]+\/attachments))?$/.test(path);
