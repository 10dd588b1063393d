import ipaddr from 'ipaddr.js';

// Pure (ipaddr.js only): which URLs and addresses the backend may call out to
// (a webhook's receiver, an LTI platform). Only the public internet: never this
// machine, its network, the metadata server or any reserved range, whatever a
// URL's name resolves to. Loopback (and http on it) only where the deployment
// says so (loopback.ts): the emulators.

export interface ReachPolicy {
  /** ALLOW_LOOPBACK_URLS: http://127.0.0.1 and friends, for the emulators and their tests. */
  allowLoopback: boolean;
}

/** The range ipaddr.js names for an address; ::ffff:10.0.0.1 is judged as the IPv4 address it carries. */
function rangeOf(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range();
}

/** Whether one resolved address may be connected to. */
export function addressAllowed(address: string, policy: ReachPolicy): boolean {
  const range = rangeOf(address);
  if (range === 'unicast') return true;
  return policy.allowLoopback && range === 'loopback';
}

/** Why a URL is refused, for each caller to word: its own message, its refusal's field. */
export type UrlProblem = 'not_url' | 'credentials' | 'loopback' | 'not_https' | 'not_public';

export type UrlVerdict = { ok: true; url: URL; literal: boolean } | { ok: false; problem: UrlProblem; message: string };

const MESSAGES: Record<UrlProblem, string> = {
  not_url: 'Not a URL',
  credentials: 'A URL with credentials in it is not accepted',
  loopback: 'The URL must reach a public address, not this machine',
  not_https: 'The URL must be https',
  not_public: 'The URL must reach a public address, not a private or reserved one',
};

const refused = (problem: UrlProblem): UrlVerdict => ({ ok: false, problem, message: MESSAGES[problem] });

/** The host as an address when it is one (brackets off an IPv6 literal). */
const literalOf = (hostname: string): string | undefined => {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : undefined;
};

const LOOPBACK_NAMES = new Set(['localhost']);

/**
 * A URL the backend may call, as registered and again as sent: https (http only
 * to loopback where loopback is allowed), no credentials in it, and a host that
 * is a public address or a name (names are checked again where they resolve:
 * at registration and at connect). The first problem found, in this order.
 */
export function checkOutboundUrl(text: string, policy: ReachPolicy): UrlVerdict {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refused('not_url');
  }
  if (url.username || url.password) return refused('credentials');
  const literal = literalOf(url.hostname);
  const loopbackHost =
    LOOPBACK_NAMES.has(url.hostname.toLowerCase()) || (literal !== undefined && rangeOf(literal) === 'loopback');
  if (loopbackHost && !policy.allowLoopback) return refused('loopback');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackHost)) return refused('not_https');
  if (literal !== undefined && !addressAllowed(literal, policy)) return refused('not_public');
  return { ok: true, url, literal: literal !== undefined };
}
