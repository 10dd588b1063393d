// Pure: why a credential was refused, as the audit log and the 401 message say it.
export const TOKEN_REJECTION_REASONS = ['missing', 'malformed', 'invalid', 'expired', 'revoked', 'disabled'] as const;
export type TokenRejectionReason = (typeof TOKEN_REJECTION_REASONS)[number];

export const REJECTION_MESSAGES: Record<TokenRejectionReason, string> = {
  missing: 'Missing Authorization header; send "Authorization: Bearer <ID token>"',
  malformed: 'Authorization header must be "Bearer <ID token>"',
  invalid: 'ID token is invalid',
  expired: 'ID token has expired; obtain a fresh ID token and retry',
  revoked: 'ID token has been revoked; sign in again',
  disabled: 'This user account has been disabled',
};

/** The reason for a token-problem error code from firebase-admin (see platform/backendFaults for the others). */
export function rejectionReason(code: unknown): TokenRejectionReason {
  switch (code) {
    case 'auth/id-token-expired':
      return 'expired';
    case 'auth/id-token-revoked':
    case 'auth/user-not-found': // the account was deleted after the token was issued
      return 'revoked';
    case 'auth/user-disabled':
      return 'disabled';
    default:
      return 'invalid';
  }
}

/** A token's claims as written, before any check: for logging and prefetching only, never for a decision. */
function unverifiedClaims(token: string): Record<string, unknown> {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return payload && typeof payload === 'object' ? payload : {};
  } catch {
    return {};
  }
}

/** The uid a refused token claims, for the investigator; never trusted for anything else. */
export function claimedUid(token: string): string | null {
  const sub = unverifiedClaims(token).sub;
  return typeof sub === 'string' ? sub.slice(0, 128) : null;
}

/** The organization a token claims, so its status can be read while the token is verified; trusted for nothing. */
export function claimedClientId(token: string): string | null {
  const clientId = unverifiedClaims(token).client_id;
  return typeof clientId === 'string' && clientId.length > 0 && clientId.length <= 128 ? clientId : null;
}
