import { createClientDoc } from '../../support/fixtures';
import type { FuzzSeedGroup } from './types';

// Seeds for an organization's registered networks. The fuzzer writes to an
// organization made for it alone, so no other test's networks change under it.

interface Prepared {
  client: string;
}

export const seeds: FuzzSeedGroup = {
  async prepare(): Promise<Prepared> {
    return { client: (await createClientDoc()).id };
  },
  seeds: [
    { operation: 'get /api/clients/{clientId}/networks', request: (w, p: Prepared) => ({ token: w.superAdmin.token, params: { clientId: p.client } }) },
    {
      operation: 'put /api/clients/{clientId}/networks',
      request: (w, p: Prepared) => ({ token: w.superAdmin.token, params: { clientId: p.client }, body: { networks: ['203.0.113.0/24', '2001:db8:1::/48'] } }),
    },
  ],
};
