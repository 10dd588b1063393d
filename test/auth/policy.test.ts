import assert from 'node:assert/strict';
import {
  assertCanChangeClient,
  assertCanManageClass,
  assertClassMemberCandidate,
  assertManagesClasses,
  classScope,
  assertCanGrade,
  assertCanRegrade,
  assertCanChangeUser,
  assertCanDeleteUser,
  assertCanManageSitting,
  assertCanReadUser,
  assertCanSetClassOverride,
  assertCanUseAttempt,
  assertCanWatchSitting,
  assertOnSite,
  assertOrganizationActive,
  assertRole,
  assertTenantAccess,
  attemptChecks,
  attemptMediaScope,
  mediaAccess,
  organizationForNewUser,
  reviewAccess,
  startChecksAssignment,
  submitterOf,
  takerAccountRefusal,
  tokenIssuerRefusal,
  tenantScope,
  testListScope,
  testOpenToStudent,
  testVisibilityNeedsClasses,
  testVisibleTo,
} from '../../functions/src/auth/policy';
import type { Principal } from '../../functions/src/auth/principal';
import { ApiError } from '../../functions/src/shared/errors';

const principal = (role: Principal['role'], clientId: string | null = null): Principal => ({
  uid: 'u1',
  email: null,
  role,
  clientId,
  guest: role === 'guest',
  authTime: 0,
});
const superAdmin = principal('super_admin');
const admin = principal('client_admin', 'acme');
const student = principal('student', 'acme');

const throwsCode = (fn: () => unknown, code: string) =>
  assert.throws(fn, (err: unknown) => err instanceof ApiError && err.code === code);

describe('policy: assertRole', () => {
  it('admits a role on the list', () => assert.doesNotThrow(() => assertRole(admin, ['client_admin'])));
  it('refuses a role not on the list with FORBIDDEN', () =>
    throwsCode(() => assertRole(student, ['client_admin']), 'FORBIDDEN'));
  it('refuses a user with no role, saying so', () =>
    assert.throws(() => assertRole(principal(null), ['student']), /no role/));
  it('refuses a guest where guests are not listed', () =>
    throwsCode(() => assertRole(principal('guest'), ['student']), 'FORBIDDEN'));
});

describe('policy: tenantScope', () => {
  it('gives a Client Admin its own organization when none is named', () =>
    assert.equal(tenantScope(admin, undefined), 'acme'));
  it('accepts a Student naming its own organization', () => assert.equal(tenantScope(student, 'acme'), 'acme'));
  it('refuses naming another organization with FORBIDDEN', () =>
    throwsCode(() => tenantScope(admin, 'globex'), 'FORBIDDEN'));
  it('requires a Super Admin to name the organization', () =>
    throwsCode(() => tenantScope(superAdmin, undefined), 'VALIDATION_ERROR'));
  it('lets a Super Admin name any organization', () => assert.equal(tenantScope(superAdmin, 'globex'), 'globex'));
  it('lets a Super Admin omit it where the route allows', () =>
    assert.equal(tenantScope(superAdmin, undefined, { optionalForSuperAdmin: true }), undefined));
  it('refuses a guest, who has no organization', () =>
    throwsCode(() => tenantScope(principal('guest'), undefined), 'FORBIDDEN'));
});

describe('policy: assertTenantAccess', () => {
  it('admits the owner organization', () => assert.doesNotThrow(() => assertTenantAccess(admin, 'acme')));
  it('refuses another organization', () => throwsCode(() => assertTenantAccess(student, 'globex'), 'FORBIDDEN'));
  it('admits a Super Admin anywhere', () => assert.doesNotThrow(() => assertTenantAccess(superAdmin, 'globex')));
});

describe('policy: assertTenantAccess for callers without an organization', () => {
  it('refuses a guest, even for a resource that names no organization', () =>
    throwsCode(() => assertTenantAccess(principal('guest'), null), 'FORBIDDEN'));
  it('refuses a user with no role', () => throwsCode(() => assertTenantAccess(principal(null), 'acme'), 'FORBIDDEN'));
});

