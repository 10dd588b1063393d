import ipaddr from 'ipaddr.js';

// Pure (ipaddr.js only): which receiver URLs and addresses a webhook may reach.
// Only the public internet: never this machine, its network, the metadata
// server or any reserved range, whatever a URL's name resolves to. Loopback
// (and http on it) only where the deployment says so: the emulators.

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

export type UrlVerdict = { ok: true; url: URL; literal: boolean } | { ok: false; message: string };

/** The host as an address when it is one (brackets off an IPv6 literal). */
const literalOf = (hostname: string): string | undefined => {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : undefined;
};

const LOOPBACK_NAMES = new Set(['localhost']);

/**
 * A receiver URL as registered: https (http only to loopback where loopback is
 * allowed), no credentials in it, and a host that is a public address or a name
 * (names are checked again where they resolve: at registration and at connect).
 */
export function checkReceiverUrl(text: string, policy: ReachPolicy): UrlVerdict {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: 'Not a URL' };
  }
  if (url.username || url.password) return { ok: false, message: 'A URL with credentials in it is not accepted' };
  const literal = literalOf(url.hostname);
  const loopbackHost =
    LOOPBACK_NAMES.has(url.hostname.toLowerCase()) || (literal !== undefined && rangeOf(literal) === 'loopback');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowLoopback && loopbackHost))
    return { ok: false, message: 'The URL must be https' };
  if (loopbackHost && !policy.allowLoopback)
    return { ok: false, message: 'The URL must reach a public address, not this machine' };
  if (literal !== undefined && !addressAllowed(literal, policy))
    return { ok: false, message: 'The URL must reach a public address, not a private or reserved one' };
  return { ok: true, url, literal: literal !== undefined };
}
