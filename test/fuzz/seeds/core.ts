import { randomUUID } from 'node:crypto';
import { createClientDoc, createUser, uniqueName } from '../../support/fixtures';
import type { FuzzSeedGroup, FuzzWorld } from './types';

// Seeds for the foundation's endpoints: system, clients, users, audit log.
// Targets that fuzzing may change for good (a client it may deactivate, users
// it may disable or delete) are made for the fuzzer alone.

interface Prepared {
  client: string;
  patchTarget: string;
  deleteTarget: string;
}

export const seeds: FuzzSeedGroup = {
  async prepare(world: FuzzWorld): Promise<Prepared> {
    const [client, patchTarget, deleteTarget] = await Promise.all([
      createClientDoc(),
      createUser('student', world.tenant.clientId),
      createUser('student', world.tenant.clientId),
    ]);
    return { client: client.id, patchTarget: patchTarget.uid, deleteTarget: deleteTarget.uid };
  },
  seeds: [
    { operation: 'get /api/openapi.json', request: () => ({}) },
    { operation: 'get /api/health', request: () => ({}) },
    { operation: 'get /api/me', request: (w) => ({ token: w.tenant.student.token }) },
    { operation: 'get /api/clients', request: (w) => ({ token: w.superAdmin.token, query: { page: '1', limit: '5', active_status: '1' } }) },
    {
      operation: 'post /api/clients',
      request: (w) => ({ token: w.superAdmin.token, body: { name: uniqueName('Fuzz School'), address: '1 Fuzz Road', logo_url: 'https://example.com/logo.png' } }),
    },
    { operation: 'get /api/clients/{clientId}', request: (w, p: Prepared) => ({ token: w.superAdmin.token, params: { clientId: p.client } }) },
    {
      operation: 'patch /api/clients/{clientId}',
      request: (w, p: Prepared) => ({ token: w.superAdmin.token, params: { clientId: p.client }, body: { address: '2 Fuzz Road' } }),
    },
    { operation: 'get /api/users', request: (w) => ({ token: w.superAdmin.token, query: { client_id: w.tenant.clientId, role: 'student', disabled: 'false', limit: '5', q: 'test st' } }) },
    {
      operation: 'post /api/users',
      request: (w) => ({
        token: w.superAdmin.token,
        body: { email: `fuzz-${randomUUID().slice(0, 12)}@test.example`, password: 'a-long-enough-password', display_name: 'Fuzz User', role: 'student', client_id: w.tenant.clientId },
      }),
    },
    { operation: 'get /api/users/{uid}', request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { uid: p.patchTarget } }) },
    {
      operation: 'patch /api/users/{uid}',
      request: (w, p: Prepared) => ({ token: w.superAdmin.token, params: { uid: p.patchTarget }, body: { display_name: 'Fuzzed Name' } }),
    },
    { operation: 'delete /api/users/{uid}', request: (w, p: Prepared) => ({ token: w.superAdmin.token, params: { uid: p.deleteTarget } }) },
    {
      operation: 'get /api/audit-logs',
      request: (w) => ({ token: w.superAdmin.token, query: { client_id: w.tenant.clientId, event_type: 'login', user_id: w.tenant.student.uid, success: 'true', limit: '5' } }),
    },
  ],
};