describe('policy: clients', () => {
  it('lets a Client Admin change its own organization’s details', () =>
    assert.doesNotThrow(() => assertCanChangeClient(admin, 'acme', {})));
  it('refuses a Client Admin changing active_status', () =>
    throwsCode(() => assertCanChangeClient(admin, 'acme', { active_status: 0 }), 'FORBIDDEN'));
  it('refuses a Client Admin changing another organization', () =>
    throwsCode(() => assertCanChangeClient(admin, 'globex', {}), 'FORBIDDEN'));
  it('lets a Super Admin change active_status anywhere', () =>
    assert.doesNotThrow(() => assertCanChangeClient(superAdmin, 'globex', { active_status: 0 })));
});

describe('policy: users', () => {
  const someone = (role: 'super_admin' | 'client_admin' | 'student' | null, clientId: string | null, uid = 'u2') => ({
    uid,
    role,
    clientId,
  });

  it('lets a Client Admin read users of its organization only', () => {
    assert.doesNotThrow(() => assertCanReadUser(admin, someone('student', 'acme')));
    throwsCode(() => assertCanReadUser(admin, someone('student', 'globex')), 'FORBIDDEN');
  });
  it('refuses a Client Admin a user who has no organization (no role, or a Super Admin)', () => {
    throwsCode(() => assertCanReadUser(admin, someone(null, null)), 'FORBIDDEN');
    throwsCode(() => assertCanReadUser(admin, someone('super_admin', null)), 'FORBIDDEN');
  });
  it('lets a Student read only itself', () => {
    assert.doesNotThrow(() => assertCanReadUser(student, someone('student', 'acme', 'u1')));
    throwsCode(() => assertCanReadUser(student, someone('student', 'acme')), 'FORBIDDEN');
  });
  it('refuses guests and users without a role', () => {
    throwsCode(() => assertCanReadUser(principal('guest'), someone('student', 'acme')), 'FORBIDDEN');
    throwsCode(() => assertCanReadUser(principal(null), someone(null, null, 'u1')), 'FORBIDDEN');
  });

  it('gives a Client Admin’s new user its own organization, and refuses another one named in the body', () => {
    assert.equal(organizationForNewUser(admin, 'student', undefined), 'acme');
    throwsCode(() => organizationForNewUser(admin, 'student', 'globex'), 'FORBIDDEN');
    throwsCode(() => organizationForNewUser(admin, 'super_admin', undefined), 'FORBIDDEN');
  });

  it('refuses a first role in another organization named in the body, whoever the target is', () => {
    throwsCode(
      () => assertCanChangeUser(admin, someone(null, null), { role: 'client_admin', client_id: 'globex' }),
      'FORBIDDEN',
    );
    throwsCode(() => assertCanChangeUser(admin, someone('student', 'acme'), { client_id: 'globex' }), 'FORBIDDEN');
    assert.doesNotThrow(() =>
      assertCanChangeUser(superAdmin, someone(null, null), { role: 'client_admin', client_id: 'globex' }),
    );
  });

  it('lets a password be set by its owner or a strictly higher rank only', () => {
    const password = 'a-new-password';
    assert.doesNotThrow(() => assertCanChangeUser(admin, someone('student', 'acme'), { password }));
    assert.doesNotThrow(
      () => assertCanChangeUser(admin, someone('client_admin', 'acme', 'u1'), { password }),
      'its own',
    );
    throwsCode(() => assertCanChangeUser(admin, someone('client_admin', 'acme'), { password }), 'FORBIDDEN');
    assert.doesNotThrow(() => assertCanChangeUser(superAdmin, someone('client_admin', 'acme'), { password }));
    throwsCode(() => assertCanChangeUser(superAdmin, someone('super_admin', null), { password }), 'FORBIDDEN');
  });

  it('refuses changing one’s own role or disabling oneself, and a Client Admin granting super_admin', () => {
    throwsCode(
      () => assertCanChangeUser(admin, someone('client_admin', 'acme', 'u1'), { role: 'student' }),
      'FORBIDDEN',
    );
    throwsCode(
      () => assertCanChangeUser(admin, someone('client_admin', 'acme', 'u1'), { disabled: true }),
      'FORBIDDEN',
    );
    throwsCode(() => assertCanChangeUser(admin, someone('student', 'acme'), { role: 'super_admin' }), 'FORBIDDEN');
    throwsCode(
      () => assertCanChangeUser(student, someone('student', 'acme', 'u1'), { display_name: 'x' }),
      'FORBIDDEN',
    );
  });

  it('lets only a strictly higher rank change an administrator’s role, so a peer cannot be demoted and then taken over', () => {
    throwsCode(() => assertCanChangeUser(admin, someone('client_admin', 'acme'), { role: 'student' }), 'FORBIDDEN');
    assert.doesNotThrow(
      () => assertCanChangeUser(admin, someone('student', 'acme'), { role: 'client_admin' }),
      'promoting a Student',
    );
    assert.doesNotThrow(() => assertCanChangeUser(superAdmin, someone('client_admin', 'acme'), { role: 'student' }));
  });

  it('refuses deleting oneself, and Students deleting anyone', () => {
    throwsCode(() => assertCanDeleteUser(admin, someone('client_admin', 'acme', 'u1')), 'FORBIDDEN');
    throwsCode(() => assertCanDeleteUser(student, someone('student', 'acme', 'u1')), 'FORBIDDEN');
    assert.doesNotThrow(() => assertCanDeleteUser(admin, someone('student', 'acme')));
  });
});

