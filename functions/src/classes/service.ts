import { randomUUID } from 'node:crypto';
import { requestMeta } from '../audit';
import {
  assertCanManageClass,
  assertClassMemberCandidate,
  assertManagesClasses,
  classScope,
  organizationFromClaims,
  type Principal,
  roleFromClaims,
} from '../auth';
import { requireClient } from '../clients';
import { loadService as loadInvitations } from '../invitations';
import { auth } from '../firestore';
import { errorText, log } from '../platform';
import { badRequest, type CallContext, notFound, type PageRequest, type RequestOrigin } from '../shared';
import type { Class, ClassChanges, ClassMember, CreateClassInput } from './schemas';
import * as store from './store';

// Classes of an organization and their members. Every decision is the policy's
// (classScope, assertCanManageClass, assertClassMemberCandidate); every write
// is one transaction in store.ts.

const auditOf = (principal: Principal, call: CallContext): store.ClassAudit => ({
  meta: requestMeta(call),
  actorId: principal.uid,
});

/**
 * The organization owning a class id, once the caller may manage that class:
 * the caller's own organization when the class is there (one read), else found
 * across organizations, so that another organization's class answers 403 and
 * an unknown one 404.
 */
async function classOwner(principal: Principal, classId: string): Promise<string> {
  assertManagesClasses(principal);
  if (principal.role !== 'super_admin' && principal.clientId && (await store.findClass(principal.clientId, classId))) {
    assertCanManageClass(principal, { clientId: principal.clientId, classId });
    return principal.clientId;
  }
  const owner = await store.findClassOwner(classId);
  if (!owner) throw notFound('Class not found');
  assertCanManageClass(principal, { clientId: owner, classId });
  return owner;
}

/** Removes the members of deleted classes; what fails now is left listed for the next create or delete to finish. */
async function finishCleanups(clientId: string, classIds: readonly string[]): Promise<void> {
  for (const classId of classIds) {
    try {
      await store.removeMembersOfDeletedClass(clientId, classId);
    } catch (err) {
      log.warn('Members of a deleted class left for the next create or delete', {
        client_id: clientId,
        class_id: classId,
        error: errorText(err),
      });
    }
  }
}

export async function listClasses(principal: Principal, filters: { client_id?: string }, page: PageRequest) {
  const clientId = classScope(principal, filters.client_id, 'query.client_id');
  await requireClient(clientId);
  return store.listClasses(clientId, page);
}

export async function createClass(principal: Principal, input: CreateClassInput, call: CallContext): Promise<Class> {
  const clientId = classScope(principal, input.client_id, 'body.client_id');
  await requireClient(clientId);
  const now = new Date().toISOString();
  const cls: Class = {
    id: randomUUID(),
    client_id: clientId,
    name: input.name,
    code: input.code ?? null,
    member_count: 0,
    created_at: now,
    updated_at: now,
  };
  const { pendingCleanups } = await store.createClass(cls, auditOf(principal, call));
  await finishCleanups(clientId, pendingCleanups);
  return cls;
}

export async function readClass(principal: Principal, classId: string): Promise<Class> {
  const clientId = await classOwner(principal, classId);
  const cls = await store.findClass(clientId, classId);
  if (!cls) throw notFound('Class not found');
  return cls;
}

export async function updateClass(
  principal: Principal,
  classId: string,
  changes: ClassChanges,
  call: CallContext,
): Promise<Class> {
  const clientId = await classOwner(principal, classId);
  return store.updateClass(clientId, classId, changes, new Date().toISOString(), auditOf(principal, call));
}

export async function deleteClass(principal: Principal, classId: string, call: CallContext): Promise<void> {
  const clientId = await classOwner(principal, classId);
  const cleanups = await store.deleteClass(clientId, classId, auditOf(principal, call));
  await finishCleanups(clientId, cleanups);
}

// ---------------------------------------------------------------- members

/**
 * A page of members, each with can_sign_in from Auth: one getUsers call per 100 members of the page,
 * beside nothing else (a page of the default size costs one more round trip, no Firestore read).
 */
export async function listMembers(principal: Principal, classId: string, page: PageRequest) {
  const clientId = await classOwner(principal, classId);
  const members = await store.listMembers(clientId, classId, page);
  const states = await (await loadInvitations()).signInStates(members.data.map((m) => m.uid));
  return { ...members, data: members.data.map((m) => ({ ...m, can_sign_in: states.get(m.uid) ?? false })) };
}

/** Invitation links for the class's members (by default only those who cannot sign in yet). */
export async function inviteMembers(
  principal: Principal,
  classId: string,
  options: { only_cannot_sign_in: boolean },
  origin: RequestOrigin,
  baseUrl: string,
) {
  const clientId = await classOwner(principal, classId);
  const uids = await store.memberUids(clientId, classId);
  return (await loadInvitations()).inviteStudents(
    principal,
    clientId,
    uids,
    { onlyCannotSignIn: options.only_cannot_sign_in, strict: false },
    origin,
    baseUrl,
  );
}

/**
 * Why a uid without a profile in the organization cannot join: its account
 * (read from Auth, only on this path) says whether it is another
 * organization's user (403) or no student at all (400).
 */
async function refuseCandidate(clientId: string, uid: string): Promise<never> {
  let claims: Record<string, unknown> | undefined;
  try {
    claims = (await auth.getUser(uid)).customClaims ?? {};
  } catch (err) {
    if ((err as { code?: string }).code !== 'auth/user-not-found') throw err;
  }
  const candidate = claims && { role: roleFromClaims(claims), clientId: organizationFromClaims(claims) };
  assertClassMemberCandidate(clientId, candidate);
  // A student of this organization by its claims, but without a profile: not an account the service made.
  throw badRequest('This student has no profile in the organization', [
    { path: 'params.uid', message: 'No profile in this organization' },
  ]);
}

export async function addMember(
  principal: Principal,
  classId: string,
  uid: string,
  call: CallContext,
): Promise<ClassMember> {
  const clientId = await classOwner(principal, classId);
  try {
    return (await store.addMember(clientId, classId, uid, auditOf(principal, call))).member;
  } catch (err) {
    if (err instanceof store.NoProfileHere) return refuseCandidate(clientId, uid);
    throw err;
  }
}

export async function removeMember(principal: Principal, classId: string, uid: string, call: CallContext) {
  const clientId = await classOwner(principal, classId);
  await store.removeMember(clientId, classId, uid, auditOf(principal, call));
}
