import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ClientId, MAX_ID_LENGTH, pagedQuery, Pagination, Uid } from '../shared';
import { MAX_MEMBERS_PER_CLASS } from './documents';

// Pure: what a class and its members are. A class groups an organization's students (a school's "9C").

export const MAX_CLASS_NAME = 100;
export const MAX_CLASS_CODE = 20;

const name = z
  .string()
  .trim()
  .min(1)
  .max(MAX_CLASS_NAME)
  .describe(`1 to ${MAX_CLASS_NAME} characters; unique within the organization regardless of case and spacing`);

const code = z
  .string()
  .trim()
  .min(1)
  .max(MAX_CLASS_CODE)
  .nullable()
  .describe(`A short code the school uses ("9C"), 1 to ${MAX_CLASS_CODE} characters, or null for none; not unique`);

export const ClassId = z.string().min(1).max(MAX_ID_LENGTH).describe(`A class id, 1 to ${MAX_ID_LENGTH} characters`);

export const Class = z
  .object({
    id: z.string(),
    client_id: z.string(),
    name: z.string(),
    code: z.string().nullable(),
    member_count: z.number().int().describe(`How many students the class holds (at most ${MAX_MEMBERS_PER_CLASS})`),
    created_at: z.string().describe('ISO 8601 UTC'),
    updated_at: z.string().describe('ISO 8601 UTC; when the name or code last changed (membership does not count)'),
  })
  .meta({ id: 'Class' });
export type Class = z.infer<typeof Class>;

export const CreateClassBody = z
  .strictObject({
    name,
    code: code.optional(),
    client_id: ClientId.optional().describe(
      'Required for a Super Admin; a Client Admin may omit it (own organization)',
    ),
  })
  .meta({ id: 'CreateClass' });
export type CreateClassInput = z.infer<typeof CreateClassBody>;

export const UpdateClassBody = z
  .strictObject({ name: name.optional(), code: code.optional() })
  .refine((body) => body.name !== undefined || body.code !== undefined, { message: 'Send name or code to change' })
  .meta({ id: 'UpdateClass' });
export type ClassChanges = z.infer<typeof UpdateClassBody>;

export const ClassParams = z.strictObject({ classId: ClassId });
export const ClassMemberParams = z.strictObject({ classId: ClassId, uid: Uid });

export const ListClassesQuery = pagedQuery({
  client_id: ClientId.optional().describe('Required for a Super Admin; others may omit it (own organization)'),
});
export const ListClassMembersQuery = pagedQuery({});

export const ClassPage = z.object({ data: z.array(Class), pagination: Pagination }).meta({ id: 'ClassPage' });

export const ClassMember = z
  .object({
    uid: z.string(),
    email: z.string().describe('As on the student’s profile when it was added'),
    display_name: z.string().describe('As on the student’s profile when it was added'),
    added_at: z.string().describe('ISO 8601 UTC'),
    can_sign_in: z
      .boolean()
      .optional()
      .describe(
        'In the member list: whether the student has a way to sign in (a password, a linked provider, or a sign-in before), read from Auth; false = "cannot sign in yet": POST /api/classes/{classId}/invitations',
      ),
  })
  .meta({ id: 'ClassMember' });
export type ClassMember = z.infer<typeof ClassMember>;

export const ClassMemberPage = z
  .object({ data: z.array(ClassMember), pagination: Pagination })
  .meta({ id: 'ClassMemberPage' });

/** A class name as compared for uniqueness: Unicode-normalized, spacing collapsed, case folded. */
export const normalizedClassName = (value: string): string =>
  value.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/** The name guard's document id: a digest, so any name makes a valid id of fixed length. */
export const classNameKey = (value: string): string =>
  createHash('sha256').update(normalizedClassName(value), 'utf8').digest('hex');