describe('policy: attempts', () => {
  const attempt = { id: 'a1', clientId: 'acme', studentId: 'u1' };
  it('opens an attempt to the holder of its own attempt token only', () => {
    assert.doesNotThrow(() => assertCanUseAttempt({ attemptTokenFor: 'a1' }, attempt));
    throwsCode(() => assertCanUseAttempt({ attemptTokenFor: 'a2' }, attempt), 'FORBIDDEN');
  });
  it('opens it to its student, not to another student of the organization', () => {
    assert.doesNotThrow(() => assertCanUseAttempt(student, attempt));
    throwsCode(() => assertCanUseAttempt({ ...student, uid: 'u9' }, attempt), 'FORBIDDEN');
  });
  it('opens it to a signed-in Guest whose uid took it, and to no other guest', () => {
    assert.doesNotThrow(() => assertCanUseAttempt({ ...principal('guest'), uid: 'u1' }, attempt));
    throwsCode(() => assertCanUseAttempt({ ...principal('guest'), uid: 'u9' }, attempt), 'FORBIDDEN');
  });
  it('opens it to its organization’s Client Admin and to a Super Admin, not to another organization’s admin', () => {
    assert.doesNotThrow(() => assertCanUseAttempt(admin, attempt));
    assert.doesNotThrow(() => assertCanUseAttempt(superAdmin, attempt));
    throwsCode(() => assertCanUseAttempt(principal('client_admin', 'globex'), attempt), 'FORBIDDEN');
  });
});

describe('policy: attemptChecks (what every way into an attempt still checks)', () => {
  it('checks the organization and the taker’s account for an attempt-token holder', () =>
    assert.deepEqual(attemptChecks({ attemptTokenFor: 'acme.a1' }), { organization: true, takerAccount: true }));
  it('checks the attempt’s organization for a Guest, which has no organization claim', () =>
    assert.deepEqual(attemptChecks(principal('guest')), { organization: true, takerAccount: false }));
  it('leaves a Student’s and a Client Admin’s organization to authentication (it is the attempt’s)', () => {
    assert.deepEqual(attemptChecks(student), { organization: false, takerAccount: false });
    assert.deepEqual(attemptChecks(admin), { organization: false, takerAccount: false });
  });
  it('checks nothing more for a Super Admin, who works across organizations', () =>
    assert.deepEqual(attemptChecks(superAdmin), { organization: false, takerAccount: false }));
});

