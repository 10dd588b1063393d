import { z } from 'zod';
import { ROLES } from '../auth';
import { ClientId, pagedQuery, Pagination, queryBoolean, Uid } from '../shared';
import { foldForSearch } from './searchKeys';

const Role = z.enum(ROLES);
const displayName = z.string().trim().min(1).max(100);
const password = z.string().min(8, 'Must be at least 8 characters').max(128);
/**
 * The number the school issued the student for exams (its candidate or exam number), as the school writes it.
 * Not the anonymous per-attempt number blind marking gives: that one belongs to an attempt, this one to the person.
 * Not unique: schools reuse and share numbering (per year, per exam board), so the service does not police it.
 */
export const CandidateNumber = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ./_-]*$/u, 'Letters, digits, spaces and . / _ - only')
  .describe(
    'The school-issued candidate (exam) number, shown in the results CSV; short text, not unique. Not an anonymous marking number',
  );

/** A student's standing extra time (GET /api/users/{uid}/accommodations without student_id and updated_at). */
const StandingAccommodation = z.object({
  extra_time_percent: z.number().int(),
  extra_minutes: z.number().int(),
});

export const User = z
  .object({
    uid: z.string(),
    email: z.string().nullable(),
    lms_email: z
      .string()
      .optional()
      .describe(
        'The email an LTI platform claims for this user when the account does not have it (another account holds that address): the platform’s word, unverified; never used to sign in or to search',
      ),
    display_name: z.string().nullable(),
    candidate_number: z.string().optional().describe('The school-issued candidate number, when one was set'),
    role: Role.nullable(),
    client_id: z.string().nullable(),
    disabled: z.boolean(),
    can_sign_in: z
      .boolean()
      .optional()
      .describe(
        'Whether the account has a way to sign in: a password, a linked provider (google.com, microsoft.com…) or a sign-in before; false for a student a roster created without a password, until it redeems its invitation. Read from Auth (disabled is said apart).',
      ),
    created_at: z.string().describe('ISO 8601 UTC'),
    updated_at: z.string().describe('ISO 8601 UTC'),
    class_ids: z
      .array(z.string())
      .optional()
      .describe(
        'A student’s classes in its organization, by id (empty when none); reads only (the list and GET /api/users/{uid}), absent for every other role',
      ),
    accommodation: StandingAccommodation.nullable()
      .optional()
      .describe(
        'A student’s standing extra time on every test of its organization (as GET /api/users/{uid}/accommodations sets it), null when none; reads only, absent for every other role',
      ),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;

export const CreateUserBody = z
  .strictObject({
    email: z.email().max(254),
    password: password
      .optional()
      .describe('Without one, the account has no password and the reply carries an invitation_link to choose one'),
    display_name: displayName,
    role: Role,
    client_id: ClientId.optional().describe('Required for client_admin and student (a Client Admin may omit it)'),
  })
  .meta({ id: 'CreateUser' });
export type CreateUserInput = z.infer<typeof CreateUserBody>;

export const CreatedUser = User.extend({
  invitation_link: z
    .string()
    .optional()
    .describe(
      'Only when no password was sent: an invitation link (valid for the organization’s invitation_days, default 7; one use) for the new user to choose a password. ' +
        'Only its digest is kept: send it to the user yourself. Absent when it could not be made: POST /api/users/{uid}/invitation.',
    ),
}).meta({ id: 'CreatedUser' });
export type CreatedUser = z.infer<typeof CreatedUser>;

export const UpdateUserBody = z
  .strictObject({
    display_name: displayName.optional(),
    candidate_number: CandidateNumber.nullable()
      .optional()
      .describe('The school-issued candidate number; null clears it'),
    role: Role.optional(),
    disabled: z.boolean().optional(),
    password: password.optional(),
    client_id: ClientId.optional().describe(
      'Only with `role`, when giving a first role to a user who has none (e.g. one who signed up on its own)',
    ),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'Send at least one field to change' })
  .meta({ id: 'UpdateUser' });
export type UserChanges = z.infer<typeof UpdateUserBody>;

export const UserParams = z.strictObject({ uid: Uid });

export const MAX_SEARCH_LENGTH = 100;
export const MAX_SEARCH_LIMIT = 50;

export const ListUsersQuery = pagedQuery({
  client_id: ClientId.optional(),
  role: Role.optional(),
  disabled: queryBoolean.optional(),
  q: z
    .string()
    .max(MAX_SEARCH_LENGTH)
    .trim()
    .min(1)
    // Folding takes compatibility forms apart, and one character can become 18 ("ﷺ"): the folded
    // text is what is queried, so it keeps the same bound.
    .refine((q) => foldForSearch(q).length <= MAX_SEARCH_LENGTH, {
      message: `At most ${MAX_SEARCH_LENGTH} characters once case and accents are set aside`,
    })
    .optional()
    .describe(
      `Users whose email or display name starts with this, case and accents aside (1 to ${MAX_SEARCH_LENGTH} characters, before and after that folding): ` +
        `one page of at most \`limit\` (up to ${MAX_SEARCH_LIMIT}), by email, without page or cursor`,
    ),
}).superRefine((query, ctx) => {
  if (query.q === undefined) return;
  if (query.limit > MAX_SEARCH_LIMIT)
    ctx.addIssue({ code: 'custom', path: ['limit'], message: `At most ${MAX_SEARCH_LIMIT} with q` });
  if (query.page !== undefined || query.cursor !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: [query.page !== undefined ? 'page' : 'cursor'],
      message: 'A search answers one page: type more of the name or email instead',
    });
});

export const UserPage = z.object({ data: z.array(User), pagination: Pagination }).meta({ id: 'UserPage' });

export const Me = z
  .object({
    uid: z.string(),
    email: z.string().nullable(),
    role: z
      .enum([...ROLES, 'guest'])
      .nullable()
      .describe('null until an administrator assigns one'),
    client_id: z.string().nullable(),
    guest: z.boolean(),
    accommodation: StandingAccommodation.nullable().describe(
      'A student’s standing extra time on every test of its organization; null when none (and for every other role)',
    ),
  })
  .meta({ id: 'Me' });

/**
 * Every roster import's options: all or nothing or partial, and a dry run. Here, with what the door
 * exports at cold start, so the class roster's schemas read them without loading the imports.
 */
export const rosterImportOptions = {
  mode: z
    .enum(['all_or_nothing', 'partial'])
    .default('all_or_nothing')
    .describe('partial: import the valid rows and report the others'),
  dry_run: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe('true: check everything and write nothing'),
};

export const JoinResult = z
  .object({
    outcome: z
      .enum(['joined', 'member', 'linked'])
      .describe(
        'joined: a new student of the organization its email domain is bound to; member: the account already held its role (a roster profile Firebase merged it into, or an earlier join); linked: the provider identity now belongs to the roster’s account, and this new account is gone',
      ),
    role: z.enum(ROLES),
    client_id: z.string(),
    sign_in_again: z
      .boolean()
      .describe(
        'true: sign in again with the same credential (signInWithCredential, no second popup) to reach the roster’s account; false: refresh the ID token to read the new claims',
      ),
  })
  .meta({ id: 'JoinResult' });
export type JoinResult = z.infer<typeof JoinResult>;
