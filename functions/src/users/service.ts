import type { Request } from 'express';
import type { UserRecord } from 'firebase-admin/auth';
import { addUserEventToBatch } from '../audit/service';
import { assertTenantAccess, tenantScope } from '../auth/policy';
import type { Principal, Role } from '../auth/principal';
import { getClient } from '../clients/store';
import { auth, db } from '../firestore/db';
import { ALREADY_EXISTS, FAILED_PRECONDITION, hasStatus, NOT_FOUND } from '../firestore/statusCodes';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import type { PageRequest } from '../shared/pagination';
import type { CreateUserInput, User, UserChanges } from './schemas';
import * as store from './store';

// Auth holds identity (email, disabled, role claims); the profile document
// mirrors it for listing. Every change writes Auth first and then the profile
// with its audit record in one batch; a failed batch undoes the Auth change.

const authCode = (err: unknown) => (err as { code?: string }).code;

function translateAuthError(err: unknown): unknown {
  switch (authCode(err)) {
    case 'auth/email-already-exists':
      return conflict('A user with this email already exists');
    case 'auth/invalid-email':
      return badRequest('email is not valid', [{ path: 'body.email', message: 'Invalid email' }]);
    case 'auth/invalid-password':
      return badRequest('password is not valid', [{ path: 'body.password', message: 'Invalid password' }]);
    default:
      return err;
  }
}

const roleOf = (record: UserRecord): Role | null => {
  const role = record.customClaims?.role;
  return role === 'super_admin' || role === 'client_admin' || role === 'student' ? role : null;
};
const clientOf = (record: UserRecord): string | null =>
  typeof record.customClaims?.client_id === 'string' ? record.customClaims.client_id : null;

function toUser(record: UserRecord, profile: Partial<User> | undefined): User {
  return {
    uid: record.uid,
    email: record.email ?? null,
    display_name: profile?.display_name ?? record.displayName ?? null,
    role: roleOf(record),
    client_id: clientOf(record),
    disabled: record.disabled,
    created_at: profile?.created_at ?? new Date(record.metadata.creationTime).toISOString(),
    updated_at: profile?.updated_at ?? new Date(record.metadata.creationTime).toISOString(),
  };
}

async function loadUser(uid: string): Promise<{ user: User; record: UserRecord; profile?: store.StoredProfile }> {
  let record: UserRecord;
  try {
    record = await auth.getUser(uid);
  } catch (err) {
    if (authCode(err) === 'auth/user-not-found') throw notFound('User not found');
    throw err;
  }
  const profile = await store.readProfile(store.profileRef(uid, roleOf(record), clientOf(record)));
  return { user: toUser(record, profile?.data), record, profile };
}

/** 404 when no such user, 403 when it is not in the caller's organization. */
function assertCanSee(principal: Principal, user: User): void {
  if (principal.role === 'super_admin') return;
  if (principal.role === 'student' && principal.uid !== user.uid) throw forbidden('Students can only read their own profile');
  if (!user.client_id) throw forbidden('You cannot access users outside your organization');
  assertTenantAccess(principal, user.client_id);
}

export async function createUser(principal: Principal, input: CreateUserInput, req: Request): Promise<User> {
  let clientId: string | null = null;
  if (input.role === 'super_admin') {
    if (principal.role !== 'super_admin') throw forbidden('Only a Super Admin can create a Super Admin');
    if (input.client_id !== undefined) {
      throw badRequest('A Super Admin belongs to no client', [{ path: 'body.client_id', message: 'Must be absent for super_admin' }]);
    }
  } else {
    if (principal.role === 'super_admin' && input.client_id === undefined) {
      throw badRequest('client_id is required for this role', [{ path: 'body.client_id', message: 'Required' }]);
    }
    clientId = tenantScope(principal, input.client_id);
    if (!(await getClient(clientId))) throw notFound('Client not found');
  }

  let record: UserRecord;
  try {
    record = await auth.createUser({ email: input.email, password: input.password, displayName: input.display_name });
  } catch (err) {
    throw translateAuthError(err);
  }
  const now = new Date().toISOString();
  const user: User = {
    uid: record.uid,
    email: record.email ?? input.email,
    display_name: input.display_name,
    role: input.role,
    client_id: clientId,
    disabled: false,
    created_at: now,
    updated_at: now,
  };
  try {
    await auth.setCustomUserClaims(record.uid, clientId ? { role: input.role, client_id: clientId } : { role: input.role });
    const batch = db.batch();
    batch.create(store.profileRef(user.uid, user.role, clientId)!, user);
    addUserEventToBatch(batch, req, { type: 'user_created', actor: principal, userId: user.uid, clientId, details: { role: user.role } });
    await batch.commit();
  } catch (err) {
    await auth.deleteUser(record.uid).catch(() => undefined);
    throw err;
  }
  return user;
}

