import ipaddr from 'ipaddr.js';

// Pure (ipaddr.js only): organization networks as CIDR prefixes, and the
// lookup of an address among many of them at a cost that does not grow with
// how many are registered.

/** Shortest prefixes an organization may register: a school's network, never a whole provider's. */
export const MIN_IPV4_PREFIX = 16;
export const MIN_IPV6_PREFIX = 32;

export type CidrVerdict = { ok: true; cidr: string } | { ok: false; message: string };

/**
 * A registrable network in its canonical form (`203.0.113.0/24`, `2001:db8:1::/48`):
 * a valid prefix no shorter than the bounds, with no host bits set (a typo
 * that would register another network than the one meant is refused, not masked).
 */
export function parseNetwork(text: string): CidrVerdict {
  if (!ipaddr.isValidCIDR(text))
    return { ok: false, message: 'Not a CIDR prefix such as 203.0.113.0/24 or 2001:db8:1::/48' };
  // ipaddr.js also reads 010.1.0.0 as octal (8.1.0.0), 0xcb.0.113.0 as hex and 203.0.113 as three parts:
  // each would register another network than the one the admin read, so only dotted decimal is taken.
  const addressText = text.slice(0, text.lastIndexOf('/'));
  if (addressText.includes('%')) return { ok: false, message: 'A network has no zone index (%…)' };
  const [address, bits] = ipaddr.parseCIDR(text);
  if (address.kind() === 'ipv4' && !ipaddr.IPv4.isValidFourPartDecimal(addressText)) {
    return {
      ok: false,
      message: 'Write an IPv4 network as four decimal numbers without leading zeros, such as 203.0.113.0/24',
    };
  }
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    return { ok: false, message: 'Write an IPv4 network in IPv4 notation' };
  }
  const min = address.kind() === 'ipv4' ? MIN_IPV4_PREFIX : MIN_IPV6_PREFIX;
  if (bits < min)
    return {
      ok: false,
      message: `An ${address.kind() === 'ipv4' ? 'IPv4' : 'IPv6'} network must be /${min} or longer`,
    };
  const network = networkAddress(address, bits);
  if (network !== address.toNormalizedString() && network !== address.toString()) {
    return { ok: false, message: `Host bits are set: the network is ${ipaddr.parse(network).toString()}/${bits}` };
  }
  return { ok: true, cidr: `${address.toString()}/${bits}` };
}

function networkAddress(address: ipaddr.IPv4 | ipaddr.IPv6, bits: number): string {
  const cidr = `${address.toString()}/${bits}`;
  return address.kind() === 'ipv4'
    ? ipaddr.IPv4.networkAddressFromCIDR(cidr).toString()
    : ipaddr.IPv6.networkAddressFromCIDR(cidr).toNormalizedString();
}

/** An address as the lookup keys it: IPv4-mapped IPv6 as IPv4; undefined when it is no address (`unknown`). */
function parsedAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  return ipaddr.isValid(ip) ? ipaddr.process(ip) : undefined;
}

/**
 * Networks grouped by kind and prefix length, each group a set of network
 * addresses: looking an address up masks it once per distinct length (at most
 * 17 + 97) and asks a set, however many networks are registered.
 */
export class NetworkSet {
  private readonly byLength = new Map<string, Set<string>>();
  readonly cidrs: readonly string[];

  constructor(cidrs: Iterable<string>) {
    this.cidrs = [...cidrs];
    for (const cidr of this.cidrs) {
      const [address, bits] = ipaddr.parseCIDR(cidr);
      const key = `${address.kind()}/${bits}`;
      let group = this.byLength.get(key);
      if (!group) this.byLength.set(key, (group = new Set()));
      group.add(networkAddress(address, bits));
    }
  }

  get size(): number {
    let total = 0;
    for (const group of this.byLength.values()) total += group.size;
    return total;
  }

  contains(ip: string): boolean {
    const address = parsedAddress(ip);
    if (!address) return false;
    for (const [key, group] of this.byLength) {
      const [kind, bits] = key.split('/');
      if (kind === address.kind() && group.has(networkAddress(address, Number(bits)))) return true;
    }
    return false;
  }
}
