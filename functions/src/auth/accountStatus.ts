import type { Principal } from './principal';
import { organizationFromClaims, roleFromClaims, type Claims } from './claims';
import type { TokenRejectionReason } from './tokenRejection';

// Pure: whether an account, as Auth last described it, still stands behind a
// token. Production's verifyIdToken skips this on reads (it costs an Auth call),
// so for admin roles the service checks it itself, from a description at most
// ACCOUNT_RECHECK_MS old.

/**
 * How stale an account description may be: the longest a disabled, deleted or
 * demoted admin keeps reading, and a revoked token keeps writing on an instance
 * that described the account just before.
 */
export const ACCOUNT_RECHECK_MS = 60_000;

export interface AccountFacts {
  exists: boolean;
  disabled: boolean;
  /** Tokens issued before this instant are revoked (ms since epoch), if ever revoked. */
  validAfterMs: number | null;
  claims: Claims;
}

/**
 * What Auth's own revocation check decides (checkRevoked): null while the
 * account exists, is enabled and revoked no token issued at or after the
 * token's sign-in; otherwise why the token must be refused.
 */
export function revocationVerdict(facts: AccountFacts, principal: Principal): TokenRejectionReason | null {
  if (!facts.exists) return 'revoked';
  if (facts.disabled) return 'disabled';
  if (facts.validAfterMs !== null && principal.authTime * 1000 < facts.validAfterMs) return 'revoked';
  return null;
}

/** Null when the token's principal still matches the account; otherwise why it must be refused. */
export function accountVerdict(facts: AccountFacts, principal: Principal): TokenRejectionReason | null {
  const revoked = revocationVerdict(facts, principal);
  if (revoked) return revoked;
  // Claims changed without a revocation (e.g. edited in the console): the token speaks for a role the account no longer has.
  if (roleFromClaims(facts.claims) !== principal.role || organizationFromClaims(facts.claims) !== principal.clientId)
    return 'revoked';
  return null;
}

export const needsAccountCheck = (principal: Principal): boolean =>
  principal.role === 'super_admin' || principal.role === 'client_admin';
