import type { StoredInvitation } from './documents';

// Pure: what an invitation is at a moment, and whether it can be redeemed now. Time is passed in.

/**
 * How long a redemption holds its invitation while it sets the password. A redemption that died
 * half-way (the instance gone between Auth and the final write) frees the link after this.
 */
export const REDEEM_HOLD_MS = 30_000;

type InvitationState = 'live' | 'redeeming' | 'used' | 'revoked' | 'expired';

export function invitationState(inv: Pick<StoredInvitation, 'status' | 'expires_at' | 'held_until'>, now: Date) {
  if (inv.status === 'used') return 'used';
  if (inv.status === 'revoked') return 'revoked';
  if (Date.parse(inv.expires_at) <= now.getTime()) return 'expired';
  if (inv.status === 'redeeming' && inv.held_until && Date.parse(inv.held_until) > now.getTime()) return 'redeeming';
  return 'live';
}

/** The reason a redemption (or a look at the link) is refused, or null when it may go on. */
export type Refusal = Exclude<InvitationState, 'live'> | 'account_disabled' | 'organization_inactive';

export function redeemRefusal(
  state: InvitationState,
  account: { disabled: boolean; exists: boolean },
  organizationActive: boolean,
): Refusal | null {
  if (state !== 'live') return state;
  if (!account.exists || account.disabled) return 'account_disabled';
  if (!organizationActive) return 'organization_inactive';
  return null;
}

/** When an invitation issued at `now` ends, for an organization whose links last `days`. */
export const expiryOf = (now: Date, days: number): string => new Date(now.getTime() + days * 86_400_000).toISOString();

/**
 * Whether an account has a way to sign in: a linked provider (a password, google.com,
 * microsoft.com…) or a sign-in already behind it (a custom token's, from a launch). Read from
 * Auth: a roster's student created without a password has neither. A sign-in is read from
 * lastRefreshTime (null while the account was never active), not lastSignInTime: the Auth
 * emulator stamps the latter at creation, on accounts nobody ever signed in to.
 */
export function canSignIn(record: {
  providerData: ReadonlyArray<{ providerId: string }>;
  metadata: { lastRefreshTime?: string | null };
  passwordHash?: string;
}): boolean {
  return record.providerData.length > 0 || Boolean(record.metadata.lastRefreshTime) || Boolean(record.passwordHash);
}
