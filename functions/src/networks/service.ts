import { addUserEventToBatch } from '../audit';
import { assertCanManageNetworks, type Principal } from '../auth';
import { requireClient } from '../clients';
import type { CallContext } from '../shared';
import { applyLocally } from './registry';
import type { Networks } from './schemas';
import * as store from './store';

// An organization's registered networks: read, and replaced whole. Every
// instance's registry (registry.ts) reads them; the one that wrote sees them at once.

/** 404 for an organization that does not exist, whoever asks; 403 for another organization's, by the policy. */
async function requireOrganization(principal: Principal, clientId: string): Promise<void> {
  await requireClient(clientId);
  assertCanManageNetworks(principal, clientId);
}

export async function readNetworks(principal: Principal, clientId: string): Promise<Networks> {
  await requireOrganization(principal, clientId);
  return { networks: (await store.findNetworks(clientId))?.networks ?? [] };
}

/**
 * Replaces the organization's networks (canonical, validated by the schema),
 * audited as networks_set with them and those they replaced, in one commit.
 */
export async function setNetworks(
  principal: Principal,
  clientId: string,
  networks: string[],
  call: CallContext,
): Promise<Networks> {
  await requireOrganization(principal, clientId);
  const previous = (await store.findNetworks(clientId))?.networks ?? [];
  const updatedAt = await store.writeNetworks(clientId, networks, principal.uid, (batch) =>
    addUserEventToBatch(batch, call, {
      type: 'networks_set',
      actor: principal,
      userId: principal.uid,
      clientId,
      details: { networks, previous },
    }),
  );
  applyLocally(clientId, networks, updatedAt);
  return { networks };
}
