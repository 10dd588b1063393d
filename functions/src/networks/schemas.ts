import { z } from 'zod';
import { ClientId } from '../shared';
import { MIN_IPV4_PREFIX, MIN_IPV6_PREFIX, parseNetwork } from './cidr';

// Request and reply shapes of an organization's registered networks.

/** Networks one organization may register: a school's sites, never a provider's address plan. */
export const MAX_NETWORKS = 50;

export const NetworksParams = z.strictObject({ clientId: ClientId });

/** One network as sent, in its canonical form once valid (parseNetwork decides). */
const NetworkText = z
  .string()
  .trim()
  .max(64)
  .transform((text, ctx) => {
    const verdict = parseNetwork(text);
    if (verdict.ok) return verdict.cidr;
    ctx.addIssue({ code: 'custom', message: verdict.message });
    return z.NEVER;
  })
  .meta({
    description: `A CIDR prefix: IPv4 /${MIN_IPV4_PREFIX} to /32 in dotted decimal, IPv6 /${MIN_IPV6_PREFIX} to /128; no host bits set, no IPv4-mapped IPv6`,
    examples: ['203.0.113.0/24', '2001:db8:1::/48'],
  });

export const PutNetworksBody = z
  .strictObject({
    networks: z
      .array(NetworkText)
      .max(MAX_NETWORKS)
      .superRefine((networks, ctx) => {
        const first = new Map<string, number>();
        networks.forEach((cidr, index) => {
          const earlier = first.get(cidr);
          if (earlier === undefined) first.set(cidr, index);
          else
            ctx.addIssue({ code: 'custom', path: [index], message: `The same network as item ${earlier} (${cidr})` });
        });
      })
      .describe(`At most ${MAX_NETWORKS}, each once; [] removes them all`),
  })
  .meta({ id: 'PutNetworks', description: 'Replaces the organization’s networks whole' });

export const Networks = z
  .object({ networks: z.array(z.string()).describe('Canonical CIDR prefixes, in the order they were sent') })
  .meta({ id: 'Networks' });
export type Networks = z.infer<typeof Networks>;
