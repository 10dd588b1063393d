import type { Schemas } from '../../api';
import { plural } from '../../ui';
import { personName, shortId } from '../people';

// Pure: an audit record as a sentence a person reads ("Ada Lovelace changed the settings of
// the test “Chemistry mock”"), with the names the API read for the page.

type AuditLog = Schemas['AuditLog'];
export type AuditEventType = AuditLog['event_type'];

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const count = (value: unknown): number | null => (typeof value === 'number' ? value : null);

interface Parts {
  /** Who the event is about. */
  user: string;
  /** Who did it: the actor, or the user when no one else is named. */
  actor: string;
  /** Whether someone other than the user did it. */
  byOther: boolean;
  test: string;
  details: Record<string, unknown>;
  record: AuditLog;
}

const classNamed = (d: Record<string, unknown>) => {
  const name = text(d.class_name) ?? text(d.name);
  return name ? `the class “${name}”` : 'a class';
};

const forUser = (p: Parts) => (p.byOther ? ` for ${p.user}` : '');

// The Record makes the compiler check that every event type has its sentence.
const SENTENCES: Record<AuditEventType, (p: Parts) => string> = {
  login: (p) => `${p.user} signed in`,
  token_rejected: (p) =>
    `A sign-in was refused${p.record.reason ? ` (${p.record.reason.replace(/_/g, ' ')})` : ''}${
      p.record.user_id ? ` for the account ${shortId(p.record.user_id)}` : ''
    }`,
  user_created: (p) => (p.byOther ? `${p.actor} added ${p.user}` : `${p.user} was added`),
  role_changed: (p) =>
    `${p.actor} changed the role of ${p.user}${text(p.details.to) ? ` to ${text(p.details.to)!.replace(/_/g, ' ')}` : ''}`,
  password_changed: (p) =>
    p.byOther ? `${p.actor} set a new password for ${p.user}` : `${p.user} changed their password`,
  profile_changed: (p) =>
    p.byOther ? `${p.actor} changed the profile of ${p.user}` : `${p.user} changed their profile`,
  user_disabled: (p) => `${p.actor} deactivated ${p.user}`,
  user_enabled: (p) => `${p.actor} reactivated ${p.user}`,
  user_deleted: (p) => `${p.actor} deleted ${p.user}`,
  invitation_issued: (p) => `${p.actor} made an invitation link for ${p.user}`,
  user_joined: (p) =>
    `${p.user} joined with a ${text(p.details.provider) === 'microsoft.com' ? 'Microsoft' : 'Google'} school account`,
  email_domain_bound: (p) => `${p.actor} bound the email domain ${text(p.details.domain) ?? ''}`,
  email_domain_unbound: (p) => `${p.actor} unbound the email domain ${text(p.details.domain) ?? ''}`,
  invitation_revoked: (p) => `${p.actor} withdrew the invitation link of ${p.user}`,
  invitation_redeemed: (p) => `${p.user} chose a password with their invitation link`,
  attempt_started: (p) => (p.byOther ? `${p.actor} started ${p.test} for ${p.user}` : `${p.user} started ${p.test}`),
  attempt_resumed: (p) => (p.byOther ? `${p.actor} resumed ${p.test} for ${p.user}` : `${p.user} resumed ${p.test}`),
  share_code_redeemed: (p) =>
    `${text(p.details.guest_name) ? `${text(p.details.guest_name)} (guest)` : p.user} used a share code for ${p.test}`,
  attempt_submitted: (p) =>
    p.record.actor_id === null
      ? `The attempt of ${p.user} at ${p.test} was closed at its deadline`
      : p.byOther
        ? `${p.actor} submitted the attempt of ${p.user} at ${p.test}`
        : `${p.user} submitted ${p.test}`,
  test_settings_changed: (p) => `${p.actor} changed the settings of ${p.test}`,
  override_set: (p) => `${p.actor} set an override of ${p.test}${forUser(p)}`,
  override_deleted: (p) => `${p.actor} removed the override of ${p.test}${forUser(p)}`,
  accommodation_set: (p) => `${p.actor} set the accommodations of ${p.user}`,
  attempt_extended: (p) => {
    const minutes = count(p.details.minutes);
    return `${p.actor} gave ${p.user} ${minutes === null ? 'more time' : `${plural(minutes, 'more minute')}`} on ${p.test}`;
  },
  test_extended: (p) => `${p.actor} extended ${p.test}`,
  test_version_published: (p) => {
    const version = count(p.details.version);
    return `${p.actor} published ${version === null ? 'a new version' : `version ${version}`} of ${p.test}`;
  },
  test_new_version_discarded: (p) => `${p.actor} discarded the new version being edited of ${p.test}`,
  test_assignment_changed: (p) => `${p.actor} changed which classes are assigned ${p.test}`,
  class_override_set: (p) => `${p.actor} set a class override of ${p.test}`,
  class_override_deleted: (p) => `${p.actor} removed a class override of ${p.test}`,
  networks_set: (p) => `${p.actor} set the organization’s exam networks`,
  webhook_created: (p) => `${p.actor} added a webhook`,
  webhook_deleted: (p) => `${p.actor} deleted a webhook`,
  webhook_secret_rotated: (p) => `${p.actor} rotated a webhook’s secret`,
  webhook_disabled: (p) => `A webhook was turned off${p.byOther ? ` by ${p.actor}` : ''}`,
  webhook_delivery_resent: (p) => `${p.actor} sent a webhook delivery again`,
  essay_graded: (p) => `${p.actor} graded an essay by ${p.user} in ${p.test}`,
  version_regraded: (p) => `${p.actor} regraded ${p.test}`,
  attempt_regraded: (p) => `The attempt of ${p.user} at ${p.test} was regraded${p.byOther ? ` by ${p.actor}` : ''}`,
  class_created: (p) => `${p.actor} created ${classNamed(p.details)}`,
  class_updated: (p) => `${p.actor} changed ${classNamed(p.details)}`,
  class_deleted: (p) => `${p.actor} deleted ${classNamed(p.details)}`,
  class_member_added: (p) => `${p.actor} added ${p.user} to ${classNamed(p.details)}`,
  class_member_removed: (p) => `${p.actor} removed ${p.user} from ${classNamed(p.details)}`,
  class_members_imported: (p) => {
    const added = count(p.details.added);
    return `${p.actor} imported ${added === null ? 'students' : plural(added, 'student')} into ${classNamed(p.details)}`;
  },
  lti_platform_registered: (p) =>
    `${p.actor} registered the LTI platform ${text(p.details.name) ?? text(p.details.issuer) ?? ''}`.trimEnd(),
  lti_platform_updated: (p) => `${p.actor} edited the LTI platform ${text(p.details.issuer) ?? ''}`.trimEnd(),
  lti_platform_deleted: (p) => `${p.actor} removed an LTI platform`,
};

/** The names list every event type: the filter's choices. */
export const EVENT_TYPES = Object.keys(SENTENCES) as AuditEventType[];

/** The record as one sentence, with the actor's and the user's names. */
export function describeEvent(record: AuditLog): string {
  const user = personName({ name: record.user_name, email: record.user_email, uid: record.user_id || '—' });
  const byOther = record.actor_id !== null && record.actor_id !== record.user_id;
  const actor = byOther
    ? personName({ name: record.actor_name, email: record.actor_email, uid: record.actor_id! })
    : user;
  const testId = text(record.details?.test_id);
  const test = record.test_name ? `the test “${record.test_name}”` : testId ? `the test ${shortId(testId)}` : 'a test';
  return SENTENCES[record.event_type]({ user, actor, byOther, test, details: record.details ?? {}, record });
}