describe('policy: assertOrganizationActive', () => {
  it('admits an active organization', () =>
    assert.doesNotThrow(() => assertOrganizationActive({ active_status: 1 }, 'attempt’s')));
  it('refuses an inactive organization with FORBIDDEN, saying it is not active', () => {
    throwsCode(() => assertOrganizationActive({ active_status: 0 }, 'attempt’s'), 'FORBIDDEN');
    assert.throws(() => assertOrganizationActive({ active_status: 0 }, 'attempt’s'), /organization is not active/);
  });
  it('refuses an organization that no longer exists', () =>
    throwsCode(() => assertOrganizationActive(undefined, 'share code’s'), 'FORBIDDEN'));
});

describe('policy: takerAccountRefusal', () => {
  it('lets an existing, enabled account through', () =>
    assert.equal(takerAccountRefusal({ exists: true, disabled: false }), null));
  it('refuses a disabled account as "disabled"', () =>
    assert.equal(takerAccountRefusal({ exists: true, disabled: true }), 'disabled'));
  it('refuses a deleted account as "revoked"', () =>
    assert.equal(takerAccountRefusal({ exists: false, disabled: false }), 'revoked'));
});

describe('policy: assertCanManageSitting', () => {
  it('lets a Client Admin manage its own organization’s sittings', () =>
    assert.doesNotThrow(() => assertCanManageSitting(admin, 'acme')));
  it('refuses a Client Admin another organization’s sittings with FORBIDDEN', () =>
    throwsCode(() => assertCanManageSitting(admin, 'globex'), 'FORBIDDEN'));
  it('lets a Super Admin manage any organization’s sittings', () =>
    assert.doesNotThrow(() => assertCanManageSitting(superAdmin, 'globex')));
  it('refuses a Student, even in its own organization', () =>
    throwsCode(() => assertCanManageSitting(student, 'acme'), 'FORBIDDEN'));
  it('refuses a Guest', () => throwsCode(() => assertCanManageSitting(principal('guest'), 'acme'), 'FORBIDDEN'));
  it('refuses a user with no role', () =>
    throwsCode(() => assertCanManageSitting(principal(null, 'acme'), 'acme'), 'FORBIDDEN'));
});

describe('policy: assertCanWatchSitting (the live view: attempts in progress, who has not started)', () => {
  const cases: Array<[string, Principal, string, 'allowed' | 'FORBIDDEN']> = [
    ['a Client Admin, its own organization’s test', admin, 'acme', 'allowed'],
    ['a Client Admin, another organization’s test', admin, 'globex', 'FORBIDDEN'],
    ['a Super Admin, any organization’s test', superAdmin, 'globex', 'allowed'],
    ['a Student, even its own organization’s test', student, 'acme', 'FORBIDDEN'],
    ['a Guest', principal('guest'), 'acme', 'FORBIDDEN'],
    ['a user with no role', principal(null, 'acme'), 'acme', 'FORBIDDEN'],
  ];
  for (const [who, caller, clientId, expected] of cases)
    it(`${expected === 'allowed' ? 'lets' : 'refuses'} ${who}`, () =>
      expected === 'allowed'
        ? assert.doesNotThrow(() => assertCanWatchSitting(caller, { clientId }))
        : throwsCode(() => assertCanWatchSitting(caller, { clientId }), expected));
});

