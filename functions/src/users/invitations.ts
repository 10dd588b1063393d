import type { Principal } from '../auth';
import { type InvitationTarget, loadService, MAX_INVITATIONS_PER_CALL } from '../invitations';
import { errorText, log } from '../platform';
import type { RequestOrigin } from '../shared';

// The users feature's invitations: links of our own (invitations/), valid for the organization's
// invitation_days, one use, revocable; never Firebase's one-hour reset link. The reply carries the
// link and the admin sends it: the service keeps only its digest.

/** One link for one account; the link and when it ends. */
export async function invitationFor(
  actor: Principal,
  target: InvitationTarget,
  origin: RequestOrigin,
  baseUrl: string,
): Promise<{ link: string; expires_at: string }> {
  const [row] = await (await loadService()).issueInvitations(actor, [target], origin, baseUrl);
  return row;
}

/** A link per target, by uid, a hundred a batch; a batch that fails is left out (and logged): a new link can be asked for. */
export async function invitationLinks(
  actor: Principal,
  targets: InvitationTarget[],
  origin: RequestOrigin,
  baseUrl: string,
): Promise<Map<string, string>> {
  const { issueInvitations } = await loadService();
  const links = new Map<string, string>();
  for (let i = 0; i < targets.length; i += MAX_INVITATIONS_PER_CALL) {
    try {
      const rows = await issueInvitations(actor, targets.slice(i, i + MAX_INVITATIONS_PER_CALL), origin, baseUrl);
      for (const row of rows) links.set(row.uid, row.link);
    } catch (err) {
      log.warn('Invitation links could not be made', {
        count: Math.min(MAX_INVITATIONS_PER_CALL, targets.length - i),
        error: errorText(err),
      });
    }
  }
  return links;
}
