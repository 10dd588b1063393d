import { badRequest, forbidden, notFound } from '../shared';
import type { AccountFacts } from './accountStatus';
import { organizationFromClaims, roleFromClaims } from './claims';
import type { CallerRole, Principal, Role } from './principal';

// Pure authorization policy: every access decision of the service is made
// here, so a reviewer reads one file to know who may do what. Services call it
// with what they loaded; nothing here touches Firestore or Auth.

/** Who may call a route: anyone, any signed-in user (even without a role), or these roles. */
export type Access = 'public' | 'signed_in' | readonly CallerRole[];

export function assertRole(principal: Principal, allowed: readonly CallerRole[]): void {
  if (principal.role === null) {
    throw forbidden('Your account has no role yet; an administrator must assign one');
  }
  if (!allowed.includes(principal.role)) {
    throw forbidden(`This operation is not allowed for role ${principal.role}`);
  }
}

// ---------------------------------------------------------------- tenants

/**
 * The client a tenant query or write runs against, from a `client_id` the
 * caller sent (query or body). A Super Admin names it (required unless
 * `optionalForSuperAdmin`); everyone else gets their own organization and may
 * not name another. A caller without an organization (a Guest, a user with no
 * role) has none to act in.
 */
export function tenantScope(
  principal: Principal,
  requested: string | undefined,
  opts?: { optionalForSuperAdmin?: false; field?: string },
): string;
export function tenantScope(
  principal: Principal,
  requested: string | undefined,
  opts: { optionalForSuperAdmin: true; field?: string },
): string | undefined;
export function tenantScope(
  principal: Principal,
  requested: string | undefined,
  opts: { optionalForSuperAdmin?: boolean; field?: string } = {},
): string | undefined {
  if (principal.role === 'super_admin') {
    if (requested === undefined && !opts.optionalForSuperAdmin) {
      throw badRequest('client_id is required for a Super Admin', [
        { path: opts.field ?? 'query.client_id', message: 'Required' },
      ]);
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
export function assertTenantAccess(principal: Principal, resourceClientId: string | null): void {
  if (principal.role === 'super_admin') return;
  if (!principal.clientId || principal.clientId !== resourceClientId)
    throw forbidden('You cannot access another organization');
}

// ---------------------------------------------------------------- clients

export const assertCanReadClient = (principal: Principal, clientId: string): void =>
  assertTenantAccess(principal, clientId);

export function assertCanChangeClient(
  principal: Principal,
  clientId: string,
  changes: { active_status?: number },
): void {
  assertTenantAccess(principal, clientId);
  if (principal.role !== 'super_admin' && changes.active_status !== undefined) {
    throw forbidden('Only a Super Admin can activate or deactivate a client');
  }
}

// ---------------------------------------------------------------- networks

/**
 * An organization's registered networks, read or replaced: a Super Admin any
 * organization's, a Client Admin its own. They decide how the organization's
 * requests are rate limited and where its on-site-only tests may be taken, so
 * Students and Guests neither see nor set them.
 */
export function assertCanManageNetworks(principal: Principal, clientId: string): void {
  assertRole(principal, ['super_admin', 'client_admin']);
  assertTenantAccess(principal, clientId);
}

// ---------------------------------------------------------------- webhooks

/**
 * An organization's webhook endpoints and their deliveries: a Super Admin any
 * organization's, a Client Admin its own. They carry the organization's
 * attempts to other systems and hold signing secrets, so no one else sees them.
 */
export function assertCanManageWebhooks(principal: Principal, clientId: string): void {
  assertRole(principal, ['super_admin', 'client_admin']);
  assertTenantAccess(principal, clientId);
}

// ---------------------------------------------------------------- audit log

/** Super Admins read every record (optionally one organization's); a Client Admin only its own organization's. */
export const auditScope = (principal: Principal, requested: string | undefined): string | undefined =>
  tenantScope(principal, requested, { optionalForSuperAdmin: true });

// ---------------------------------------------------------------- users

/** A user account as authorization sees it. `clientId` is null unless the user holds an organization role. */
export interface UserSubject {
  uid: string;
  role: Role | null;
  clientId: string | null;
}

const RANK: Record<Role, number> = { super_admin: 3, client_admin: 2, student: 1 };
const rank = (role: CallerRole | null): number => (role && role !== 'guest' ? RANK[role] : 0);

/** 403 unless the caller may see this user: Super Admin anyone, Client Admin its organization, Student itself. */
export function assertCanReadUser(principal: Principal, target: UserSubject): void {
  if (principal.role === 'super_admin') return;
  if (principal.role === 'student') {
    if (principal.uid !== target.uid) throw forbidden('Students can only read their own profile');
    return;
  }
  if (principal.role !== 'client_admin') throw forbidden('You cannot access user accounts');
  if (!target.clientId) throw forbidden('You cannot access users outside your organization');
  assertTenantAccess(principal, target.clientId);
}

/** The organization a new account joins, or null for a Super Admin; 403/400 when the caller may not create it. */
export function organizationForNewUser(
  principal: Principal,
  role: Role,
  requestedClientId: string | undefined,
): string | null {
  if (role === 'super_admin') {
    if (principal.role !== 'super_admin') throw forbidden('Only a Super Admin can create a Super Admin');
    if (requestedClientId !== undefined) {
      throw badRequest('A Super Admin belongs to no client', [
        { path: 'body.client_id', message: 'Must be absent for super_admin' },
      ]);
    }
    return null;
  }
  return tenantScope(principal, requestedClientId, { field: 'body.client_id' });
}

export interface UserChangeRequest {
  role?: Role;
  disabled?: boolean;
  password?: string;
  display_name?: string;
  client_id?: string;
}

/**
 * 403 unless the caller may make these changes. Besides seeing the user:
 * - only a Super Admin grants super_admin;
 * - nobody changes its own role or disables itself;
 * - a password is set by its owner or by a strictly higher rank (Super Admin
 *   over Client Admins and Students, Client Admin over its Students), so no
 *   administrator can silently take over another of the same rank;
 * - likewise only a strictly higher rank changes an administrator's role: a
 *   Client Admin cannot demote a peer (and then set its password as a Student's);
 * - a first role's organization (`client_id`) goes through the tenant check
 *   like any other client_id a caller sends.
 */
export function assertCanChangeUser(principal: Principal, target: UserSubject, changes: UserChangeRequest): void {
  assertCanReadUser(principal, target);
  if (principal.role === 'student') throw forbidden('Students cannot change user accounts');
  if (changes.role === 'super_admin' && principal.role !== 'super_admin') {
    throw forbidden('Only a Super Admin can grant super_admin');
  }
  const self = target.uid === principal.uid;
  if (self && ((changes.role !== undefined && changes.role !== target.role) || changes.disabled === true)) {
    throw forbidden('You cannot change your own role or disable your own account');
  }
  if (changes.password !== undefined && !self && rank(principal.role) <= rank(target.role)) {
    throw forbidden('Only the account’s owner or a higher-ranking administrator can set its password');
  }
  // A Super Admin's role never changes here at all (the service answers 400), so this concerns Client Admins.
  const demotable = target.role === 'client_admin';
  if (
    changes.role !== undefined &&
    changes.role !== target.role &&
    !self &&
    demotable &&
    rank(principal.role) <= rank(target.role)
  ) {
    throw forbidden('Only a higher-ranking administrator can change the role of an administrator of your rank');
  }
  if (changes.client_id !== undefined) tenantScope(principal, changes.client_id, { field: 'body.client_id' });
}

/** An invitation link sets the account's password: whoever may set its password may invite it. */
export const assertCanInviteUser = (principal: Principal, target: UserSubject): void =>
  assertCanChangeUser(principal, target, { password: '' });

/** The organization a roster of students is imported into: a Client Admin's own, the one a Super Admin names. */
export const studentImportScope = (principal: Principal, requested: string | undefined): string =>
  tenantScope(principal, requested, { field: 'query.client_id' });

export function assertCanDeleteUser(principal: Principal, target: UserSubject): void {
  assertCanReadUser(principal, target);
  if (principal.role === 'student') throw forbidden('Students cannot delete user accounts');
  if (target.uid === principal.uid) throw forbidden('You cannot delete your own account');
}

// ---------------------------------------------------------------- folders and questions

/**
 * Folders and the question bank are authored by administrators: Super Admins
 * for any organization, Client Admins for their own. Students and Guests meet
 * questions only inside attempts (never with answer keys), so every folder and
 * question-bank endpoint refuses them with 403.
 */
export const QUESTION_BANK_ROLES = ['super_admin', 'client_admin'] as const;

/** The organization a folder or question-bank request acts in (`client_id` from query or body). */
export function questionBankScope(principal: Principal, requested: string | undefined, field: string): string {
  assertRole(principal, QUESTION_BANK_ROLES);
  return tenantScope(principal, requested, { field });
}

/** Object-level check on a folder or question already loaded: 403 when it belongs to another organization. */
export function assertCanManageQuestionBank(principal: Principal, resourceClientId: string): void {
  assertRole(principal, QUESTION_BANK_ROLES);
  assertTenantAccess(principal, resourceClientId);
}

// ---------------------------------------------------------------- LTI platforms

/** An organization's LMS registrations: its Client Admin or a Super Admin; another organization's id is 403. */
export function assertCanManageLtiPlatforms(principal: Principal, clientId: string): void {
  assertRole(principal, ['super_admin', 'client_admin']);
  assertTenantAccess(principal, clientId);
}

/** A deep-linking session is used only by the user its launch signed in. */
export function assertOwnsDeepLinkSession(principal: Principal, session: { uid: string; clientId: string }): void {
  if (principal.uid !== session.uid || principal.clientId !== session.clientId)
    throw forbidden('This deep-linking session belongs to another launch');
}

// ---------------------------------------------------------------- classes

/**
 * Who manages classes and their members today: a Super Admin in any
 * organization, a Client Admin in its own. Students and Guests never (403).
 * Decisions about one class take the class (`assertCanManageClass`), so a
 * later role (a Teacher) can be allowed the classes it teaches without
 * changing any caller.
 */
export const CLASS_MANAGERS = ['super_admin', 'client_admin'] as const;

/** 403 before anything is read for a caller who manages no class at all (Students, Guests, no role). */
export const assertManagesClasses = (principal: Principal): void => assertRole(principal, CLASS_MANAGERS);

/** The organization a class listing or a new class is for (`client_id` from query or body). */
export function classScope(principal: Principal, requested: string | undefined, field = 'query.client_id'): string {
  assertRole(principal, CLASS_MANAGERS);
  return tenantScope(principal, requested, { field });
}

/** Object-level check on a class already found: its name, code and members; 403 for another organization's. */
export function assertCanManageClass(principal: Principal, cls: { clientId: string; classId: string }): void {
  assertRole(principal, CLASS_MANAGERS);
  assertTenantAccess(principal, cls.clientId);
}

/** A user as a class member candidate: its account's role and organization, or undefined when no account has that uid. */
export interface MemberCandidate {
  role: CallerRole | null;
  clientId: string | null;
}

/**
 * Only a student of the class's own organization joins a class. Another
 * organization's user is 403 (as any other cross-tenant reference); a uid that
 * is no user, or a user that is not a student (an administrator, a Guest, an
 * account without a role), is 400.
 */
export function assertClassMemberCandidate(classClientId: string, candidate: MemberCandidate | undefined): void {
  const invalid = (message: string) => badRequest(message, [{ path: 'params.uid', message }]);
  if (!candidate) throw invalid('No user has this uid');
  if (candidate.clientId !== null && candidate.clientId !== classClientId)
    throw forbidden('A class cannot hold another organization’s user');
  if (candidate.role !== 'student' || candidate.clientId === null) throw invalid('Only a student can join a class');
}

// ---------------------------------------------------------------- tests and share codes

const TEST_AUTHORS = ['super_admin', 'client_admin'] as const;

/** Who writes tests and share codes: a Super Admin anywhere, a Client Admin in its own organization. */
export function assertCanAuthorTests(principal: Principal, clientId: string): void {
  assertRole(principal, TEST_AUTHORS);
  assertTenantAccess(principal, clientId);
}

/** @alias Share codes are managed by whoever may author the test: the same rule, named for its callers. */
export const assertCanManageShareCodes = assertCanAuthorTests;

/**
 * A sitting's settings and people (delivery settings, overrides, accommodations,
 * extra time, submitting for a taker): a Super Admin anywhere, a Client Admin in
 * its own organization. Students and Guests change nothing of a sitting.
 */
export function assertCanManageSitting(principal: Principal, clientId: string): void {
  assertRole(principal, TEST_AUTHORS);
  assertTenantAccess(principal, clientId);
}

/**
 * The live view of a sitting: its attempts in progress (GET /attempts with test_id, attemptListScope
 * for an administrator) and who of its audience has not started (GET /tests/{testId}/not-started):
 * a Super Admin any test's, a Client Admin its organization's. Students and Guests never (403).
 */
export function assertCanWatchSitting(principal: Principal, test: { clientId: string }): void {
  assertRole(principal, TEST_AUTHORS);
  assertTenantAccess(principal, test.clientId);
}

/** Authors see a test whole (question_ids included); students see its public fields. */
export const testViewFor = (principal: Principal): 'author' | 'student' =>
  principal.role === 'super_admin' || principal.role === 'client_admin' ? 'author' : 'student';

/**
 * The organization and status a test listing covers. Students see published
 * tests only: asking for drafts or archived tests is refused (403) rather than
 * answered with an empty page that would look like "there are none".
 */
export function testListScope(
  principal: Principal,
  requested: { client_id?: string; status?: string },
): { clientId: string; status?: string; byClasses: boolean } {
  assertRole(principal, ['super_admin', 'client_admin', 'student']);
  const clientId = tenantScope(principal, requested.client_id);
  if (principal.role !== 'student') return { clientId, status: requested.status, byClasses: false };
  if (requested.status !== undefined && requested.status !== 'published')
    throw forbidden('Students see published tests only');
  // A student lists only what is open to it: the organization's open tests and its classes' (testOpenToStudent).
  return { clientId, status: 'published', byClasses: true };
}

/** 403 for another organization's test. */
export function assertCanReadTest(principal: Principal, test: { clientId: string }): void {
  assertRole(principal, ['super_admin', 'client_admin', 'student']);
  assertTenantAccess(principal, test.clientId);
}

/**
 * Whether a student of these classes may list, read and start the test: one assigned
 * to no class is open to the whole organization (a test stored before assignments
 * too); one assigned to classes, to their students only.
 */
export const testOpenToStudent = (
  test: { assigned_class_ids?: readonly string[] },
  classIds: readonly string[],
): boolean => {
  const assigned = test.assigned_class_ids ?? [];
  return assigned.length === 0 || assigned.some((id) => classIds.includes(id));
};

/** Whether reading the test for this caller needs its classes: a student's, on a test assigned to classes. */
export const testVisibilityNeedsClasses = (principal: Principal, test: { assigned_class_ids?: readonly string[] }) =>
  testViewFor(principal) === 'student' && (test.assigned_class_ids ?? []).length > 0;

/**
 * Whether the caller may know the test exists at all: a student sees its organization's
 * published tests open to it only (else 404, the same as for none).
 */
export const testVisibleTo = (
  principal: Principal,
  test: { status: string; assigned_class_ids?: readonly string[] },
  classIds: readonly string[],
): boolean => testViewFor(principal) === 'author' || (test.status === 'published' && testOpenToStudent(test, classIds));

/** A test draws its questions, folders and classes from its own organization only: another's, named in a body, is 403. */
export function assertSameOrganizationReferences(
  testClientId: string,
  references: Array<{ field: string; id: string; clientId: string }>,
): void {
  const foreign = references.filter((r) => r.clientId !== testClientId);
  if (foreign.length > 0) {
    throw forbidden(`A test cannot use another organization's ${foreign.map((r) => `${r.field} ${r.id}`).join(', ')}`);
  }
}

// ---------------------------------------------------------------- attempts

/**
 * Whoever holds a valid attempt token for this attempt, without signing in: a
 * Guest's way in. It belongs to no organization and opens this attempt only.
 */
export interface AttemptTokenHolder {
  attemptTokenFor: string;
  /**
   * Whom the token was issued to (the start or resume that made it, kept on the
   * attempt beside its hash, so no holder can claim another): absent on
   * attempts from before it was kept, which speak for their taker.
   */
  issuedTo?: TokenIssuer;
}

/** Who started (or resumed) an attempt and so received its current token. */
export interface TokenIssuer {
  uid: string;
  role: CallerRole | null;
}

export interface AttemptSubject {
  id: string;
  clientId: string;
  studentId: string;
}

/**
 * Super Admin any attempt; Client Admin its organization's; a Student or a
 * signed-in Guest its own; an attempt-token holder only the attempt the token
 * was issued for.
 */
export function assertCanUseAttempt(caller: Principal | AttemptTokenHolder, attempt: AttemptSubject): void {
  if ('attemptTokenFor' in caller) {
    if (caller.attemptTokenFor !== attempt.id) throw forbidden('This attempt token belongs to another attempt');
    return;
  }
  if (caller.role === 'super_admin') return;
  if (caller.role === 'client_admin') return assertTenantAccess(caller, attempt.clientId);
  if (caller.role === 'student') {
    assertTenantAccess(caller, attempt.clientId);
    if (caller.uid !== attempt.studentId) throw forbidden('This attempt belongs to another student');
    return;
  }
  if (caller.role === 'guest' && caller.uid === attempt.studentId) return;
  throw forbidden('You cannot access this attempt');
}

/**
 * What must still be checked before `caller` uses an attempt, because nothing
 * before the handler checked it (every way into an attempt checks who and where):
 * - `organization`: the attempt's organization must be active. Authentication
 *   checks a Student's and a Client Admin's own organization, which is the
 *   attempt's (assertCanUseAttempt); a Guest has no organization claim and an
 *   attempt-token holder no ID token at all, so theirs is checked here. A Super
 *   Admin works across organizations, active or not.
 * - `takerAccount`: the taker's account (the attempt's student_id) must still
 *   exist and be enabled. A bearer token's writes are checked by Auth itself; an
 *   attempt token speaks for the taker without any.
 */
export function attemptChecks(caller: Principal | AttemptTokenHolder): {
  organization: boolean;
  takerAccount: boolean;
} {
  if ('attemptTokenFor' in caller) return { organization: true, takerAccount: true };
  return { organization: caller.role === 'guest', takerAccount: false };
}

/** 403 unless the organization (as just read; undefined: it no longer exists) is active. `what` says whose: "attempt’s", "share code’s". */
export function assertOrganizationActive(client: { active_status: number } | undefined, what: string): void {
  if (client?.active_status !== 1) throw forbidden(`This ${what} organization is not active`);
}

/**
 * Why an attempt token may no longer be used: the account it was issued to is
 * gone or disabled, or, issued to an administrator, no longer holds that role
 * over the attempt's organization (as a bearer token of an administrator whose
 * role or organization changed is refused: accountVerdict).
 */
export function tokenIssuerRefusal(
  facts: Pick<AccountFacts, 'exists' | 'disabled' | 'claims'>,
  issuer: TokenIssuer,
  attempt: Pick<AttemptSubject, 'clientId'>,
): 'disabled' | 'revoked' | null {
  const refusal = takerAccountRefusal(facts);
  if (refusal) return refusal;
  if (!isAdministratorRole(issuer.role)) return null;
  if (roleFromClaims(facts.claims) !== issuer.role) return 'revoked';
  return issuer.role === 'client_admin' && organizationFromClaims(facts.claims) !== attempt.clientId ? 'revoked' : null;
}

/** Why an attempt's taker may no longer use it ('disabled', 'revoked' for a deleted account), or null while its account stands. */
export function takerAccountRefusal(facts: Pick<AccountFacts, 'exists' | 'disabled'>): 'disabled' | 'revoked' | null {
  if (!facts.exists) return 'revoked';
  return facts.disabled ? 'disabled' : null;
}

/**
 * on_site_only: a sitting taken in the hall. With it set, starting (or
 * resuming), answering and submitting are allowed only from an address inside
 * the test organization's registered networks, whoever calls: a taker, its
 * attempt token, or an administrator starting for a student or closing a paper
 * (a proctor does that from the hall). Reading is never bound: administrators
 * read results, and takers their attempts, from anywhere. `onNetwork` is asked
 * only when the setting is on.
 */
export function assertOnSite(sitting: { onSiteOnly: boolean }, onNetwork: () => boolean): void {
  if (sitting.onSiteOnly && !onNetwork()) throw forbidden('This test can be taken only on site');
}

/** Whose attempt a start makes, as far as the caller's role decides it (the store checks the rest). */
export type AttemptStarter =
  /** A Student for itself, in its organization. */
  | { kind: 'self'; studentId: string; clientId: string }
  /** An administrator for a student: its own organization, or (Super Admin) the test's. */
  | { kind: 'for_student'; studentId: string; clientId: string | undefined }
  /** A Guest redeeming a share code, for its anonymous uid. */
  | { kind: 'guest'; studentId: string };

/**
 * POST /attempts: a Student starts for itself only (student_id omitted or its
 * own uid); a Client Admin or Super Admin names the student (which must be a
 * student of the test's organization: checked when it is read); a Guest comes
 * with a share code, for itself. Share codes are the Guests' way in only.
 */
export function attemptStarter(
  principal: Principal,
  body: { test_id?: string; student_id?: string; share_code?: string },
): AttemptStarter {
  assertRole(principal, ['super_admin', 'client_admin', 'student', 'guest']);
  if (principal.role === 'guest') {
    if (body.share_code === undefined) throw forbidden('A Guest starts an attempt with a share code');
    if (body.student_id !== undefined && body.student_id !== principal.uid)
      throw forbidden('A Guest starts attempts for itself only');
    return { kind: 'guest', studentId: principal.uid };
  }
  if (body.share_code !== undefined)
    throw forbidden('Share codes are redeemed by Guests; signed-in users start with test_id');
  if (principal.role === 'student') {
    if (body.student_id !== undefined && body.student_id !== principal.uid)
      throw forbidden('Students start attempts for themselves only');
    return { kind: 'self', studentId: principal.uid, clientId: principal.clientId! };
  }
  if (body.student_id === undefined) {
    throw badRequest('An administrator names the student the attempt is for', [
      { path: 'body.student_id', message: 'Required' },
    ]);
  }
  return {
    kind: 'for_student',
    studentId: body.student_id,
    clientId: principal.role === 'super_admin' ? undefined : principal.clientId!,
  };
}

/**
 * Whether a start is refused (404, as for a missing test) when the test is not open to
 * the taker's classes: a student starting for itself only. A Guest comes with a share
 * code, which opens the test to whoever holds it; an administrator starting for a student
 * (a proctor seating a student) is not bound by the assignment. A student removed from
 * the class keeps its attempt in progress: resuming it is never refused for this.
 */
export const startChecksAssignment = (starter: AttemptStarter): boolean => starter.kind === 'self';

/**
 * Whether a start checks Safe Exam Browser when the test requires it: a Student or a Guest starting for
 * itself, from its own browser. An administrator starting for a student from the admin pages is not in SEB
 * (as Moodle checks the browser of whoever starts); the taker's answers and submit are checked.
 */
export const startChecksSeb = (starter: AttemptStarter): boolean => starter.kind !== 'for_student';

/** A class override names a class of the test's own organization: another's is 403 (unknown: 404, by the caller). */
export function assertCanSetClassOverride(
  principal: Principal,
  test: { clientId: string },
  cls: { clientId: string } | undefined,
): void {
  assertCanManageSitting(principal, test.clientId);
  if (cls && cls.clientId !== test.clientId) throw forbidden("A test cannot use another organization's class");
}

/** What an attempt listing covers: one organization's attempts, or (a Guest) its own wherever they are. */
export type AttemptListScope =
  { scope: 'tenant'; clientId: string; studentId?: string } | { scope: 'guest'; studentId: string };

/**
 * GET /attempts: Super Admin any organization (client_id required), Client
 * Admin its own, Student its own attempts, Guest its own attempts. Naming
 * someone else's student_id as a Student or Guest is 403, not an empty page.
 */
export function attemptListScope(
  principal: Principal,
  query: { client_id?: string; student_id?: string; class_id?: string },
): AttemptListScope {
  assertRole(principal, ['super_admin', 'client_admin', 'student', 'guest']);
  const ownOnly = principal.role === 'student' || principal.role === 'guest';
  // The live view of a class is the administrators' (assertCanFilterByClass then checks the class).
  if (ownOnly && query.class_id !== undefined) throw forbidden('Only administrators filter attempts by class');
  if (ownOnly && query.student_id !== undefined && query.student_id !== principal.uid)
    throw forbidden('You can list your own attempts only');
  if (principal.role === 'guest') {
    if (query.client_id !== undefined) throw forbidden('A Guest lists its own attempts; it names no organization');
    return { scope: 'guest', studentId: principal.uid };
  }
  const clientId = tenantScope(principal, query.client_id);
  return { scope: 'tenant', clientId, studentId: ownOnly ? principal.uid : query.student_id };
}

const isAdministratorRole = (role: CallerRole | null): boolean => role === 'super_admin' || role === 'client_admin';

const isAdministrator = (caller: Principal | AttemptTokenHolder): boolean =>
  !('attemptTokenFor' in caller) && isAdministratorRole(caller.role);

/**
 * Review (answers, correctness, keys) of a submitted attempt: for
 * administrators who may see the attempt, always; for its taker only when the
 * test allows review, and then only once review_opens_at has come (so early
 * finishers cannot hand the key to a later sitting). Never before submission.
 * 'when_released': the taker's, once the release date (read by the caller) has come.
 */
export function reviewAccess(
  caller: Principal | AttemptTokenHolder,
  attempt: { submitted: boolean; allowReview: boolean },
): 'never' | 'always' | 'when_released' {
  if (!attempt.submitted) return 'never';
  if (isAdministrator(caller)) return 'always';
  return attempt.allowReview ? 'when_released' : 'never';
}

/**
 * Whether Safe Exam Browser binds a caller of an attempt that requires it: its taker (a Student or Guest
 * by its ID token) and any attempt-token holder (a token says nothing of whose browser holds it); not an
 * administrator by its own ID token (a proctor closing a paper from the live view).
 */
export const sebBinds = (caller: Principal | AttemptTokenHolder): boolean => !isAdministrator(caller);

/**
 * Integrity events come from the taker's page: the taker by its ID token or any holder of the attempt's
 * token. An administrator by its own ID token reads them (GET), it does not send them (403).
 */
export function assertCanSendIntegrityEvents(caller: Principal | AttemptTokenHolder): void {
  if (isAdministrator(caller))
    throw forbidden('Integrity events are sent by the taker’s page, not by an administrator');
}

/** Whether a caller sees integrity counts in an attempt list (the live view): administrators only. */
export const showsIntegrity = (principal: Principal): boolean => isAdministratorRole(principal.role);

/** An attempt's integrity events are read by the administrators of its organization (Super Admin any); never by its taker. */
export function assertCanReadIntegrityEvents(caller: Principal, attempt: { clientId: string }): void {
  if (caller.role === 'super_admin') return;
  if (caller.role === 'client_admin') return assertTenantAccess(caller, attempt.clientId);
  throw forbidden('An attempt’s integrity events are read by its organization’s administrators');
}

/**
 * Who a submit is recorded as (`submitted_by`, and the audit record's actor):
 * its taker (the student or Guest itself, or a token issued to it), or an
 * administrator of its organization closing the paper with its own ID token or
 * with the attempt token issued to it (an administrator who started the attempt
 * for the student). assertCanUseAttempt has allowed the caller.
 */
export function submitterOf(
  caller: Principal | AttemptTokenHolder,
  attempt: AttemptSubject,
): { submitter: 'taker' | 'admin'; actorId: string | null; actorRole: CallerRole | null } {
  const who = 'attemptTokenFor' in caller ? (caller.issuedTo ?? null) : { uid: caller.uid, role: caller.role };
  if (!who) return { submitter: 'taker', actorId: null, actorRole: null };
  const admin = who.uid !== attempt.studentId && isAdministratorRole(who.role);
  return { submitter: admin ? 'admin' : 'taker', actorId: who.uid, actorRole: who.role };
}

// ---------------------------------------------------------------- question media

/**
 * GET /media/{mediaId}, before anything is read. Question media is read as the
 * questions are: a Super Admin any organization's, a Client Admin its own
 * ('direct'; another organization's is 404, so an id reveals nothing). A taker
 * (Student, Guest, attempt-token holder) reads it only through an attempt it
 * may use ('attempt': attempt_id required, else 403), and then only what that
 * attempt shows it (attemptMediaScope). `caller` undefined: an attempt-token holder.
 */
export function mediaAccess(
  caller: Principal | undefined,
  mediaClientId: string,
  viaAttempt: boolean,
): 'direct' | 'attempt' {
  if (caller?.role === 'super_admin') return 'direct';
  if (caller?.role === 'client_admin') {
    if (caller.clientId !== mediaClientId) throw notFound('Media not found');
    return 'direct';
  }
  if (caller && caller.role !== 'student' && caller.role !== 'guest') assertRole(caller, ['student', 'guest']);
  if (!viaAttempt) throw forbidden('A taker reads question media through its attempt: send attempt_id');
  return 'attempt';
}

/**
 * Which of an attempt's questions' media its taker may see: while it is being
 * taken (in progress, before its deadline), what the question shows (its
 * title, text and options); once submitted, with its review open to the caller
 * (reviewAccess and the release date, as GET /attempts/{id} decides showing
 * correct_answer), the whole question, feedback included. Otherwise none: 404.
 */
export function attemptMediaScope(attempt: { taking: boolean; reviewOpen: boolean }): 'question' | 'review' | null {
  if (attempt.taking) return 'question';
  return attempt.reviewOpen ? 'review' : null;
}

// ---------------------------------------------------------------- files attached to an essay

/**
 * Files are attached to an essay by its taker (its ID token, or the attempt token in either form, as
 * saves accept them); an administrator by its own ID token → 403: it reads them, it does not write them.
 */
export function assertCanAttachFiles(caller: Principal | AttemptTokenHolder): void {
  if (isAdministrator(caller))
    throw forbidden('Files are attached by the attempt’s taker, not by an administrator by its own token');
}

/**
 * An attempt's attached files are read by its taker and by the administrators of its organization (a
 * Super Admin any). Anyone else is told nothing, not even that the attempt exists: 404, as for a file
 * that does not exist (another organization's attempt included).
 */
export function assertCanReadAttachments(caller: Principal | AttemptTokenHolder, attempt: AttemptSubject): void {
  try {
    assertCanUseAttempt(caller, attempt);
  } catch {
    throw notFound('Attachment not found');
  }
}

// ---------------------------------------------------------------- grading and regrading

/**
 * Grading essays (the queue, and a grade): a Super Admin any test's, a Client
 * Admin its organization's. Students and Guests never, not even their own.
 */
export function assertCanGrade(principal: Principal, test: { clientId: string }): void {
  assertRole(principal, ['super_admin', 'client_admin']);
  assertTenantAccess(principal, test.clientId);
}

/** Regrading a published version (a key fix rescoring its attempts): as authoring the test. */
export const assertCanRegrade = (principal: Principal, test: { clientId: string }): void =>
  assertCanAuthorTests(principal, test.clientId);

// ---------------------------------------------------------------- analytics

/** A test's analytics, its results export and its repair: a Super Admin any test, a Client Admin its organization's. Students and Guests never. */
export function assertCanReadTestAnalytics(principal: Principal, test: { clientId: string }): void {
  assertRole(principal, ['super_admin', 'client_admin']);
  assertTenantAccess(principal, test.clientId);
}

/**
 * Filtering a test's figures or attempts by class (the analytics, the results export, the live view):
 * the organization's administrators (a Super Admin any), and only by a class of that organization
 * (`classClientId`, the organization holding the class: another's → 403; no organization's → 404).
 * A Teacher may later be granted the classes it teaches here.
 */
export function assertCanFilterByClass(
  principal: Principal,
  target: { clientId: string; classId: string; classClientId: string | null },
): void {
  assertRole(principal, ['super_admin', 'client_admin']);
  assertTenantAccess(principal, target.clientId);
  if (target.classClientId === null) throw notFound(`Class not found: ${target.classId}`);
  if (target.classClientId !== target.clientId) throw forbidden('This class belongs to another organization');
}

/**
 * A student's analytics: a Super Admin anyone's (in the organization it names,
 * or the student's own), a Client Admin its organization's students, a Student
 * only itself; Guests nothing. Answers the organization whose attempts are read
 * (undefined: a Super Admin named none; the student's account says which).
 */
export function studentAnalyticsScope(
  principal: Principal,
  studentId: string,
  requestedClientId: string | undefined,
): string | undefined {
  assertRole(principal, ['super_admin', 'client_admin', 'student']);
  if (principal.role === 'student' && studentId !== principal.uid)
    throw forbidden('A student sees its own analytics only');
  return tenantScope(principal, requestedClientId, { optionalForSuperAdmin: true });
}
