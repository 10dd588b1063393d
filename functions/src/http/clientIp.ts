import type { Request } from 'express';
import ipaddr from 'ipaddr.js';

// Who is calling, as far as the network can tell. Every proxy in front of the
// function appends the address it saw to X-Forwarded-For, so the entries a
// client wrote itself are on the left and can never be believed. Walking from
// the right, we skip the hops we know are ours and take the first address
// after them:
// - a direct call to the function's URL: Google's front end appends the
//   caller's address (TRUSTED_PROXY_HOPS = 1 counts that front end);
// - through Firebase Hosting: Hosting's edge appends the caller's address and
//   the front end then appends the edge's own; listing the edge's address
//   ranges in TRUSTED_PROXY_RANGES skips it. An address in those ranges cannot
//   be claimed by a direct caller, whose own address is what the front end appends.

/** Express's `trust proxy`: the first `hops` hops, plus any address in `ranges`, are our own proxies. */
export function trustedProxy(hops: number, ranges: readonly string[]): (address: string, hop: number) => boolean {
  const cidrs = ranges.map((range) => ipaddr.parseCIDR(range));
  return (address, hop) => {
    if (hop < hops) return true;
    if (cidrs.length === 0 || !ipaddr.isValid(address)) return false;
    const parsed = ipaddr.process(address);
    return cidrs.some(([net, bits]) => parsed.kind() === net.kind() && parsed.match(net, bits));
  };
}

/** The caller's address as our trusted proxies reported it (`unknown` when none did, as in the Functions emulator). */
export const clientIp = (req: Request): string => req.ip ?? 'unknown';
