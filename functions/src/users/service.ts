import type { UserRecord } from 'firebase-admin/auth';
import { FieldValue, type DocumentReference } from 'firebase-admin/firestore';
import { errorText, log } from '../platform';
import { addUserEventToBatch, requestMeta } from '../audit';
import { leaveClasses } from './classMemberships';
import { standingAccommodations } from './standingAccommodations';
import {
  assertCanChangeUser,
  assertCanDeleteUser,
  assertCanInviteUser,
  assertCanReadUser,
  claimsFor,
  forgetAccount,
  organizationForNewUser,
  organizationFromClaims,
  type Principal,
  type Role,
  roleFromClaims,
  studentImportScope,
  tenantScope,
  type UserSubject,
} from '../auth';
import { requireClient } from '../clients';
import { ALREADY_EXISTS, auth, db, FAILED_PRECONDITION, hasStatus, NOT_FOUND } from '../firestore';
import { badRequest, conflict, notFound, pageInfo, type PageRequest, type RequestOrigin } from '../shared';
import type { StoredProfile } from './documents';
import { foldForSearch, searchKeysOf } from './searchKeys';
import { newProfile } from './profiles';
import { provisionAccounts, type Provisioned } from './provisionAccounts';
import type { Invitation } from './importSchemas';
import { canSignIn, loadService as loadInvitations } from '../invitations';
import { invitationFor } from './invitations';
import type { CreatedUser, CreateUserInput, User, UserChanges } from './schemas';
import * as store from './store';

// Auth holds identity (email, disabled, role claims); the profile document
// mirrors it for listing. Records come before privileges: the profile and its
// audit record are committed before any claim is granted, so a crash at any
// point leaves no privileged account that the audit log does not know about.

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

const roleOf = (record: UserRecord): Role | null => roleFromClaims(record.customClaims);
const clientOf = (record: UserRecord): string | null => organizationFromClaims(record.customClaims);
const subject = (user: User): UserSubject => ({ uid: user.uid, role: user.role, clientId: user.client_id });

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
    ...(profile?.lms_email ? { lms_email: profile.lms_email } : {}),
    ...(profile?.candidate_number ? { candidate_number: profile.candidate_number } : {}),
  };
}

async function requireUser(uid: string): Promise<{ user: User; record: UserRecord; profile?: store.ProfileRead }> {
  let record: UserRecord;
  try {
    record = await auth.getUser(uid);
  } catch (err) {
    if (authCode(err) === 'auth/user-not-found') throw notFound('User not found');
    throw err;
  }
  const profile = await store.findProfile(store.profileRef(uid, roleOf(record), clientOf(record)));
  return { user: toUser(record, profile?.data), record, profile };
}

export async function createUser(
  principal: Principal,
  input: CreateUserInput,
  origin: RequestOrigin,
  baseUrl: string,
): Promise<CreatedUser> {
  if (input.role !== 'super_admin' && principal.role === 'super_admin' && input.client_id === undefined) {
    throw badRequest('client_id is required for this role', [{ path: 'body.client_id', message: 'Required' }]);
  }
  const clientId = organizationForNewUser(principal, input.role, input.client_id);
  if (clientId) await requireClient(clientId);

  // 1. The account, with no claims: until step 3 it can do nothing but GET /api/me.
  const { user } = await provisionAccounts(
    [
      {
        email: input.email,
        displayName: input.display_name,
        ...(input.password !== undefined ? { password: input.password } : {}),
      },
    ],
    {
      role: input.role,
      clientId,
      refused: translateAuthError,
      // 2. The profile and its user_created record, together.
      write: ([account]) => recordUser(principal, account, input, clientId, origin),
      // 3. Only then the privileges, which the record above already announces.
      claimsAfterWrite: { undo: unrecord },
    },
  );
  if (input.password !== undefined) return user;
  // No password: the link to choose one. The account stands without it; a new link can be asked for.
  try {
    const target = { uid: user.uid, email: user.email!, display_name: user.display_name, client_id: clientId };
    return { ...user, invitation_link: (await invitationFor(principal, target, origin, baseUrl)).link };
  } catch (err) {
    log.warn('An invitation link could not be made', { uid: user.uid, error: errorText(err) });
    return user;
  }
}

/**
 * A new invitation link for an account (one the API created without a password, or whose link
 * expired), revoking its previous one. Recorded as invitation_issued; the service keeps only its digest.
 */
