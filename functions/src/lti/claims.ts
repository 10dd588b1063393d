import { createHash } from 'node:crypto';
import { newProfile, type StoredProfile } from '../users';

// Pure: what an LTI 1.3 id_token must carry once its signature, iss, aud, exp
// and nonce have been checked (verify.ts), and what a launch takes from it.
// No Firebase here: every refusal is a value, so each check is a unit test.

export const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';
export const CLAIM = {
  messageType: `${LTI}message_type`,
  version: `${LTI}version`,
  deploymentId: `${LTI}deployment_id`,
  targetLinkUri: `${LTI}target_link_uri`,
  resourceLink: `${LTI}resource_link`,
  roles: `${LTI}roles`,
  context: `${LTI}context`,
  custom: `${LTI}custom`,
  ags: 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint',
  nrps: 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice',
  deepLinkingSettings: 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings',
  dlContentItems: 'https://purl.imsglobal.org/spec/lti-dl/claim/content_items',
  dlData: 'https://purl.imsglobal.org/spec/lti-dl/claim/data',
} as const;

export const LTI_VERSION = '1.3.0';
export const RESOURCE_LINK = 'LtiResourceLinkRequest';
export const DEEP_LINKING = 'LtiDeepLinkingRequest';
export const AGS_SCORE_SCOPE = 'https://purl.imsglobal.org/spec/lti-ags/scope/score';

const INSTRUCTOR_ROLES = [
  'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
  'http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator',
  'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator',
];

/** The longest id_token accepted (a real one is 1 to 4 KB; a platform's custom claims leave room). */
export const MAX_ID_TOKEN_LENGTH = 16_384;

/** The checks after the signature, each with the reason a refusal names (docs/api.md lists them). */
export type LaunchRefusal =
  | 'wrong_version'
  | 'unknown_message_type'
  | 'unknown_deployment'
  | 'missing_sub'
  | 'missing_deep_link_return_url'
  | 'deep_linking_role'
  | 'missing_test';

export const REFUSAL_TEXT: Record<LaunchRefusal, string> = {
  wrong_version: `The launch is not LTI ${LTI_VERSION}`,
  unknown_message_type: `The launch's message type is not ${RESOURCE_LINK} or ${DEEP_LINKING}`,
  unknown_deployment: 'The launch names a deployment that is not registered for this platform',
  missing_sub: 'The launch does not name its user (sub)',
  missing_deep_link_return_url: 'The deep-linking request has no deep_link_return_url',
  deep_linking_role:
    'Only an Instructor or Administrator of the course may link a test (deep linking); open the activity as a student instead',
  missing_test: 'The link names no test (custom parameter test_id); link a test again through deep linking',
};

const text = (value: unknown, max = 1000): string | null =>
  typeof value === 'string' && value.trim().length > 0 ? value.trim().slice(0, max) : null;
const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export interface LaunchPerson {
  sub: string;
  name: string | null;
  email: string | null;
  instructor: boolean;
}

export interface LaunchContext {
  id: string;
  title: string;
}

export interface ResourceLinkLaunch {
  kind: 'resource_link';
  deploymentId: string;
  person: LaunchPerson;
  context: LaunchContext | null;
  testId: string;
  /** The AGS line item, when the platform gives one and lets the tool post scores. */
  lineitem: string | null;
  membershipsUrl: string | null;
}

export interface DeepLinkingLaunch {
  kind: 'deep_linking';
  deploymentId: string;
  person: LaunchPerson;
  context: LaunchContext | null;
  returnUrl: string;
  data: string | null;
  membershipsUrl: string | null;
}

export type Launch = ResourceLinkLaunch | DeepLinkingLaunch;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const emailOf = (value: string | null): string | null =>
  value !== null && EMAIL.test(value) ? value.toLowerCase() : null;

function person(payload: Record<string, unknown>): LaunchPerson | null {
  const sub = text(payload.sub, 255);
  if (!sub) return null;
  const given = [text(payload.given_name, 100), text(payload.family_name, 100)].filter(Boolean).join(' ');
  const roles = Array.isArray(payload[CLAIM.roles]) ? (payload[CLAIM.roles] as unknown[]) : [];
  return {
    sub,
    name: text(payload.name, 100) ?? (given.length > 0 ? given : null),
    // Not an address (a platform's odd claim): the account goes without one, as Auth would refuse it.
    email: emailOf(text(payload.email, 254)),
    instructor: roles.some((r) => typeof r === 'string' && INSTRUCTOR_ROLES.includes(r)),
  };
}

function context(payload: Record<string, unknown>): LaunchContext | null {
  const claim = record(payload[CLAIM.context]);
  const id = text(claim.id, 255);
  if (!id) return null;
  return { id, title: text(claim.title, 100) ?? text(claim.label, 100) ?? `Course ${id.slice(0, 40)}` };
}

