import { defineRoute, type RouteDefinition } from '../http';
import { MIN_IPV4_PREFIX, MIN_IPV6_PREFIX } from './cidr';
import { MAX_NETWORKS, Networks, NetworksParams, PutNetworksBody } from './schemas';
import * as service from './service';

const ADMINS = ['super_admin', 'client_admin'] as const;
const MEANING =
  'A request from an address inside any organization’s networks that carries an identity (an ID token, an attempt token) is rate limited per identity, not per address; ' +
  'on-site-only tests of the organization can be taken only from inside its own networks.';

export const networkRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'get',
    path: '/clients/{clientId}/networks',
    summary: 'Read an organization’s registered networks',
    description: `The organization’s networks ([] when none). Super Admin, or the organization’s Client Admin. ${MEANING}`,
    tag: 'Clients',
    access: ADMINS,
    params: NetworksParams,
    success: { status: 200, description: 'The networks', schema: Networks },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params }) => ({
      status: 200,
      body: await service.readNetworks(principal, params.clientId),
    }),
  }),
  defineRoute({
    method: 'put',
    path: '/clients/{clientId}/networks',
    summary: 'Replace an organization’s registered networks',
    description:
      `At most ${MAX_NETWORKS} CIDR prefixes: IPv4 /${MIN_IPV4_PREFIX} or longer, IPv6 /${MIN_IPV6_PREFIX} or longer, stored and answered in canonical form. ` +
      'A prefix with host bits set, an IPv4-mapped IPv6 prefix or one that repeats another (once canonical) → 400 naming the item (body.networks.<index>). ' +
      'The instance that answers applies them at once; every other within 60 s. Audited as networks_set. ' +
      MEANING,
    tag: 'Clients',
    access: ADMINS,
    sensitive: true,
    params: NetworksParams,
    body: PutNetworksBody,
    success: { status: 200, description: 'The networks as stored', schema: Networks },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, body, call }) => ({
      status: 200,
      body: await service.setNetworks(principal, params.clientId, body.networks, call),
    }),
  }),
];
