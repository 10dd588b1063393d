import { z } from 'zod';
import { ClientId } from '../shared';
import { invitationLinkText } from '../invitations';
import { rosterImportOptions } from './schemas';

// The organization's roster import (POST /api/users/import) and the invitation links: query, replies
// (also their OpenAPI schemas). The mode and dry-run options are in schemas.ts, the class roster's too.

/** A file of this many rows is far bigger than any roster that fits in the row bound. */
export const MAX_USER_IMPORT_BYTES = 1024 * 1024;
/**
 * The new students' profiles and their user_created records are written in one batch, two writes a
 * student: Firestore commits at most 500 writes together.
 */
export const MAX_USER_IMPORT_ROWS = 240;

export const ImportUsersQuery = z.strictObject({
  client_id: ClientId.optional().describe('The organization (a Super Admin names it; a Client Admin’s is its own)'),
  ...rosterImportOptions,
});
export type ImportUsersOptions = z.infer<typeof ImportUsersQuery>;

/** An invitation link of our own (invitations/), for the admin to send to the student. */
const invitationLink = z.string().describe(invitationLinkText);

export const UserImportRow = z
  .object({
    line: z.number().int().describe('The file line of the row (the header is line 1)'),
    email: z.string().describe('As compared: trimmed, lower case'),
    name: z.string().nullable().describe('The name cell, trimmed; null when blank'),
    status: z
      .enum(['created', 'already_member', 'error'])
      .describe(
        'created: a new student account made; already_member: already a student of the organization (nothing changed, its password neither); error: see message',
      ),
    uid: z.string().optional().describe('The student’s uid (not on error rows)'),
    invitation_link: invitationLink
      .optional()
      .describe('On a created row without a password, once written (never in a dry run)'),
    message: z
      .string()
      .optional()
      .describe('Why the row cannot be imported (error rows), or why a created row has no invitation link'),
  })
  .meta({ id: 'UserImportRow' });
export type UserImportRow = z.infer<typeof UserImportRow>;

export const UserImportResult = z
  .object({
    client_id: z.string(),
    dry_run: z.boolean(),
    mode: z.enum(['all_or_nothing', 'partial']),
    rows_total: z.number().int(),
    created: z.number().int().describe('Student accounts created (dry run: that would be)'),
    already_members: z.number().int().describe('Rows naming a student the organization already has'),
    failed: z.number().int().describe('Rows in error (only with mode=partial: otherwise the reply is a 400)'),
    rows: z.array(UserImportRow).describe('Every row, in file order'),
  })
  .meta({ id: 'UserImportResult' });
export type UserImportResult = z.infer<typeof UserImportResult>;

export const Invitation = z
  .object({
    uid: z.string(),
    email: z.string(),
    invitation_link: invitationLink,
    expires_at: z.string().optional().describe('ISO 8601 UTC: when the link stops working'),
  })
  .meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof Invitation>;
