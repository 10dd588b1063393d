import { badRequest, forbidden } from '../http/errors';
import type { CallerRole, Principal } from './principal';

// Pure authorization policy: every tenant decision in the service is made here.

export function assertRole(principal: Principal, allowed: readonly CallerRole[]): void {
  if (principal.role === null) {
    throw forbidden('Your account has no role yet; an administrator must assign one');
  }
  if (!allowed.includes(principal.role)) {
    throw forbidden(`This operation is not allowed for role ${principal.role}`);
  }
}

/**
 * The client a tenant query runs against. A Super Admin names it (required
 * unless `optionalForSuperAdmin`); everyone else gets their own organization
 * and may not name another.
 */
export function tenantScope(principal: Principal, requested: string | undefined, opts?: { optionalForSuperAdmin?: false }): string;
export function tenantScope(principal: Principal, requested: string | undefined, opts: { optionalForSuperAdmin: true }): string | undefined;
export function tenantScope(
  principal: Principal,
  requested: string | undefined,
  opts: { optionalForSuperAdmin?: boolean } = {},
): string | undefined {
  if (principal.role === 'super_admin') {
    if (requested === undefined && !opts.optionalForSuperAdmin) {
      throw badRequest('client_id is required for a Super Admin', [{ path: 'query.client_id', message: 'Required' }]);
    }
    return requested;
  }
  if (!principal.clientId) throw forbidden('This operation needs an organization');
  if (requested !== undefined && requested !== principal.clientId) {
    throw forbidden('You cannot access another organization');
  }
  return principal.clientId;
}

/** Object-level check: the resource's owner must be the caller's organization. */
export function assertTenantAccess(principal: Principal, resourceClientId: string): void {
  if (principal.role === 'super_admin') return;
  if (principal.clientId !== resourceClientId) throw forbidden('You cannot access another organization');
}
