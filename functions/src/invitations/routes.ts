import { defineRoute, type RouteDefinition } from '../http';
import { InvitationPreview, InvitationTokenBody, RedeemedInvitation, RedeemInvitationBody } from './schemas';
import * as service from './service';

const REFUSALS =
  'An unknown link is 404 (counted, like a refused sign-in, toward the address’s lock-out: 429 past it); the link’s holder learns why it cannot be used: ' +
  '409 CONFLICT with details[0].reason expired, used, revoked or redeeming (another redemption is under way), 403 FORBIDDEN with account_disabled or organization_inactive.';

export const invitationRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'post',
    path: '/invitations/preview',
    summary: 'Read an invitation link before choosing a password',
    description:
      'No Authorization: the token (from the link’s #fragment) is the credential, sent in the body so no log or Referer sees it. ' +
      `Answers whose account it opens and until when; nothing changes. ${REFUSALS}`,
    tag: 'Invitations',
    access: 'public',
    body: InvitationTokenBody,
    success: { status: 200, description: 'The invitation', schema: InvitationPreview },
    errors: ['NOT_FOUND', 'CONFLICT', 'FORBIDDEN'],
    handler: async ({ body, call }) => ({ status: 200, body: await service.previewInvitation(body.token, call) }),
  }),
  defineRoute({
    method: 'post',
    path: '/invitations/redeem',
    summary: 'Choose a password with an invitation link',
    description:
      'No Authorization. Sets the account’s password and uses the link up, once: of many redemptions at once exactly one succeeds, the others 409. ' +
      'Then sign in with the email answered and this password. Audited as invitation_redeemed (never with the token). ' +
      `Firestore or Auth failing answers 503 and the link stays good: send it again. ${REFUSALS}`,
    tag: 'Invitations',
    access: 'public',
    body: RedeemInvitationBody,
    success: { status: 200, description: 'The account, its password set', schema: RedeemedInvitation },
    errors: ['NOT_FOUND', 'CONFLICT', 'FORBIDDEN'],
    handler: async ({ body, call }) => ({
      status: 200,
      body: await service.redeemInvitation(body.token, body.password, call),
    }),
  }),
];
