import assert from 'node:assert/strict';
import type { StoredClient } from '../../functions/src/clients/documents';
import type { StoredTest } from '../../functions/src/exams/documents';
import type { DeepLinkingLaunch, ResourceLinkLaunch } from '../../functions/src/lti/claims';
import type { StoredLtiContext, StoredLtiPlatform } from '../../functions/src/lti/documents';
import { decideLaunch, type LaunchDecision, type LaunchReads } from '../../functions/src/lti/launchDecision';
import type { StoredProfile } from '../../functions/src/users/documents';

// decideLaunch alone: no emulator, no Firebase. A launch with its user, course, membership and
// assignment in place completes in its transaction (the outcome, a new roster URL); a first launch
// says what it creates or reuses after; refusals come once the state and nonce are spent.

const NOW = '2030-01-10T12:00:00.000Z';
const CLASS = 'class-1';
const LINEITEM = 'https://lms.example/lineitems/1';

const platform: StoredLtiPlatform = {
  id: 'p1',
  client_id: 'c1',
  issuer: 'https://lms.example',
  platform_client_id: 'tool-1',
  deployment_ids: ['1'],
  auth_login_url: 'https://lms.example/auth',
  auth_token_url: 'https://lms.example/token',
  jwks_url: 'https://lms.example/jwks',
  name: 'LMS',
  instructors_as_admins: false,
  created_at: NOW,
  updated_at: NOW,
};

const client = { id: 'c1', active_status: 1 } as StoredClient;

const student = (fields: Partial<StoredProfile> = {}): StoredProfile => ({
  uid: 'u1',
  email: 'ann@example.com',
  display_name: 'Ann',
  role: 'student',
  client_id: 'c1',
  disabled: false,
  created_at: NOW,
  updated_at: NOW,
  class_ids: [CLASS],
  ...fields,
});

const context = (fields: Partial<StoredLtiContext> = {}): StoredLtiContext => ({
  platform_id: 'p1',
  issuer: platform.issuer,
  context_id: 'course-1',
  title: 'Algebra',
  class_id: CLASS,
  memberships_url: null,
  roster_synced_at: null,
  created_at: NOW,
  ...fields,
});

const test = (fields: Partial<StoredTest> = {}) =>
  ({ id: 't1', status: 'published', assigned_class_ids: [CLASS], ...fields }) as StoredTest;

/** Everything in place: the user mapped with its profile, the course's class, the membership, the assignment. */
const inPlace = (fields: Partial<LaunchReads> = {}): LaunchReads => ({
  client,
  platform,
  mapping: { platform_id: 'p1', issuer: platform.issuer, sub: 'sub-1', uid: 'u1', created_at: NOW },
  profile: student(),
  context: context(),
  test: test(),
  ...fields,
});

const person = { sub: 'sub-1', name: 'Ann', email: 'ann@example.com', instructor: false };

const resourceLink = (fields: Partial<ResourceLinkLaunch> = {}): ResourceLinkLaunch => ({
  kind: 'resource_link',
  deploymentId: '1',
  person,
  context: { id: 'course-1', title: 'Algebra' },
  testId: 't1',
  lineitem: LINEITEM,
  membershipsUrl: null,
  ...fields,
});

const deepLinking = (fields: Partial<DeepLinkingLaunch> = {}): DeepLinkingLaunch => ({
  kind: 'deep_linking',
  deploymentId: '1',
  person: { ...person, instructor: true },
  context: { id: 'course-1', title: 'Algebra' },
  returnUrl: 'https://lms.example/return',
  data: null,
  membershipsUrl: null,
  ...fields,
});

const outcome = {
  testId: 't1',
  outcome: { platform_id: 'p1', lineitem: LINEITEM, user_sub: 'sub-1', updated_at: NOW },
};

const first = (fields: Partial<NonNullable<LaunchDecision['firstLaunch']>> = {}) => ({
  user: 'reuse' as const,
  courseClass: 'reuse' as const,
  membership: 'in place' as const,
  assignment: 'in place' as const,
  ...fields,
});

const decided = (fields: Partial<LaunchDecision>): LaunchDecision => ({
  membershipsUrl: null,
  outcome: null,
  refusal: null,
  firstLaunch: null,
  ...fields,
});

