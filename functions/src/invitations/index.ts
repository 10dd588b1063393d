// Front door of invitations/: invitation links of our own (days, one use, revocable), issued by the
// users and classes features, redeemed on public routes; and whether accounts can sign in yet.
// What other folders may use; nothing else of this folder is imported from outside.
export type { InvitationTarget } from './service';
export { canSignIn } from './decisions';
export {
  IssueClassInvitationsBody,
  IssueInvitationsBody,
  InvitationBatch,
  invitationLinkText,
  MAX_INVITATIONS_PER_CALL,
} from './schemas';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadService = () => import('./service');
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
