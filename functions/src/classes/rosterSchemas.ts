import { z } from 'zod';
import { MAX_ID_LENGTH } from '../shared';
import { rosterImportOptions } from '../users';

// The roster import's query and reply (also its OpenAPI schemas).

/** A roster is at most a class's worth of rows; this many bytes holds them with room to spare. */
export const MAX_ROSTER_BYTES = 1024 * 1024;
/**
 * A roster is added in one transaction, two writes a student (its member document and its profile) and
 * two more (the class, the audit record): Firestore commits at most 500 writes together. A class of up
 * of up to 500 (MAX_MEMBERS_PER_CLASS) takes a few files.
 */
export const MAX_ROSTER_ROWS = 240;

export const RosterParams = z.strictObject({
  classId: z
    .string()
    .min(1)
    .max(MAX_ID_LENGTH)
    .regex(/^[A-Za-z0-9_-]+$/, 'Must be letters, digits, "_" or "-"')
    .describe(`A class id, 1 to ${MAX_ID_LENGTH} characters`),
});

export const RosterQuery = z.strictObject(rosterImportOptions);
export type RosterOptions = z.infer<typeof RosterQuery>;

export const RosterRowReport = z
  .object({
    line: z.number().int().describe('The file line of the row (the header is line 1)'),
    email: z.string().describe('As compared: trimmed, lower case'),
    name: z.string().nullable().describe('The name cell, trimmed; null when blank'),
    status: z
      .enum(['created', 'added', 'already_member', 'error'])
      .describe(
        'created: a new student account made and added; added: an existing student added; already_member: nothing to do; error: see message',
      ),
    uid: z.string().optional().describe('The student’s uid (not on error rows)'),
    message: z.string().optional().describe('Why the row cannot be imported (error rows only)'),
  })
  .meta({ id: 'RosterRow' });

export const RosterResult = z
  .object({
    class_id: z.string(),
    dry_run: z.boolean(),
    mode: z.enum(['all_or_nothing', 'partial']),
    rows_total: z.number().int(),
    created: z.number().int().describe('Student accounts created (dry run: that would be)'),
    added: z.number().int().describe('Existing students added to the class (dry run: that would be)'),
    already_members: z.number().int(),
    failed: z.number().int().describe('Rows in error (only with mode=partial: otherwise the reply is a 400)'),
    rows: z.array(RosterRowReport).describe('Every row, in file order'),
  })
  .meta({ id: 'RosterImportResult' });
export type RosterResult = z.infer<typeof RosterResult>;
