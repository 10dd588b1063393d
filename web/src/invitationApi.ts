import { ApiError, type Api, type Schemas, unwrap } from './api';

/**
 * The invitation calls, each one request through the typed client with the API's own shapes
 * (schema.d.ts). Preview and redeem are public: the token travels in the body, never in a URL.
 */

export type IssuedInvitation = Schemas['IssuedInvitation'];
export type InvitationBatch = Schemas['InvitationBatch'];

export const previewInvitation = (api: Api, token: string) =>
  unwrap(api.POST('/api/invitations/preview', { body: { token } }));

export const redeemInvitation = (api: Api, token: string, password: string) =>
  unwrap(api.POST('/api/invitations/redeem', { body: { token, password } }));

/** Links for these students of the organization (client_id only from a Super Admin). */
export const inviteStudents = (api: Api, body: Schemas['IssueInvitations']) =>
  unwrap(api.POST('/api/users/invitations', { body }));

/** Links for the class's members who cannot sign in yet. */
export const inviteClass = (api: Api, classId: string) =>
  unwrap(
    api.POST('/api/classes/{classId}/invitations', {
      params: { path: { classId } },
      body: { only_cannot_sign_in: true },
    }),
  );

/** Why a link cannot be used, as the service names it (details[0].reason), or undefined. */
export const refusalOf = (err: unknown): string | undefined =>
  err instanceof ApiError ? (err.details[0] as { reason?: string } | undefined)?.reason : undefined;
