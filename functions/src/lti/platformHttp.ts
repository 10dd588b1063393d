import { type OutboundFailure, type OutboundReply, type OutboundRequest, sendOnce, type UrlProblem } from '../outbound';

// No Firebase: the tool's own requests to an LTI platform (its key set, its
// token endpoint, line items, memberships), through the one outbound sender:
// each bounded in time and in the bytes read, following no redirect, going
// only to an https URL on a public address (loopback where ALLOW_LOOPBACK_URLS
// allows it: the emulators, the tests' platform). Here, worded for a delivery's
// or a launch's error.

export interface PlatformFailure {
  status: null;
  /** Why there was no answer: the address refused, no whole answer in time, an answer past maxBytes, the network. */
  failure: OutboundFailure['failure'];
  error: string;
  ms: number;
}

const PROBLEM_WORDS: Record<UrlProblem, string> = {
  not_url: 'not a URL',
  credentials: 'a URL with credentials in it',
  loopback: 'not a public address',
  not_https: 'not https',
  not_public: 'not a public address',
};

/** Why a call had no answer, as a delivery's last_error or a launch's refusal says it. */
function worded(url: string, failed: OutboundFailure): string {
  if (failed.failure === 'refused')
    return `Refused to call ${url}: ${failed.problem ? PROBLEM_WORDS[failed.problem] : failed.detail}`;
  if (failed.failure === 'network') return `Could not reach the platform: ${failed.code ?? failed.detail}`;
  return failed.detail;
}

/**
 * One request to a platform: its answer (any status), or why there was none. Never throws. The
 * address is checked where it is connected to: a name that resolves to a private address, even one
 * that changed since it was checked, is never called.
 */
export async function platformRequest(
  url: string,
  init: OutboundRequest,
  opts: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<OutboundReply | PlatformFailure> {
  const reply = await sendOnce(url, init, opts);
  if (reply.status !== null) return reply;
  return { status: null, failure: reply.failure, error: worded(url, reply), ms: reply.ms };
}

/** A short excerpt of a platform's answer for a delivery's last_error (never the whole of it). */
export const excerpt = (text: string, max = 200): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};