describe('policy: reviewAccess', () => {
  const submitted = { submitted: true, allowReview: true };
  it('gives nobody the review of an attempt not yet submitted, administrators included', () => {
    for (const caller of [superAdmin, admin, student, { attemptTokenFor: 'a1' }]) {
      assert.equal(reviewAccess(caller, { submitted: false, allowReview: true }), 'never');
    }
  });
  it('gives a Client Admin and a Super Admin the review of a submitted attempt always, even when the test allows none', () => {
    for (const caller of [superAdmin, admin]) {
      assert.equal(reviewAccess(caller, submitted), 'always');
      assert.equal(reviewAccess(caller, { submitted: true, allowReview: false }), 'always');
    }
  });
  it('gives the taker (Student, Guest) its review once released, when the test allows review', () => {
    assert.equal(reviewAccess(student, submitted), 'when_released');
    assert.equal(reviewAccess(principal('guest'), submitted), 'when_released');
  });
  it('gives an attempt-token holder what the taker gets: the review once released', () =>
    assert.equal(reviewAccess({ attemptTokenFor: 'a1' }, submitted), 'when_released'));
  it('gives the taker no review when the test does not allow it', () => {
    assert.equal(reviewAccess(student, { submitted: true, allowReview: false }), 'never');
    assert.equal(reviewAccess({ attemptTokenFor: 'a1' }, { submitted: true, allowReview: false }), 'never');
  });
});

describe('policy: submitterOf', () => {
  const attempt = { id: 'a1', clientId: 'acme', studentId: 'u1' };
  const by = (caller: Parameters<typeof submitterOf>[0]) => submitterOf(caller, attempt).submitter;
  it('records the holder of a token from before its issuer was kept as the taker, with no actor', () =>
    assert.deepEqual(submitterOf({ attemptTokenFor: 'a1' }, attempt), {
      submitter: 'taker',
      actorId: null,
      actorRole: null,
    }));
  it('records the holder of a token issued to the taker as the taker', () =>
    assert.deepEqual(submitterOf({ attemptTokenFor: 'a1', issuedTo: { uid: 'u1', role: 'student' } }, attempt), {
      submitter: 'taker',
      actorId: 'u1',
      actorRole: 'student',
    }));
  it('records the holder of a token issued to a Client Admin (who started it for the student) as admin, with the admin as actor', () =>
    assert.deepEqual(
      submitterOf({ attemptTokenFor: 'a1', issuedTo: { uid: 'admin-1', role: 'client_admin' } }, attempt),
      {
        submitter: 'admin',
        actorId: 'admin-1',
        actorRole: 'client_admin',
      },
    ));
  it('records the holder of a token issued to a Super Admin as admin', () =>
    assert.equal(by({ attemptTokenFor: 'a1', issuedTo: { uid: 'root-1', role: 'super_admin' } }), 'admin'));
  it('records the student submitting its own attempt as the taker', () => assert.equal(by(student), 'taker'));
  it('records a Guest submitting its own attempt as the taker', () =>
    assert.equal(by({ ...principal('guest'), uid: 'u1' }), 'taker'));
  it('records a Client Admin of the organization submitting a student’s attempt as admin', () =>
    assert.deepEqual(submitterOf({ ...admin, uid: 'admin-1' }, attempt), {
      submitter: 'admin',
      actorId: 'admin-1',
      actorRole: 'client_admin',
    }));
  it('records a Super Admin submitting a student’s attempt as admin', () =>
    assert.equal(by({ ...superAdmin, uid: 'root-1' }), 'admin'));
  it('records an administrator submitting an attempt it took itself as the taker', () =>
    assert.equal(by(admin), 'taker'));
});

