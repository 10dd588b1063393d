import { z } from 'zod';
import { ClientId, Uid } from '../shared';

// Requests and replies of the invitation links (also their OpenAPI schemas).

/** Links issued by one call: one batch of Firestore writes (four per student) and one Auth lookup. */
export const MAX_INVITATIONS_PER_CALL = 100;

export const invitationLinkText =
  'A link to the web app’s invitation page (its secret in the #fragment, never sent to a server): the student chooses a password there and is signed in. ' +
  'One use; valid for the organization’s invitation_days (default 7); a new link for the same student revokes this one. ' +
  'The service keeps only a digest of it: send it to the student yourself.';

const token = z.string().min(1).max(256).describe('The secret from the link’s fragment (#token=…)');

export const InvitationTokenBody = z.strictObject({ token }).meta({ id: 'InvitationToken' });

export const RedeemInvitationBody = z
  .strictObject({
    token,
    password: z
      .string()
      .min(8, 'Must be at least 8 characters')
      .max(128)
      .describe('The new password, 8 to 128 characters'),
  })
  .meta({ id: 'RedeemInvitation' });

export const InvitationPreview = z
  .object({
    email: z.string(),
    display_name: z.string().nullable(),
    expires_at: z.string().describe('ISO 8601 UTC: after this the link is refused'),
  })
  .meta({ id: 'InvitationPreview' });

export const RedeemedInvitation = z
  .object({
    uid: z.string(),
    email: z.string().describe('Sign in with this email and the password just chosen'),
    display_name: z.string().nullable(),
  })
  .meta({ id: 'RedeemedInvitation' });

export const IssuedInvitation = z
  .object({
    uid: z.string(),
    name: z.string().nullable().describe('The student’s display name'),
    email: z.string(),
    link: z.string().describe(invitationLinkText),
    expires_at: z.string().describe('ISO 8601 UTC'),
  })
  .meta({ id: 'IssuedInvitation' });
export type IssuedInvitation = z.infer<typeof IssuedInvitation>;

export const SkippedInvitation = z
  .object({
    uid: z.string(),
    reason: z
      .enum(['can_sign_in', 'disabled', 'no_email'])
      .describe('can_sign_in: the account can already sign in (only_cannot_sign_in); disabled: deactivated; no_email'),
  })
  .meta({ id: 'SkippedInvitation' });
export type SkippedInvitation = z.infer<typeof SkippedInvitation>;

export const InvitationBatch = z
  .object({
    client_id: z.string(),
    rows: z.array(IssuedInvitation).describe('One new link per student, by email'),
    skipped: z.array(SkippedInvitation).describe('Students given no link, and why'),
  })
  .meta({ id: 'InvitationBatch' });
export type InvitationBatch = z.infer<typeof InvitationBatch>;

export const IssueInvitationsBody = z
  .strictObject({
    uids: z
      .array(Uid)
      .min(1)
      .max(MAX_INVITATIONS_PER_CALL)
      .describe(`1 to ${MAX_INVITATIONS_PER_CALL} students of the organization (repeats count once)`),
    client_id: ClientId.optional().describe('The organization (a Super Admin names it; a Client Admin’s is its own)'),
    only_cannot_sign_in: z
      .boolean()
      .default(false)
      .describe('true: skip the students who can already sign in (a password, a linked provider, or a sign-in before)'),
  })
  .meta({ id: 'IssueInvitations' });

export const IssueClassInvitationsBody = z
  .strictObject({
    only_cannot_sign_in: z
      .boolean()
      .default(true)
      .describe('true (the default): only the members who cannot sign in yet; false: every member'),
  })
  .meta({ id: 'IssueClassInvitations' });
