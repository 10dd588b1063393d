import type { QuerySpec } from '../shared';

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

/** The two fields a search looks at: the start of the email, the start of the name (both folded, searchKeys.ts). */
export const SEARCH_FIELDS = ['email_lower', 'name_lower'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/**
 * A search's query on one field: the listing's filters, then a range on the folded
 * field, sorted by it. At most `limit` documents are read whatever the organization's size.
 */
export const userSearchSpec = (
  collectionId: 'users' | 'super_admins',
  filters: { role?: string; disabled?: boolean },
  field: SearchField,
  folded: string,
): QuerySpec => ({
  collectionId,
  equals: { role: collectionId === 'users' ? filters.role : undefined, disabled: filters.disabled },
  startsWith: { field, value: folded },
  orderBy: [{ field, direction: 'asc' }],
});