export async function readUser(principal: Principal, uid: string): Promise<User> {
  const { user } = await loadUser(uid);
  assertCanSee(principal, user);
  return user;
}

export async function listUsers(
  principal: Principal,
  query: { client_id?: string; role?: Role; disabled?: boolean },
  page: PageRequest,
) {
  if (principal.role === 'super_admin' && query.role === 'super_admin' && query.client_id === undefined) {
    return store.listSuperAdmins({ disabled: query.disabled }, page);
  }
  const clientId = tenantScope(principal, query.client_id);
  // A Client Admin's own organization exists (authentication checked it is active); a named one may not.
  if (principal.role === 'super_admin' && !(await getClient(clientId))) throw notFound('Client not found');
  return store.listTenantUsers(clientId, { role: query.role, disabled: query.disabled }, page);
}

const isPlatformRole = (role: Role | null) => role === 'super_admin';

// Firestore's answers when a conditional write finds the document changed or taken.
const CONCURRENT_CHANGE = [NOT_FOUND, ALREADY_EXISTS, FAILED_PRECONDITION];

/**
 * The organization a user belongs to after `changes`. It is fixed once a user has
 * a role; `client_id` names it only when giving a first role to a user with none
 * (only a Super Admin can see such users).
 */
async function organizationAfter(user: User, changes: UserChanges): Promise<string | null> {
  const firstRole = user.role === null && changes.role !== undefined;
  if (!firstRole) {
    if (changes.client_id !== undefined) {
      throw badRequest('client_id can only be set together with a user’s first role', [
        { path: 'body.client_id', message: 'A user’s organization cannot change' },
      ]);
    }
    return user.client_id;
  }
  if (changes.role === 'super_admin') {
    if (changes.client_id !== undefined) {
      throw badRequest('A Super Admin belongs to no client', [{ path: 'body.client_id', message: 'Must be absent for super_admin' }]);
    }
    return null;
  }
  if (changes.client_id === undefined) {
    throw badRequest('client_id is required to give this role', [{ path: 'body.client_id', message: 'Required' }]);
  }
  if (!(await getClient(changes.client_id))) throw notFound('Client not found');
  return changes.client_id;
}

