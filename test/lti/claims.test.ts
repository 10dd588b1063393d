import assert from 'node:assert/strict';
import { CLAIM, contextKey, ltiUid, readLaunch, roleForNewUser, uniqueClassName } from '../../functions/src/lti/claims';
import { launchErrorPage } from '../../functions/src/lti/errorPage';
import { platformUrlProblem } from '../../functions/src/lti/schemas';

const INSTRUCTOR = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor';
const base = (extra: Record<string, unknown> = {}) => ({
  sub: 'u1',
  [CLAIM.version]: '1.3.0',
  [CLAIM.messageType]: 'LtiResourceLinkRequest',
  [CLAIM.deploymentId]: 'd1',
  [CLAIM.custom]: { test_id: 't1' },
  ...extra,
});

describe('lti/claims readLaunch', () => {
  it('reads a resource link: user, course, test, line item only with the score scope', () => {
    const r = readLaunch(
      base({
        name: 'Ada',
        email: 'ADA@x.example',
        [CLAIM.roles]: [INSTRUCTOR],
        [CLAIM.context]: { id: 'c1', label: 'PHY' },
        [CLAIM.ags]: { scope: ['https://purl.imsglobal.org/spec/lti-ags/scope/score'], lineitem: 'https://lms/li/1' },
        [CLAIM.nrps]: { context_memberships_url: 'https://lms/m' },
      }),
      ['d1'],
    );
    assert.ok('launch' in r && r.launch.kind === 'resource_link');
    assert.equal(r.launch.person.email, 'ada@x.example');
    assert.equal(r.launch.person.instructor, true);
    assert.deepEqual(r.launch.context, { id: 'c1', title: 'PHY' });
    assert.equal(r.launch.lineitem, 'https://lms/li/1');
    assert.equal(r.launch.membershipsUrl, 'https://lms/m');
    const noScope = readLaunch(base({ [CLAIM.ags]: { scope: [], lineitem: 'https://lms/li/1' } }), ['d1']);
    assert.ok('launch' in noScope && noScope.launch.kind === 'resource_link' && noScope.launch.lineitem === null);
  });

  it('refuses each missing or wrong claim with its reason', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [base({ [CLAIM.version]: '1.1' }), 'wrong_version'],
      [base({ [CLAIM.messageType]: 'Other' }), 'unknown_message_type'],
      [base({ [CLAIM.deploymentId]: 'd2' }), 'unknown_deployment'],
      [base({ sub: '' }), 'missing_sub'],
      [base({ [CLAIM.custom]: {} }), 'missing_test'],
      [
        base({ [CLAIM.messageType]: 'LtiDeepLinkingRequest', [CLAIM.roles]: [INSTRUCTOR] }),
        'missing_deep_link_return_url',
      ],
    ];
    for (const [payload, reason] of cases) assert.deepEqual(readLaunch(payload, ['d1']), { refusal: reason });
  });

  it('reads a deep-linking request with its return URL and data', () => {
    const r = readLaunch(
      base({
        [CLAIM.messageType]: 'LtiDeepLinkingRequest',
        [CLAIM.roles]: [INSTRUCTOR],
        [CLAIM.deepLinkingSettings]: { deep_link_return_url: 'https://lms/return', data: 'xyz' },
      }),
      ['d1'],
    );
    assert.ok('launch' in r && r.launch.kind === 'deep_linking');
    assert.equal(r.launch.returnUrl, 'https://lms/return');
    assert.equal(r.launch.data, 'xyz');
  });
});

describe('lti/claims readLaunch: who may deep link', () => {
  const deepLinking = (roles: unknown) =>
    base({
      [CLAIM.messageType]: 'LtiDeepLinkingRequest',
      [CLAIM.deepLinkingSettings]: { deep_link_return_url: 'https://lms/return' },
      [CLAIM.roles]: roles,
    });
  const cases: Array<[string, unknown, 'deep_linking' | 'deep_linking_role']> = [
    ['an Instructor of the course', [INSTRUCTOR], 'deep_linking'],
    [
      'an Administrator of the course',
      ['http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator'],
      'deep_linking',
    ],
    [
      'an Administrator of the institution',
      ['http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator'],
      'deep_linking',
    ],
    ['a Learner', ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'], 'deep_linking_role'],
    ['a Mentor', ['http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor'], 'deep_linking_role'],
    ['a user with no roles', [], 'deep_linking_role'],
    ['a roles claim that is not a list', INSTRUCTOR, 'deep_linking_role'],
  ];
  for (const [who, roles, outcome] of cases)
    it(`${outcome === 'deep_linking' ? 'opens' : 'refuses'} deep linking for ${who}`, () => {
      const r = readLaunch(deepLinking(roles), ['d1']);
      if (outcome === 'deep_linking') assert.ok('launch' in r && r.launch.kind === 'deep_linking', JSON.stringify(r));
      else assert.deepEqual(r, { refusal: 'deep_linking_role' });
    });
});

describe('lti/claims roleForNewUser', () => {
  it('makes an Instructor an admin only when allowed, a Learner never', () => {
    const person = (instructor: boolean) => ({ sub: 's', name: null, email: null, instructor });
    assert.equal(roleForNewUser(person(true), true), 'client_admin');
    assert.equal(roleForNewUser(person(true), false), 'student');
    assert.equal(roleForNewUser(person(false), true), 'student');
  });
});

describe('lti/claims keys and names', () => {
  it('keys a course by issuer and context id (40 hex), a user per organization', () => {
    assert.match(contextKey('https://lms', 'c1'), /^[0-9a-f]{40}$/);
    assert.notEqual(contextKey('https://lms', 'c1'), contextKey('https://other', 'c1'));
    assert.notEqual(ltiUid('org1', 'https://lms', 's'), ltiUid('org2', 'https://lms', 's'));
  });

  it('makes a class name unique with a counter', () => {
    const taken = new Set(['physics', 'physics (2)']);
    assert.equal(
      uniqueClassName('Physics', (n) => taken.has(n.toLowerCase())),
      'Physics (3)',
    );
    assert.equal(
      uniqueClassName('Chemistry', () => false),
      'Chemistry',
    );
  });
});

describe('lti/schemas platformUrlProblem', () => {
  it('takes https, and loopback http only on the emulators', () => {
    assert.equal(platformUrlProblem('https://lms.example/jwks'), null);
    assert.equal(platformUrlProblem('http://lms.example/jwks'), 'Must be an https URL');
    assert.equal(platformUrlProblem('nope'), 'Not a URL');
    const saved = process.env.ALLOW_LOOPBACK_URLS;
    process.env.ALLOW_LOOPBACK_URLS = 'false';
    try {
      assert.match(platformUrlProblem('http://127.0.0.1:8000/jwks') ?? '', /emulators only/);
    } finally {
      if (saved === undefined) delete process.env.ALLOW_LOOPBACK_URLS;
      else process.env.ALLOW_LOOPBACK_URLS = saved;
    }
  });
});

describe('lti/errorPage launchErrorPage', () => {
  it('escapes what it shows and loads nothing', () => {
    const page = launchErrorPage({ status: 401, message: '<script>x</script>', reason: 'bad_signature' });
    assert.doesNotMatch(page, /<script>/);
    assert.match(page, /&lt;script&gt;/);
    assert.match(page, /bad_signature/);
  });
});
