import type { QuerySpec } from '../shared/querySpec';

// Pure: the shapes of the user listings, by email.
export const tenantUserQuerySpec = (filters: { role?: string; disabled?: boolean }): QuerySpec => ({
  collectionId: 'users',
  equals: { role: filters.role, disabled: filters.disabled },
  orderBy: [{ field: 'email', direction: 'asc' }],
});

export const superAdminQuerySpec = (filters: { disabled?: boolean }): QuerySpec => ({
  collectionId: 'super_admins',
  equals: { disabled: filters.disabled },
  orderBy: [{ field: 'email', direction: 'asc' }],
});