export async function inviteUser(
  principal: Principal,
  uid: string,
  origin: RequestOrigin,
  baseUrl: string,
): Promise<Invitation> {
  const { user } = await requireUser(uid);
  assertCanInviteUser(principal, subject(user));
  if (!user.email) throw conflict('This account has no email to send an invitation to');
  if (user.disabled) throw conflict('This account is deactivated: reactivate it first');
  const target = { uid, email: user.email, display_name: user.display_name, client_id: user.client_id };
  const { link, expires_at } = await invitationFor(principal, target, origin, baseUrl);
  return { uid, email: user.email, invitation_link: link, expires_at };
}

/** Revokes the user's live invitation link: whoever may invite it may. */
export async function revokeUserInvitation(principal: Principal, uid: string, origin: RequestOrigin): Promise<void> {
  const { user } = await requireUser(uid);
  assertCanInviteUser(principal, subject(user));
  await (await loadInvitations()).revokeInvitation(principal, uid, user.client_id, origin);
}

/** Links for many students of one organization (POST /api/users/invitations). */
export async function inviteStudents(
  principal: Principal,
  body: { uids: string[]; client_id?: string; only_cannot_sign_in: boolean },
  origin: RequestOrigin,
  baseUrl: string,
) {
  const clientId = studentImportScope(principal, body.client_id);
  if (principal.role === 'super_admin') await requireClient(clientId);
  return (await loadInvitations()).inviteStudents(
    principal,
    clientId,
    body.uids,
    { onlyCannotSignIn: body.only_cannot_sign_in, strict: true },
    origin,
    baseUrl,
  );
}

/** A new user's profile and its user_created record, in one batch. */
async function recordUser(
  principal: Principal,
  account: Provisioned,
  input: CreateUserInput,
  clientId: string | null,
  origin: RequestOrigin,
) {
  const user = newProfile(
    {
      uid: account.uid,
      email: account.email ?? input.email,
      display_name: input.display_name,
      role: input.role,
      client_id: clientId,
    },
    new Date().toISOString(),
  );
  const ref = store.profileRef(user.uid, user.role, clientId)!;
  const batch = db.batch();
  batch.create(ref, user);
  const auditRef = addUserEventToBatch(batch, origin, {
    type: 'user_created',
    actor: principal,
    userId: user.uid,
    clientId,
    details: { role: user.role },
  });
  await batch.commit();
  return { user, ref, auditRef };
}

/** The claims were refused: the profile and its record go too. If that fails, what is left is recorded and holds no role. */
async function unrecord(written: { user: { uid: string }; ref: DocumentReference; auditRef: DocumentReference }) {
  const undo = db.batch();
  undo.delete(written.ref);
  undo.delete(written.auditRef);
  await undo.commit().catch((err) =>
    log.error('User creation undone only in part: profile and record left for an account without claims', {
      uid: written.user.uid,
      error: errorText(err),
    }),
  );
}

export async function readUser(principal: Principal, uid: string): Promise<User> {
  const { user, record } = await requireUser(uid);
  assertCanReadUser(principal, subject(user));
  // Said in the reply only, never stored with the profile: Auth is where it is true.
  return { ...user, can_sign_in: canSignIn(record) };
}

/**
 * GET /api/users/{uid}: the user as readUser answers it and, for a student, its classes (from its
 * profile, already read) and its standing accommodation (one more read), as the list says them.
 */
export async function showUser(principal: Principal, uid: string): Promise<User> {
  const { user, record, profile } = await requireUser(uid);
  assertCanReadUser(principal, subject(user));
  const [shown] = await withStudentDetails(user.client_id, [
    { ...user, can_sign_in: canSignIn(record), class_ids: profile?.data.class_ids },
  ]);
  return shown!;
}

/**
 * Each student of a page with its classes (its profile's class_ids, [] when none) and its standing
 * accommodation (null when none): the page's accommodations are one getAll, whatever the page's size,
 * and a read that fails fails the whole reply (503), never a page without them. Every other role has neither.
 */
async function withStudentDetails(clientId: string | null, users: StoredProfile[]): Promise<User[]> {
  const students = users.filter((u) => u.role === 'student').map((u) => u.uid);
  const held = clientId && students.length > 0 ? await standingAccommodations(clientId, students) : new Map();
  // The search keys go with the reply's schema; class_ids left on a former student's profile go here.
  return users.map(({ class_ids, ...user }) =>
    user.role === 'student' ? { ...user, class_ids: class_ids ?? [], accommodation: held.get(user.uid) ?? null } : user,
  );
}