describe('policy: tokenIssuerRefusal', () => {
  const acme = { clientId: 'acme' };
  const account = (claims: Record<string, unknown> | undefined, disabled = false) => ({
    exists: true,
    disabled,
    claims,
  });
  it('lets a token issued to a student through while its account stands', () =>
    assert.equal(tokenIssuerRefusal(account({ role: 'student' }), { uid: 'u1', role: 'student' }, acme), null));
  it('refuses a token whose issuer was disabled, or deleted', () => {
    assert.equal(
      tokenIssuerRefusal(account({ role: 'client_admin' }, true), { uid: 'a', role: 'client_admin' }, acme),
      'disabled',
    );
    assert.equal(
      tokenIssuerRefusal(
        { exists: false, disabled: false, claims: undefined },
        { uid: 'a', role: 'client_admin' },
        acme,
      ),
      'revoked',
    );
  });
  it('refuses a token issued to an administrator who no longer holds that role, as "revoked"', () =>
    assert.equal(
      tokenIssuerRefusal(account({ role: 'student', client_id: 'acme' }), { uid: 'a', role: 'client_admin' }, acme),
      'revoked',
    ));
  it('lets a token issued to a Client Admin through while it administers the attempt’s organization', () =>
    assert.equal(
      tokenIssuerRefusal(
        account({ role: 'client_admin', client_id: 'acme' }),
        { uid: 'a', role: 'client_admin' },
        acme,
      ),
      null,
    ));
  it('refuses a token issued to a Client Admin whose account now administers another organization, as "revoked"', () =>
    assert.equal(
      tokenIssuerRefusal(
        account({ role: 'client_admin', client_id: 'globex' }),
        { uid: 'a', role: 'client_admin' },
        acme,
      ),
      'revoked',
    ));
  it('lets a token issued to a Super Admin through on any organization’s attempt while it is one', () =>
    assert.equal(tokenIssuerRefusal(account({ role: 'super_admin' }), { uid: 'r', role: 'super_admin' }, acme), null));
});

describe('policy: assertOnSite (on_site_only)', () => {
  it('refuses an on-site-only sitting from outside the networks: 403 "This test can be taken only on site"', () => {
    assert.throws(
      () => assertOnSite({ onSiteOnly: true }, () => false),
      (err: unknown) =>
        err instanceof ApiError && err.code === 'FORBIDDEN' && err.message === 'This test can be taken only on site',
    );
  });
  it('allows an on-site-only sitting from inside the networks', () =>
    assert.doesNotThrow(() => assertOnSite({ onSiteOnly: true }, () => true)));
  it('allows a sitting that is not on site only from anywhere, without asking where the caller is', () => {
    assert.doesNotThrow(() =>
      assertOnSite({ onSiteOnly: false }, () => {
        throw new Error('asked');
      }),
    );
  });
});

describe('policy: assertCanGrade (the grading queue and a grade)', () => {
  it('lets a Super Admin grade any organization’s essays', () =>
    assert.doesNotThrow(() => assertCanGrade(superAdmin, { clientId: 'globex' })));
  it('lets a Client Admin grade its own organization’s essays', () =>
    assert.doesNotThrow(() => assertCanGrade(admin, { clientId: 'acme' })));
  it('refuses a Client Admin another organization’s essays with FORBIDDEN', () =>
    throwsCode(() => assertCanGrade(admin, { clientId: 'globex' }), 'FORBIDDEN'));
  it('refuses a Student, even its own organization’s (its own essays included)', () =>
    throwsCode(() => assertCanGrade(student, { clientId: 'acme' }), 'FORBIDDEN'));
  it('refuses a Guest', () => throwsCode(() => assertCanGrade(principal('guest'), { clientId: 'acme' }), 'FORBIDDEN'));
  it('refuses a user with no role', () =>
    throwsCode(() => assertCanGrade(principal(null, 'acme'), { clientId: 'acme' }), 'FORBIDDEN'));
});

describe('policy: assertCanRegrade (correcting a published version)', () => {
  it('lets a Super Admin regrade any organization’s test', () =>
    assert.doesNotThrow(() => assertCanRegrade(superAdmin, { clientId: 'globex' })));
  it('lets a Client Admin regrade its own organization’s test', () =>
    assert.doesNotThrow(() => assertCanRegrade(admin, { clientId: 'acme' })));
  it('refuses a Client Admin another organization’s test with FORBIDDEN', () =>
    throwsCode(() => assertCanRegrade(admin, { clientId: 'globex' }), 'FORBIDDEN'));
  it('refuses a Student, even in its own organization', () =>
    throwsCode(() => assertCanRegrade(student, { clientId: 'acme' }), 'FORBIDDEN'));
  it('refuses a Guest', () =>
    throwsCode(() => assertCanRegrade(principal('guest'), { clientId: 'acme' }), 'FORBIDDEN'));
  it('refuses a user with no role', () =>
    throwsCode(() => assertCanRegrade(principal(null, 'acme'), { clientId: 'acme' }), 'FORBIDDEN'));
});

