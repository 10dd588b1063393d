import { z } from 'zod';
import { ClientId, pagedQuery, Pagination, queryBoolean, Uid } from '../shared';
import { nameSchemaFields } from '../people';

export const AUDIT_EVENT_TYPES = [
  'login',
  'token_rejected',
  'user_created',
  'role_changed',
  'password_changed',
  'profile_changed',
  'user_disabled',
  'user_enabled',
  'user_deleted',
  'invitation_issued',
  'user_joined',
  // ---- organizations: email domains signing in with a school's accounts
  'email_domain_bound',
  'email_domain_unbound',
  'invitation_revoked',
  'invitation_redeemed',
  // ---- attempts
  'attempt_started',
  'attempt_resumed',
  'share_code_redeemed',
  'attempt_submitted',
  // ---- sittings
  'test_settings_changed',
  'override_set',
  'override_deleted',
  'accommodation_set',
  'attempt_extended',
  'test_extended',
  // ---- classes: assignments and class overrides
  'test_assignment_changed',
  // ---- a published test's next version
  'test_version_published',
  'test_new_version_discarded',
  'class_override_set',
  'class_override_deleted',
  // ---- the exam hall
  'networks_set',
  // ---- integrations: webhooks
  'webhook_created',
  'webhook_deleted',
  'webhook_secret_rotated',
  'webhook_disabled',
  'webhook_delivery_resent',
  // ---- grading and regrading
  'essay_graded',
  'version_regraded',
  'attempt_regraded',
  // ---- classes
  'class_created',
  'class_updated',
  'class_deleted',
  'class_member_added',
  'class_member_removed',
  'class_members_imported',
  // ---- integrations: LTI
  'lti_platform_registered',
  'lti_platform_updated',
  'lti_platform_deleted',
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** A record as audit_logs keeps it. */
const AuditRecord = z.object({
  id: z.string(),
  event_type: z.enum(AUDIT_EVENT_TYPES),
  user_id: z
    .string()
    .describe('The user the event is about; for a refused token, the uid it claimed (unverified) or ""'),
  ip_address: z.string(),
  success: z.boolean(),
  timestamp: z.string().describe('ISO 8601 UTC'),
  client_id: z
    .string()
    .nullable()
    .describe('Organization of the user, when known from a verified token or the user record'),
  actor_id: z.string().nullable().describe('Who performed a user-management event'),
  reason: z.string().nullable().describe('Why a token was refused: expired, invalid, malformed, revoked or disabled'),
  user_agent: z.string().nullable(),
  request_id: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditRecord = z.infer<typeof AuditRecord>;

/** A record as the API answers it: with the names of the people (and the test) it mentions, read for the page. */
export const AuditLog = AuditRecord.extend({
  ...nameSchemaFields('user', 'the user the event is about (not given for a refused token: its uid is unverified)'),
  ...nameSchemaFields('actor', 'who performed it'),
  test_name: z
    .string()
    .nullable()
    .describe('The name of the test details.test_id names, when it names one that still exists; else null'),
}).meta({ id: 'AuditLog' });
export type AuditLog = z.infer<typeof AuditLog>;

export const ListAuditLogsQuery = pagedQuery({
  client_id: ClientId.optional(),
  event_type: z.enum(AUDIT_EVENT_TYPES).optional(),
  user_id: Uid.optional(),
  success: queryBoolean.optional(),
});

export const AuditLogPage = z.object({ data: z.array(AuditLog), pagination: Pagination }).meta({ id: 'AuditLogPage' });
