import { defineRoute } from '../http';
import { splitPageQuery } from '../shared';
import {
  ImportUsersQuery,
  Invitation,
  MAX_USER_IMPORT_BYTES,
  MAX_USER_IMPORT_ROWS,
  UserImportResult,
} from './importSchemas';
import { CreatedUser, CreateUserBody, ListUsersQuery, UpdateUserBody, User, UserPage, UserParams } from './schemas';
import { InvitationBatch, IssueInvitationsBody, MAX_INVITATIONS_PER_CALL } from '../invitations';
import * as service from './service';
import { joinWithSchoolAccount } from './joinService';
import { JoinResult } from './schemas';

const ADMINS = ['super_admin', 'client_admin'] as const;

export const userRoutes = [
  defineRoute({
    method: 'get',
    path: '/users',
    summary: 'List users of an organization',
    description:
      'A Super Admin names client_id (404 when no such client exists; or role=super_admin to list Super Admins); a Client Admin sees its own organization. ' +
      'Each student also carries class_ids (its classes, [] when none) and accommodation (its standing extra time, null when none), read with the page ' +
      '(one read of the page’s accommodations together; should it fail, 503, never a page without them); other roles carry neither.',
    tag: 'Users',
    access: ADMINS,
    query: ListUsersQuery,
    success: { status: 200, description: 'A page of users, by email', schema: UserPage },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, query }) => {
      const { page, filters } = splitPageQuery(query);
      return { status: 200, body: await service.listUsers(principal, filters, page) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/users',
    summary: 'Create a user',
    description:
      'A Client Admin creates client_admin or student accounts in its own organization; never super_admin. ' +
      'Without a password the account has none yet, and the reply carries invitation_link: the user chooses one there.',
    tag: 'Users',
    access: ADMINS,
    sensitive: true,
    body: CreateUserBody,
    success: { status: 201, description: 'The new user', schema: CreatedUser },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, body, call, baseUrl }) => ({
      status: 201,
      body: await service.createUser(principal, body, call, baseUrl ?? ''),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/users/import',
    summary: 'Import the organization’s students from a CSV roster',
    description:
      'multipart/form-data with exactly one file part named "file": UTF-8 CSV (a BOM, CRLF, quoted fields and blank lines are fine), ' +
      `at most ${MAX_USER_IMPORT_BYTES / (1024 * 1024)} MB (413) and ${MAX_USER_IMPORT_ROWS} rows (400). Header row: email, name (display_name is accepted for name), ` +
      'and optionally password, any order, case aside. Emails are compared trimmed and in lower case; a repeated email is an error on its later rows. ' +
      'An email with no account creates a student (the name is then required) with the row’s password (8 to 128 characters), or with none: ' +
      'its row then carries invitation_link, a link to choose one, which the admin sends. A student of the organization is already_member ' +
      '(left as it is, its password too); any other account (an administrator, or another organization’s user) is an error row that does not say which. ' +
      'All or nothing by default: any error row answers 400 VALIDATION_ERROR carrying `rows` (the error rows) and nothing is written. ' +
      '?mode=partial imports the valid rows and reports the others (400 when none is valid); ?dry_run=true checks everything and writes nothing. ' +
      'Each student created is audited as user_created. A Client Admin imports into its own organization; a Super Admin names client_id.',
    tag: 'Users',
    access: ADMINS,
    sensitive: true,
    query: ImportUsersQuery,
    upload: {
      field: 'file',
      description: 'The roster (UTF-8 CSV with the header email,name[,password]; at most 1 MB)',
    },
    success: {
      status: 200,
      description: 'What became of every row (for a dry run, what would)',
      schema: UserImportResult,
    },
    errors: ['NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE'],
    // The CSV parser and multipart reader load on first use, as for the other imports.
    handler: async ({ principal, query, upload, call, baseUrl }) => {
      const { importStudents } = await import('./importService');
      return { status: 200, body: await importStudents(principal, query, upload!, call, baseUrl ?? '') };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/users/invitations',
    summary: 'Invitation links for many students at once',
    description:
      `Up to ${MAX_INVITATIONS_PER_CALL} students of one organization (a Client Admin’s own; a Super Admin names client_id): a new link each, revoking its previous one. ` +
      'A uid that is no student of the organization (another organization’s included) answers 404 naming it, and no link is made. ' +
      'Disabled accounts, and with only_cannot_sign_in those that can already sign in, are listed in skipped. ' +
      'Each link is audited as invitation_issued (never the link). For a whole class: POST /api/classes/{classId}/invitations.',
    tag: 'Users',
    access: ADMINS,
    sensitive: true,
    body: IssueInvitationsBody,
    success: { status: 200, description: 'The links, by email, and who got none', schema: InvitationBatch },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, body, call, baseUrl }) => ({
      status: 200,
      body: await service.inviteStudents(principal, body, call, baseUrl ?? ''),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/users/{uid}/invitation',
    summary: 'Make a new invitation link for a user',
    description:
      'A link for the user to choose a password (valid for the organization’s invitation_days, default 7; one use), for an account created without one ' +
      'or whose link expired; it revokes the user’s previous link. Whoever may set the user’s password may ask (a Client Admin for its students). A deactivated account → 409. ' +
      'Audited as invitation_issued; the service keeps only a digest of the link.',
    tag: 'Users',
    access: ADMINS,
    sensitive: true,
    params: UserParams,
    success: { status: 200, description: 'The link', schema: Invitation },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, call, baseUrl }) => ({
      status: 200,
      body: await service.inviteUser(principal, params.uid, call, baseUrl ?? ''),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/users/{uid}/invitation',
    summary: 'Revoke a user’s invitation link',
    description:
      'The user’s live link stops working at once (its holder is told it was withdrawn). 404 when it has none. Whoever may invite the user may revoke. Audited as invitation_revoked.',
    tag: 'Users',
    access: ADMINS,
    sensitive: true,
    params: UserParams,
    success: { status: 204, description: 'Revoked' },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, call }) => {
      await service.revokeUserInvitation(principal, params.uid, call);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/users/{uid}',
    summary: 'Read a user',
    description:
      'A Student may read only itself. A student’s reply also says its classes (class_ids) and its standing accommodation (accommodation, null when none), as the list does.',
    tag: 'Users',
    access: ['super_admin', 'client_admin', 'student'],
    params: UserParams,
    success: { status: 200, description: 'The user', schema: User },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params }) => ({ status: 200, body: await service.showUser(principal, params.uid) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/users/{uid}',
    summary: 'Change a user',
    description: 'A role change or disabling revokes the user’s refresh tokens, so the next token carries the change.',
    tag: 'Users',
    access: ADMINS,
    sensitive: true,
    params: UserParams,
    body: UpdateUserBody,
    success: { status: 200, description: 'The user as changed', schema: User },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, body, call }) => ({
      status: 200,
      body: await service.updateUser(principal, params.uid, body, call),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/users/{uid}',
    summary: 'Delete a user',
    tag: 'Users',
    access: ADMINS,
    sensitive: true,
    params: UserParams,
    success: { status: 204, description: 'Deleted' },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, call }) => {
      await service.deleteUser(principal, params.uid, call);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/users/me/join',
    summary: 'Join with a school account',
    description:
      'Called right after a first Google or Microsoft sign-in of an account with no role. Matched on the email the provider verified only: a roster profile of that email is taken over (a Client Admin’s too; never a Super Admin’s), else an email of a domain bound to an organization joins it as a student. A roster profile in another organization than the one the email’s domain is bound to is refused. No profile and no bound domain: 403, never a new organization. Repeatable; audited once (user_joined).',
    tag: 'Users',
    access: 'signed_in',
    sensitive: true,
    success: { status: 200, description: 'The role the account now holds', schema: JoinResult },
    errors: ['CONFLICT'],
    handler: async ({ principal, call }) => ({ status: 200, body: await joinWithSchoolAccount(principal, call) }),
  }),
];