describe('policy: mediaAccess (GET /media/{mediaId})', () => {
  it('lets a Super Admin read any organization’s media directly', () =>
    assert.equal(mediaAccess(principal('super_admin'), 'acme', false), 'direct'));
  it('lets a Client Admin read its own organization’s media directly, attempt or not', () => {
    assert.equal(mediaAccess(principal('client_admin', 'acme'), 'acme', false), 'direct');
    assert.equal(mediaAccess(principal('client_admin', 'acme'), 'acme', true), 'direct');
  });
  it('answers another organization’s Client Admin 404, as if the media did not exist', () =>
    throwsCode(() => mediaAccess(principal('client_admin', 'other'), 'acme', false), 'NOT_FOUND'));
  it('sends Students and Guests through an attempt', () => {
    assert.equal(mediaAccess(principal('student', 'acme'), 'acme', true), 'attempt');
    assert.equal(mediaAccess(principal('guest'), 'acme', true), 'attempt');
    assert.equal(mediaAccess(undefined, 'acme', true), 'attempt');
  });
  it('refuses a taker without attempt_id with 403 before anything is read', () => {
    throwsCode(() => mediaAccess(principal('student', 'acme'), 'acme', false), 'FORBIDDEN');
    throwsCode(() => mediaAccess(undefined, 'acme', false), 'FORBIDDEN');
  });
  it('refuses a user with no role', () =>
    throwsCode(() => mediaAccess(principal(null, 'acme'), 'acme', true), 'FORBIDDEN'));
});

describe('policy: attemptMediaScope (what an attempt shows its taker)', () => {
  it('shows the question while the attempt is being taken', () =>
    assert.equal(attemptMediaScope({ taking: true, reviewOpen: false }), 'question'));
  it('shows the whole question, feedback included, once the review is open', () =>
    assert.equal(attemptMediaScope({ taking: false, reviewOpen: true }), 'review'));
  it('shows nothing after submission without an open review, nor past the deadline', () =>
    assert.equal(attemptMediaScope({ taking: false, reviewOpen: false }), null));
});

describe('policy: tests assigned to classes', () => {
  const assigned = { status: 'published', assigned_class_ids: ['a', 'b'] };

  it('opens a test assigned to no class (or stored before assignments) to every student', () => {
    assert.equal(testOpenToStudent({ assigned_class_ids: [] }, []), true);
    assert.equal(testOpenToStudent({}, []), true);
  });

  it('opens a test assigned to classes to their students only', () => {
    assert.equal(testOpenToStudent(assigned, ['x', 'b']), true);
    assert.equal(testOpenToStudent(assigned, ['x']), false);
    assert.equal(testOpenToStudent(assigned, []), false);
  });

  it('lets a student know a published test exists only when it is open to it; authors always', () => {
    assert.equal(testVisibleTo(student, assigned, ['a']), true);
    assert.equal(testVisibleTo(student, assigned, ['c']), false);
    assert.equal(testVisibleTo(student, { ...assigned, status: 'draft' }, ['a']), false);
    assert.equal(testVisibleTo(admin, assigned, []), true);
    assert.equal(testVisibleTo(superAdmin, assigned, []), true);
  });

  it('reads a student’s classes only for a test assigned to classes', () => {
    assert.equal(testVisibilityNeedsClasses(student, assigned), true);
    assert.equal(testVisibilityNeedsClasses(student, { assigned_class_ids: [] }), false);
    assert.equal(testVisibilityNeedsClasses(admin, assigned), false);
  });

  it('lists a student’s tests by its classes, an administrator’s whole', () => {
    assert.equal(testListScope(student, {}).byClasses, true);
    assert.equal(testListScope(admin, {}).byClasses, false);
  });

  it('checks the assignment on a student’s own start only: not a Guest’s share code, nor an administrator starting for a student', () => {
    assert.equal(startChecksAssignment({ kind: 'self', studentId: 'u1', clientId: 'acme' }), true);
    assert.equal(startChecksAssignment({ kind: 'guest', studentId: 'g1' }), false);
    assert.equal(startChecksAssignment({ kind: 'for_student', studentId: 'u1', clientId: 'acme' }), false);
  });

  it('lets the organization’s administrators (and a Super Admin) set class overrides, with a class of the test’s organization only', () => {
    assertCanSetClassOverride(admin, { clientId: 'acme' }, { clientId: 'acme' });
    assertCanSetClassOverride(superAdmin, { clientId: 'acme' }, undefined);
    throwsCode(() => assertCanSetClassOverride(admin, { clientId: 'acme' }, { clientId: 'other' }), 'FORBIDDEN');
    throwsCode(
      () => assertCanSetClassOverride(principal('client_admin', 'other'), { clientId: 'acme' }, undefined),
      'FORBIDDEN',
    );
    throwsCode(() => assertCanSetClassOverride(student, { clientId: 'acme' }, undefined), 'FORBIDDEN');
  });
});

