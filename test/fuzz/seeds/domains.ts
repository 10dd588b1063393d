import { createClientDoc } from '../../support/fixtures';
import type { FuzzSeedGroup } from './types';

// Seeds for an organization's email domains and joining with a school account. The fuzzer binds to an
// organization made for it alone; a domain of its own keeps every run's claim off other tests' domains.

interface Prepared {
  client: string;
}

export const seeds: FuzzSeedGroup = {
  async prepare(): Promise<Prepared> {
    return { client: (await createClientDoc()).id };
  },
  seeds: [
    { operation: 'get /api/clients/{clientId}/domains', request: (w, p: Prepared) => ({ token: w.superAdmin.token, params: { clientId: p.client } }) },
    {
      operation: 'post /api/clients/{clientId}/domains',
      request: (w, p: Prepared) => ({ token: w.superAdmin.token, params: { clientId: p.client }, body: { domain: 'fuzz-school.example.edu' } }),
    },
    {
      operation: 'delete /api/clients/{clientId}/domains/{domain}',
      request: (w, p: Prepared) => ({ token: w.superAdmin.token, params: { clientId: p.client, domain: 'fuzz-school.example.edu' } }),
    },
    // A password sign-in is refused (403): the fuzzer checks that what comes back is documented, never a 5xx.
    { operation: 'post /api/users/me/join', request: (w) => ({ token: w.noRole.token }) },
  ],
};