export async function updateUser(principal: Principal, uid: string, changes: UserChanges, req: Request): Promise<User> {
  const { user, record, profile } = await loadUser(uid);
  assertCanSee(principal, user);
  if (principal.role === 'student') throw forbidden('Students cannot change user accounts');
  if (changes.role === 'super_admin' && principal.role !== 'super_admin') {
    throw forbidden('Only a Super Admin can grant super_admin');
  }
  const roleChanges = changes.role !== undefined && changes.role !== user.role;
  if (uid === principal.uid && (roleChanges || changes.disabled === true)) {
    throw forbidden('You cannot change your own role or disable your own account');
  }
  const clientId = await organizationAfter(user, changes);
  if (roleChanges && user.role !== null && isPlatformRole(user.role) !== isPlatformRole(changes.role!)) {
    throw badRequest('A role can only change between client_admin and student; create a new account instead', [
      { path: 'body.role', message: 'Cannot move between platform and organization roles' },
    ]);
  }

  const next: User = {
    ...user,
    display_name: changes.display_name ?? user.display_name,
    role: changes.role ?? user.role,
    client_id: clientId,
    disabled: changes.disabled ?? user.disabled,
    updated_at: new Date().toISOString(),
  };

  // The profile is written first, on condition that nobody changed it since we
  // read it: of two concurrent changes to one user, the second gets 409 before
  // touching Auth, so Auth and the profile never end up telling different stories.
  const batch = db.batch();
  const ref = store.profileRef(uid, next.role, next.client_id);
  if (ref && profile) batch.update(ref, next, { lastUpdateTime: profile.updateTime });
  else if (ref) batch.create(ref, next);
  const event = { actor: principal, userId: uid, clientId };
  const auditRefs = [];
  if (roleChanges) auditRefs.push(addUserEventToBatch(batch, req, { ...event, type: 'role_changed', details: { from: user.role, to: next.role } }));
  if (changes.disabled !== undefined && changes.disabled !== user.disabled) {
    auditRefs.push(addUserEventToBatch(batch, req, { ...event, type: changes.disabled ? 'user_disabled' : 'user_enabled' }));
  }
  try {
    await batch.commit();
  } catch (err) {
    if (hasStatus(err, ...CONCURRENT_CHANGE)) {
      throw conflict('This user was changed by another request at the same moment; read it again and retry');
    }
    throw err;
  }

  const authUpdate: { displayName?: string; disabled?: boolean; password?: string } = {};
  if (changes.display_name !== undefined) authUpdate.displayName = changes.display_name;
  if (changes.disabled !== undefined) authUpdate.disabled = changes.disabled;
  if (changes.password !== undefined) authUpdate.password = changes.password;
  try {
    if (Object.keys(authUpdate).length > 0) await auth.updateUser(uid, authUpdate);
    if (roleChanges) {
      const claims = { ...(record.customClaims ?? {}), role: changes.role, ...(clientId ? { client_id: clientId } : {}) };
      await auth.setCustomUserClaims(uid, claims);
    }
  } catch (err) {
    // Auth refused: take the profile and the audit records back, so nothing half-happened.
    const undo = db.batch();
    if (ref && profile) undo.set(ref, profile.data);
    else if (ref) undo.delete(ref);
    for (const auditRef of auditRefs) undo.delete(auditRef);
    await undo.commit().catch(() => undefined);
    throw translateAuthError(err);
  }
  // The old role (or a disabled account) must not outlive this change in a refresh token.
  if (roleChanges || changes.disabled === true || changes.password !== undefined) await auth.revokeRefreshTokens(uid);
  return next;
}

export async function deleteUser(principal: Principal, uid: string, req: Request): Promise<void> {
  const { user, record } = await loadUser(uid);
  assertCanSee(principal, user);
  if (principal.role === 'student') throw forbidden('Students cannot delete user accounts');
  if (uid === principal.uid) throw forbidden('You cannot delete your own account');
  // Profile and audit record first: if Auth then fails, the retry finds the user
  // and finishes. The record's id names this account (uid and creation time), so
  // of two concurrent deletes only one is recorded; the other finds the user gone.
  const batch = db.batch();
  const ref = store.profileRef(uid, user.role, user.client_id);
  if (ref) batch.delete(ref);
  const deletionId = `user_deleted_${uid}_${Date.parse(record.metadata.creationTime)}`;
  addUserEventToBatch(batch, req, { type: 'user_deleted', actor: principal, userId: uid, clientId: user.client_id, details: { email: user.email } }, deletionId);
  try {
    await batch.commit();
  } catch (err) {
    // Already recorded: another delete is under way, or an earlier one stopped before Auth.
    if (!hasStatus(err, ALREADY_EXISTS)) throw err;
  }
  try {
    await auth.deleteUser(uid);
  } catch (err) {
    if (authCode(err) === 'auth/user-not-found') throw notFound('User not found');
    throw err;
  }
}
