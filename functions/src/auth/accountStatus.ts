import type { Principal } from './principal';
import { organizationFromClaims, roleFromClaims, type Claims } from './claims';
import type { TokenRejectionReason } from './tokenRejection';

// Pure: whether an account, as Auth last described it, still stands behind a
// token. Production's verifyIdToken skips this on reads (it costs an Auth call),
// so for admin roles the service checks it itself, from a description at most
// ACCOUNT_RECHECK_MS old.

/** How stale an admin's account description may be: the longest a disabled, deleted or demoted admin keeps reading. */
export const ACCOUNT_RECHECK_MS = 60_000;

export interface AccountFacts {
  exists: boolean;
  disabled: boolean;
  /** Tokens issued before this instant are revoked (ms since epoch), if ever revoked. */
  validAfterMs: number | null;
  claims: Claims;
}

/** Null when the token's principal still matches the account; otherwise why it must be refused. */
export function accountVerdict(facts: AccountFacts, principal: Principal): TokenRejectionReason | null {
  if (!facts.exists) return 'revoked';
  if (facts.disabled) return 'disabled';
  if (facts.validAfterMs !== null && principal.authTime * 1000 < facts.validAfterMs) return 'revoked';
  // Claims changed without a revocation (e.g. edited in the console): the token speaks for a role the account no longer has.
  if (roleFromClaims(facts.claims) !== principal.role || organizationFromClaims(facts.claims) !== principal.clientId)
    return 'revoked';
  return null;
}

export const needsAccountCheck = (principal: Principal): boolean =>
  principal.role === 'super_admin' || principal.role === 'client_admin';
