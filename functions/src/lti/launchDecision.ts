import type { StoredClient } from '../clients';
import type { StoredTest } from '../exams';
import type { StoredProfile } from '../users';
import type { Launch } from './claims';
import type { StoredLtiContext, StoredLtiOutcome, StoredLtiPlatform, StoredLtiUser } from './documents';

// Pure: what a verified launch does with what its transaction read. A launch already in place
// (user, course, membership, assignment) completes in that transaction; a first launch says what it
// still creates or reuses after it. No Firebase import: store.ts consumeLaunch reads and writes, this decides.

/** What the launch's transaction read (the registration as it stands now). */
export interface LaunchReads {
  client: StoredClient | undefined;
  platform: StoredLtiPlatform;
  mapping: StoredLtiUser | undefined;
  profile: StoredProfile | undefined;
  context: StoredLtiContext | undefined;
  test: StoredTest | undefined;
}

/** Why the launch is refused once its state and nonce are spent. */
export type LaunchRefusal = 'unknown_deployment' | 'organization_inactive' | 'account_disabled' | 'test_not_here';

/** What a first launch adds after its transaction. */
export interface FirstLaunch {
  user: 'create' | 'reuse';
  courseClass: 'create' | 'reuse' | 'none';
  /** For a new account, 'add' means added if the account turns out a student (one an earlier launch left keeps its role). */
  membership: 'add' | 'in place' | 'none';
  assignment: 'add' | 'in place' | 'none';
}

export interface LaunchDecision {
  /** Written in the transaction: the course's new roster URL. */
  membershipsUrl: string | null;
  /** Written in the transaction: where the student's score goes (a launch in place only). */
  outcome: { testId: string; outcome: StoredLtiOutcome } | null;
  refusal: LaunchRefusal | null;
  /** null: everything was in place, and the transaction completed the launch. */
  firstLaunch: FirstLaunch | null;
}

export function decideLaunch(request: Launch, reads: LaunchReads, now: string): LaunchDecision {
  const { membershipsUrl, outcome, inPlace } = settlement(request, reads, now);
  return {
    membershipsUrl,
    outcome,
    refusal: refusalOf(request, reads),
    firstLaunch: inPlace ? null : firstLaunch(request, reads),
  };
}

/** Checked in this order once the transaction has committed (the state and the nonce are spent either way). */
function refusalOf(request: Launch, reads: LaunchReads): LaunchRefusal | null {
  if (!reads.platform.deployment_ids.includes(request.deploymentId)) return 'unknown_deployment';
  if (reads.client?.active_status !== 1) return 'organization_inactive';
  if (reads.profile?.disabled) return 'account_disabled';
  if (request.kind === 'resource_link' && !published(reads.test)) return 'test_not_here';
  return null;
}

const published = (test: StoredTest | undefined): test is StoredTest => test?.status === 'published';

const nothingWritten = { membershipsUrl: null, outcome: null, inPlace: false };

/** The transaction's writes, and whether they complete the launch. */
function settlement(request: Launch, reads: LaunchReads, now: string) {
  // The registration as it stands now: deleted, or the deployment removed since the login, refuses.
  if (!reads.platform.deployment_ids.includes(request.deploymentId)) return nothingWritten;
  const { profile, context, test } = reads;
  if (!profile || !reads.mapping || reads.client?.active_status !== 1) return nothingWritten;
  if (request.context && !context) return nothingWritten;
  const membershipsUrl =
    context && request.membershipsUrl && context.memberships_url !== request.membershipsUrl
      ? request.membershipsUrl
      : null;
  const partly = { membershipsUrl, outcome: null, inPlace: false };
  // A deep-linking launch always goes on: its session is made after the transaction.
  if (request.kind !== 'resource_link' || !published(test)) return partly;
  const classId = context?.class_id;
  const isStudent = profile.role === 'student';
  if (classId && isStudent && !(profile.class_ids ?? []).includes(classId)) return partly;
  if (classId && !(test.assigned_class_ids ?? []).includes(classId)) return partly;
  const outcome =
    isStudent && request.lineitem
      ? {
          testId: request.testId,
          outcome: {
            platform_id: reads.platform.id,
            lineitem: request.lineitem,
            user_sub: request.person.sub,
            updated_at: now,
          },
        }
      : null;
  return { membershipsUrl, outcome, inPlace: true };
}

function firstLaunch(request: Launch, reads: LaunchReads): FirstLaunch {
  const { profile, context, test } = reads;
  const courseClass = !request.context ? 'none' : context ? 'reuse' : 'create';
  return {
    user: profile ? 'reuse' : 'create',
    courseClass,
    membership: membershipOf(courseClass, profile, context),
    assignment:
      request.kind !== 'resource_link' || courseClass === 'none'
        ? 'none'
        : context && (test?.assigned_class_ids ?? []).includes(context.class_id)
          ? 'in place'
          : 'add',
  };
}

function membershipOf(
  courseClass: FirstLaunch['courseClass'],
  profile: StoredProfile | undefined,
  context: StoredLtiContext | undefined,
): FirstLaunch['membership'] {
  if (courseClass === 'none') return 'none';
  if (!profile) return 'add';
  if (profile.role !== 'student') return 'none';
  return context && (profile.class_ids ?? []).includes(context.class_id) ? 'in place' : 'add';
}