const cases: {
  name: string;
  request: ResourceLinkLaunch | DeepLinkingLaunch;
  reads: LaunchReads;
  want: LaunchDecision;
}[] = [
  {
    name: 'a student launch in place completes in the transaction, with its outcome',
    request: resourceLink(),
    reads: inPlace(),
    want: decided({ outcome }),
  },
  {
    name: 'without a line item, a launch in place writes no outcome',
    request: resourceLink({ lineitem: null }),
    reads: inPlace(),
    want: decided({}),
  },
  {
    name: 'an administrator in place gets no outcome',
    request: resourceLink(),
    reads: inPlace({ profile: student({ role: 'client_admin', class_ids: [] }) }),
    want: decided({}),
  },
  {
    name: 'a launch without a course, in place, completes',
    request: resourceLink({ context: null }),
    reads: inPlace({ context: undefined, test: test({ assigned_class_ids: [] }) }),
    want: decided({ outcome }),
  },
  {
    name: 'a new roster URL is written on the mapped course',
    request: resourceLink({ membershipsUrl: 'https://lms.example/members' }),
    reads: inPlace(),
    want: decided({ membershipsUrl: 'https://lms.example/members', outcome }),
  },
  {
    name: 'the same roster URL is not written again',
    request: resourceLink({ membershipsUrl: 'https://lms.example/members' }),
    reads: inPlace({ context: context({ memberships_url: 'https://lms.example/members' }) }),
    want: decided({ outcome }),
  },
  {
    name: 'a first launch creates the user, reuses the course, adds the membership',
    request: resourceLink(),
    reads: inPlace({ mapping: undefined, profile: undefined }),
    want: decided({ firstLaunch: first({ user: 'create', membership: 'add' }) }),
  },
  {
    name: 'a profile without its mapping is reused, and the launch is not in place',
    request: resourceLink(),
    reads: inPlace({ mapping: undefined }),
    want: decided({ firstLaunch: first() }),
  },
  {
    name: "a course's first launch creates its class, the membership and the assignment",
    request: resourceLink({ membershipsUrl: 'https://lms.example/members' }),
    reads: inPlace({ context: undefined, profile: student({ class_ids: [] }) }),
    want: decided({ firstLaunch: first({ courseClass: 'create', membership: 'add', assignment: 'add' }) }),
  },
  {
    name: 'a student not yet in the class: added, with the outcome left to the first launch',
    request: resourceLink({ membershipsUrl: 'https://lms.example/members' }),
    reads: inPlace({ profile: student({ class_ids: [] }) }),
    want: decided({ membershipsUrl: 'https://lms.example/members', firstLaunch: first({ membership: 'add' }) }),
  },
  {
    name: 'a test not yet assigned to the class: assigned',
    request: resourceLink(),
    reads: inPlace({ test: test({ assigned_class_ids: [] }) }),
    want: decided({ firstLaunch: first({ assignment: 'add' }) }),
  },
  {
    name: 'an administrator not in the class is not added to it',
    request: resourceLink(),
    reads: inPlace({
      profile: student({ role: 'client_admin', class_ids: [] }),
      test: test({ assigned_class_ids: [] }),
    }),
    want: decided({ firstLaunch: first({ membership: 'none', assignment: 'add' }) }),
  },
  {
    name: 'a deep-linking launch always goes on after the transaction (its session), assigning nothing',
    request: deepLinking({ membershipsUrl: 'https://lms.example/members' }),
    reads: inPlace({ test: undefined }),
    want: decided({ membershipsUrl: 'https://lms.example/members', firstLaunch: first({ assignment: 'none' }) }),
  },
  {
    name: 'a deep-linking launch without a course: no class, no membership',
    request: deepLinking({ context: null }),
    reads: inPlace({ context: undefined, test: undefined, mapping: undefined, profile: undefined }),
    want: decided({
      firstLaunch: first({ user: 'create', courseClass: 'none', membership: 'none', assignment: 'none' }),
    }),
  },
  {
    name: 'a deployment removed since the login: refused, nothing written',
    request: resourceLink({ deploymentId: '2', membershipsUrl: 'https://lms.example/members' }),
    reads: inPlace(),
    want: decided({ refusal: 'unknown_deployment', firstLaunch: first() }),
  },
  {
    name: 'an inactive organization: refused, nothing written',
    request: resourceLink({ membershipsUrl: 'https://lms.example/members' }),
    reads: inPlace({ client: { ...client, active_status: 0 } }),
    want: decided({ refusal: 'organization_inactive', firstLaunch: first() }),
  },
  {
    name: 'a deleted organization: refused as inactive',
    request: resourceLink(),
    reads: inPlace({ client: undefined }),
    want: decided({ refusal: 'organization_inactive', firstLaunch: first() }),
  },
  {
    name: 'a disabled account in place: its outcome is written, then the launch is refused',
    request: resourceLink(),
    reads: inPlace({ profile: student({ disabled: true }) }),
    want: decided({ outcome, refusal: 'account_disabled' }),
  },
  {
    name: 'a test no longer published: refused after the roster URL is written',
    request: resourceLink({ membershipsUrl: 'https://lms.example/members' }),
    reads: inPlace({ test: test({ status: 'draft' }) }),
    want: decided({
      membershipsUrl: 'https://lms.example/members',
      refusal: 'test_not_here',
      firstLaunch: first(),
    }),
  },
  {
    name: 'a test that is not there: refused',
    request: resourceLink(),
    reads: inPlace({ test: undefined }),
    want: decided({ refusal: 'test_not_here', firstLaunch: first({ assignment: 'add' }) }),
  },
];

describe('lti decideLaunch', () => {
  for (const c of cases)
    it(c.name, () => {
      assert.deepEqual(decideLaunch(c.request, c.reads, NOW), c.want);
    });

  it('is refused for the deployment before anything else', () => {
    const reads = inPlace({ client: undefined, profile: student({ disabled: true }), test: undefined });
    assert.equal(decideLaunch(resourceLink({ deploymentId: '9' }), reads, NOW).refusal, 'unknown_deployment');
  });
});