export async function listUsers(
  principal: Principal,
  query: { client_id?: string; role?: Role; disabled?: boolean; q?: string },
  page: PageRequest,
) {
  if (principal.role === 'super_admin' && query.role === 'super_admin' && query.client_id === undefined) {
    if (query.q !== undefined)
      return searchResult(
        await store.searchSuperAdmins({ disabled: query.disabled }, fold(query.q), page.limit),
        page.limit,
      );
    return store.listSuperAdmins({ disabled: query.disabled }, page);
  }
  const clientId = tenantScope(principal, query.client_id);
  // A Client Admin's own organization exists (authentication checked it is active); a named one may not.
  if (principal.role === 'super_admin') await requireClient(clientId);
  const filters = { role: query.role, disabled: query.disabled };
  const found =
    query.q !== undefined
      ? searchResult(await store.searchTenantUsers(clientId, filters, fold(query.q), page.limit), page.limit)
      : await store.listTenantUsers(clientId, filters, page);
  return withSignIn(clientId, found);
}

/**
 * Each user of a page with can_sign_in, read from Auth: one getUsers call per 100 users (a page is at
 * most that), so a page costs one more round trip; beside it, in parallel, its students' classes and
 * accommodations (withStudentDetails: one getAll).
 */
async function withSignIn<T extends { data: StoredProfile[] }>(
  clientId: string,
  page: T,
): Promise<Omit<T, 'data'> & { data: User[] }> {
  const [states, data] = await Promise.all([
    loadInvitations().then((invitations) => invitations.signInStates(page.data.map((u) => u.uid))),
    withStudentDetails(clientId, page.data),
  ]);
  return { ...page, data: data.map((u) => ({ ...u, can_sign_in: states.get(u.uid) ?? false })) };
}

/** Text that folds to nothing (combining marks alone) would match everyone: it matches no one instead. */
const fold = (q: string): string | null => foldForSearch(q) || null;

/** A search is one page: its total is what it found (at most the limit), and there is no next one. */
function searchResult<T>(data: T[], limit: number) {
  return { data, pagination: pageInfo(1, limit, data.length, null) };
}

const isPlatformRole = (role: Role | null) => role === 'super_admin';

// Firestore's answers when a conditional write finds the document changed or taken.
const CONCURRENT_CHANGE = [NOT_FOUND, ALREADY_EXISTS, FAILED_PRECONDITION];

