import type { DocumentReference, Timestamp } from 'firebase-admin/firestore';
import { fetchPage } from '../firestore/pagedQuery';
import { paths } from '../firestore/paths';
import type { Role } from '../auth/principal';
import type { PageRequest } from '../shared/pagination';
import type { StoredProfile } from './documents';
import type { User } from './schemas';
import { superAdminQuerySpec, tenantUserQuerySpec } from './userQuery';

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
  return { data: docs as User[], pagination };
}

export async function listSuperAdmins(filters: { disabled?: boolean }, page: PageRequest) {
  const { docs, pagination } = await fetchPage(paths.superAdmins(), superAdminQuerySpec(filters), page);
  return { data: docs as User[], pagination };
}