describe('policy: classes (classScope, assertManagesClasses, assertCanManageClass, assertClassMemberCandidate)', () => {
  const cls = { clientId: 'acme', classId: 'c1' };

  it('gives a Client Admin its own organization, and a Super Admin the one it names', () => {
    assert.equal(classScope(admin, undefined), 'acme');
    assert.equal(classScope(superAdmin, 'globex'), 'globex');
  });
  it('requires a Super Admin to name the organization, naming the field', () =>
    assert.throws(
      () => classScope(superAdmin, undefined, 'body.client_id'),
      (err: unknown) => err instanceof ApiError && err.details?.[0].path === 'body.client_id',
    ));
  it('refuses a Client Admin naming another organization', () =>
    throwsCode(() => classScope(admin, 'globex'), 'FORBIDDEN'));
  it('refuses Students, Guests and users with no role, even in their own organization', () => {
    for (const who of [student, principal('guest'), principal(null, 'acme')]) {
      throwsCode(() => classScope(who, 'acme'), 'FORBIDDEN');
      throwsCode(() => assertManagesClasses(who), 'FORBIDDEN');
      throwsCode(() => assertCanManageClass(who, cls), 'FORBIDDEN');
    }
  });
  it('lets a Client Admin manage its organization’s class, and a Super Admin any', () => {
    assert.doesNotThrow(() => assertCanManageClass(admin, cls));
    assert.doesNotThrow(() => assertCanManageClass(superAdmin, { clientId: 'globex', classId: 'c2' }));
  });
  it('refuses a Client Admin another organization’s class', () =>
    throwsCode(() => assertCanManageClass(admin, { clientId: 'globex', classId: 'c2' }), 'FORBIDDEN'));
  it('admits a student of the class’s organization as a member', () =>
    assert.doesNotThrow(() => assertClassMemberCandidate('acme', { role: 'student', clientId: 'acme' })));
  it('refuses another organization’s user with FORBIDDEN, whatever its role', () => {
    throwsCode(() => assertClassMemberCandidate('acme', { role: 'student', clientId: 'globex' }), 'FORBIDDEN');
    throwsCode(() => assertClassMemberCandidate('acme', { role: 'client_admin', clientId: 'globex' }), 'FORBIDDEN');
  });
  it('refuses no user, an administrator, a Super Admin, a Guest or a user with no role with VALIDATION_ERROR on params.uid', () => {
    for (const candidate of [
      undefined,
      { role: 'client_admin' as const, clientId: 'acme' },
      { role: 'super_admin' as const, clientId: null },
      { role: 'guest' as const, clientId: null },
      { role: null, clientId: null },
    ]) {
      assert.throws(
        () => assertClassMemberCandidate('acme', candidate),
        (err: unknown) =>
          err instanceof ApiError && err.code === 'VALIDATION_ERROR' && err.details?.[0].path === 'params.uid',
        JSON.stringify(candidate),
      );
    }
  });
});