const httpUrl = (value: unknown): string | null => {
  const url = text(value, 2000);
  if (!url) return null;
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
};

/**
 * What a verified id_token launches, or why it is refused: LTI 1.3.0, a message type the tool
 * handles, one of the registration's deployments, a user.
 */
export function readLaunch(
  payload: Record<string, unknown>,
  deploymentIds: readonly string[],
): { launch: Launch } | { refusal: LaunchRefusal } {
  if (payload[CLAIM.version] !== LTI_VERSION) return { refusal: 'wrong_version' };
  const type = payload[CLAIM.messageType];
  if (type !== RESOURCE_LINK && type !== DEEP_LINKING) return { refusal: 'unknown_message_type' };
  const deploymentId = payload[CLAIM.deploymentId];
  if (typeof deploymentId !== 'string' || !deploymentIds.includes(deploymentId))
    return { refusal: 'unknown_deployment' };
  const who = person(payload);
  if (!who) return { refusal: 'missing_sub' };
  const nrps = record(payload[CLAIM.nrps]);
  const membershipsUrl = httpUrl(nrps.context_memberships_url);
  if (type === DEEP_LINKING) {
    // The picker lists every published test and assigns the choice to the course's class: a teacher's act.
    if (!who.instructor) return { refusal: 'deep_linking_role' };
    const settings = record(payload[CLAIM.deepLinkingSettings]);
    const returnUrl = httpUrl(settings.deep_link_return_url);
    if (!returnUrl) return { refusal: 'missing_deep_link_return_url' };
    return {
      launch: {
        kind: 'deep_linking',
        deploymentId,
        person: who,
        context: context(payload),
        returnUrl,
        data: text(settings.data, 4000),
        membershipsUrl,
      },
    };
  }
  const testId = text(record(payload[CLAIM.custom]).test_id, 128);
  if (!testId) return { refusal: 'missing_test' };
  const ags = record(payload[CLAIM.ags]);
  const scopes = Array.isArray(ags.scope) ? ags.scope : [];
  const lineitem = scopes.includes(AGS_SCORE_SCOPE) ? httpUrl(ags.lineitem) : null;
  return {
    launch: {
      kind: 'resource_link',
      deploymentId,
      person: who,
      context: context(payload),
      testId,
      lineitem,
      membershipsUrl,
    },
  };
}

/**
 * The profile of a platform user's new account. Its `email` is the address the Auth account really
 * has (what sign-in, search and member lists use; empty when none); the platform's claim is kept
 * apart as `lms_email` when it is not that address (another account holds it): shown as the
 * platform's word, never an identity.
 */
export function ltiProfile(
  account: { uid: string; display_name: string; role: 'client_admin' | 'student'; client_id: string },
  emails: { account: string | undefined; claimed: string | null },
  now: string,
): StoredProfile {
  const email = emails.account?.toLowerCase() ?? '';
  const profile = newProfile({ ...account, email }, now);
  return emails.claimed && emails.claimed !== email ? { ...profile, lms_email: emails.claimed } : profile;
}

/** The role a platform user gets when first seen: an Instructor is a Client Admin only where the registration says so. */
export const roleForNewUser = (launchPerson: LaunchPerson, instructorsAsAdmins: boolean): 'client_admin' | 'student' =>
  launchPerson.instructor && instructorsAsAdmins ? 'client_admin' : 'student';

const sha40 = (...parts: string[]): string => createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 40);

/** The registry key of an (issuer, platform client id) pair: unique across organizations. */
export const platformPairKey = (issuer: string, platformClientId: string): string => sha40(issuer, platformClientId);
/** The key of a platform course (the shared design: sha256 of issuer + "\n" + context id, 40 hex). */
export const contextKey = (issuer: string, contextId: string): string => sha40(issuer, contextId);
/** The key of a platform user: issuer + sub. */
export const userKey = (issuer: string, sub: string): string => sha40(issuer, sub);
/** The key of a used nonce, per issuer. */
export const nonceKey = (issuer: string, nonce: string): string => sha40(issuer, nonce);
/** The Firebase uid of a user a launch creates (deterministic: two first launches at once make one account). */
export const ltiUid = (clientId: string, issuer: string, sub: string): string => `lti_${sha40(clientId, issuer, sub)}`;

/** A class name not among `taken` (normalized names): the course's title, then "title (2)", "title (3)", … */
export function uniqueClassName(title: string, isTaken: (name: string) => boolean, max = 100): string {
  const base = title.slice(0, max);
  if (!isTaken(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const name = `${base.slice(0, max - suffix.length)}${suffix}`;
    if (!isTaken(name)) return name;
  }
}