/**
 * The organization a user belongs to after `changes`. It is fixed once a user has
 * a role; `client_id` names it only when giving a first role to a user with none
 * (the policy has already checked the caller may name it).
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
      throw badRequest('A Super Admin belongs to no client', [
        { path: 'body.client_id', message: 'Must be absent for super_admin' },
      ]);
    }
    return null;
  }
  if (changes.client_id === undefined) {
    throw badRequest('client_id is required to give this role', [{ path: 'body.client_id', message: 'Required' }]);
  }
  await requireClient(changes.client_id);
  return changes.client_id;
}

export async function updateUser(
  principal: Principal,
  uid: string,
  changes: UserChanges,
  origin: RequestOrigin,
): Promise<User> {
  const { user, record, profile } = await requireUser(uid);
  assertCanChangeUser(principal, subject(user), changes);
  const roleChanges = changes.role !== undefined && changes.role !== user.role;
  const firstRole = roleChanges && user.role === null;
  const clientId = await organizationAfter(user, changes);
  if (roleChanges && !firstRole && isPlatformRole(user.role) !== isPlatformRole(changes.role!)) {
    throw badRequest('A role can only change between client_admin and student; create a new account instead', [
      { path: 'body.role', message: 'Cannot move between platform and organization roles' },
    ]);
  }

  const { candidate_number: _dropped, ...kept } = user;
  const candidateNumber = changes.candidate_number === undefined ? user.candidate_number : changes.candidate_number;
  const next: User = {
    ...kept,
    ...(candidateNumber ? { candidate_number: candidateNumber } : {}),
    display_name: changes.display_name ?? user.display_name,
    role: changes.role ?? user.role,
    client_id: clientId,
    disabled: changes.disabled ?? user.disabled,
    updated_at: new Date().toISOString(),
  };

  // The profile and the audit records are written first, on condition that
  // nobody changed the profile since we read it: of two concurrent changes to
  // one user, the second gets 409 before touching Auth, so Auth and the profile
  // never end up telling different stories, and no privilege is granted unrecorded.
  const batch = db.batch();
  const ref = store.profileRef(uid, next.role, next.client_id);
  // The search keys follow the name (and give a profile written before they existed its keys).
  const stored: StoredProfile = { ...next, ...searchKeysOf(next) };
  // A cleared candidate number is removed from the profile (the update merges the fields it names).
  const cleared = changes.candidate_number === null ? { candidate_number: FieldValue.delete() } : {};
  if (ref && profile) batch.update(ref, { ...stored, ...cleared }, { lastUpdateTime: profile.updateTime });
  else if (ref) batch.create(ref, stored);
  const event = { actor: principal, userId: uid, clientId };
  const auditRefs = [];
  if (roleChanges) {
    // A first role can be granted once: the record's fixed id makes a concurrent
    // second grant (to another organization, say) fail as a whole.
    const onceId = firstRole ? `first_role_${uid}` : undefined;
    auditRefs.push(
      addUserEventToBatch(
        batch,
        origin,
        { ...event, type: 'role_changed', details: { from: user.role, to: next.role } },
        onceId,
      ),
    );
  }
  if (changes.disabled !== undefined && changes.disabled !== user.disabled) {
    auditRefs.push(
      addUserEventToBatch(batch, origin, { ...event, type: changes.disabled ? 'user_disabled' : 'user_enabled' }),
    );
  }
  if (changes.password !== undefined)
    auditRefs.push(addUserEventToBatch(batch, origin, { ...event, type: 'password_changed' }));
  if (changes.candidate_number !== undefined && (changes.candidate_number ?? undefined) !== user.candidate_number) {
    auditRefs.push(
      addUserEventToBatch(batch, origin, {
        ...event,
        type: 'profile_changed',
        details: { candidate_number: { from: user.candidate_number ?? null, to: changes.candidate_number } },
      }),
    );
  }
  if (changes.display_name !== undefined && changes.display_name !== user.display_name) {
    auditRefs.push(
      addUserEventToBatch(batch, origin, {
        ...event,
        type: 'profile_changed',
        details: { display_name: { from: user.display_name, to: next.display_name } },
      }),
    );
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
    if (roleChanges)
      await auth.setCustomUserClaims(uid, { ...(record.customClaims ?? {}), ...claimsFor(next.role!, clientId) });
  } catch (err) {
    // Auth refused: take the profile and the audit records back, so nothing half-happened.
    const undo = db.batch();
    if (ref && profile) undo.set(ref, profile.data);
    else if (ref) undo.delete(ref);
    for (const auditRef of auditRefs) undo.delete(auditRef);
    await undo.commit().catch((undoErr) =>
      log.error('User change undone only in part: the profile and records say more than Auth did', {
        uid,
        error: errorText(undoErr),
      }),
    );
    throw translateAuthError(err);
  }
  // The old role (or a disabled account, or an old password) must not outlive this change in a refresh token.
  if (roleChanges || changes.disabled === true || changes.password !== undefined) {
    await auth.revokeRefreshTokens(uid);
    forgetAccount(uid); // this instance refuses the old tokens at once, the others within ACCOUNT_RECHECK_MS
  }
  // A student who becomes an administrator leaves its classes (it would come back to them, and to their
  // tests, with a later student role). The role has changed by now: a failure here is logged, not undone.
  if (roleChanges && user.role === 'student' && user.client_id && profile?.data.class_ids?.length) {
    await leaveClasses(user.client_id, uid, profile.data.class_ids, {
      meta: requestMeta(origin),
      actorId: principal.uid,
    }).catch((err) =>
      log.error('A former student is left in classes; remove it from them', { uid, error: errorText(err) }),
    );
  }
  return next;
}

export async function deleteUser(principal: Principal, uid: string, origin: RequestOrigin): Promise<void> {
  const { user, record, profile } = await requireUser(uid);
  assertCanDeleteUser(principal, subject(user));
  // Out of its classes first, while its profile still says which: a retry after a failure finds them again.
  if (user.client_id && profile?.data.class_ids?.length)
    await leaveClasses(user.client_id, uid, profile.data.class_ids, {
      meta: requestMeta(origin),
      actorId: principal.uid,
    });
  // Profile and audit record first: if Auth then fails, the retry finds the user
  // and finishes. The record's id names this account (uid and creation time), so
  // of two concurrent deletes only one is recorded; the other finds the user gone.
  const batch = db.batch();
  const ref = store.profileRef(uid, user.role, user.client_id);
  if (ref) batch.delete(ref);
  const deletionId = `user_deleted_${uid}_${Date.parse(record.metadata.creationTime)}`;
  addUserEventToBatch(
    batch,
    origin,
    { type: 'user_deleted', actor: principal, userId: uid, clientId: user.client_id, details: { email: user.email } },
    deletionId,
  );
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
  forgetAccount(uid);
}
