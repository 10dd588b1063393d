import ipaddr from 'ipaddr.js';

/**
 * The bucket an address is counted in. One IPv6 subscriber is usually given a
 * whole /64, so counting single IPv6 addresses would let one caller rotate
 * through endless fresh buckets; a /64 is counted as one caller. IPv4 (also
 * when written IPv4-mapped) counts per address.
 */
export function addressBucket(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const prefix = v6.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':');
  return `${prefix}::/64`;
}
