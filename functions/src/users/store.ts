import type { CollectionReference, DocumentReference, Timestamp } from 'firebase-admin/firestore';
import { buildQuery, fetchPage, paths } from '../firestore';
import type { Role } from '../auth';
import type { PageRequest } from '../shared';
import type { StoredProfile } from './documents';
import type { User } from './schemas';
import { SEARCH_FIELDS, superAdminQuerySpec, tenantUserQuerySpec, userSearchSpec } from './userQuery';

/** Super Admins belong to no tenant; everyone else's profile lives under their client. */
export const profileRef = (uid: string, role: Role | null, clientId: string | null): DocumentReference | undefined => {
  if (role === 'super_admin') return paths.superAdmin(uid);
  if (clientId) return paths.clientUser(clientId, uid);
  return undefined;
};

/** A profile as read, with the version it was read at. */
export interface ProfileRead {
  data: Partial<StoredProfile>;
  /** The version read, so a write can insist nobody changed it since. */
  updateTime: Timestamp;
}

export async function findProfile(ref: DocumentReference | undefined): Promise<ProfileRead | undefined> {
  if (!ref) return undefined;
  const snap = await ref.get();
  return snap.exists ? { data: snap.data() as StoredProfile, updateTime: snap.updateTime! } : undefined;
}

export async function listTenantUsers(
  clientId: string,
  filters: { role?: Role; disabled?: boolean },
  page: PageRequest,
) {
  const { docs, pagination } = await fetchPage(paths.clientUsers(clientId), tenantUserQuerySpec(filters), page);
  return { data: docs as StoredProfile[], pagination };
}

export async function listSuperAdmins(filters: { disabled?: boolean }, page: PageRequest) {
  const { docs, pagination } = await fetchPage(paths.superAdmins(), superAdminQuerySpec(filters), page);
  return { data: docs as User[], pagination };
}

/**
 * The users whose email or name starts with `folded` (already folded): two range
 * queries of at most `limit` documents each, read in parallel, merged by uid and
 * sorted by email. Profiles written before the search keys existed are not found
 * until scripts/backfill-user-search.mjs gives them their keys.
 */
export const searchTenantUsers = (
  clientId: string,
  filters: { role?: Role; disabled?: boolean },
  folded: string | null,
  limit: number,
) => searchUsers(paths.clientUsers(clientId), 'users', filters, folded, limit);

export const searchSuperAdmins = (filters: { disabled?: boolean }, folded: string | null, limit: number) =>
  searchUsers(paths.superAdmins(), 'super_admins', filters, folded, limit);

async function searchUsers(
  collection: CollectionReference,
  collectionId: 'users' | 'super_admins',
  filters: { role?: Role; disabled?: boolean },
  folded: string | null,
  limit: number,
): Promise<StoredProfile[]> {
  if (folded === null) return [];
  const snaps = await Promise.all(
    SEARCH_FIELDS.map((field) =>
      buildQuery(collection, userSearchSpec(collectionId, filters, field, folded))
        .limit(limit)
        .get(),
    ),
  );
  const byUid = new Map<string, StoredProfile>();
  for (const snap of snaps) for (const doc of snap.docs) byUid.set(doc.id, doc.data() as StoredProfile);
  return [...byUid.values()]
    .sort((a, b) => compareText(a.email ?? '', b.email ?? '') || compareText(a.uid, b.uid))
    .slice(0, limit);
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
