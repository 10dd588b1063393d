import type { Request, RequestHandler } from 'express';
import { recordLogin, recordTokenRejected } from '../audit/service';
import type { TokenRejectionReason } from '../audit/schemas';
import { assertRole } from '../auth/policy';
import { principalFromClaims, type CallerRole, type Principal } from '../auth/principal';
import type { RuntimeConfig } from '../config';
import { auth } from '../firestore/db';
import { getClient } from '../clients/store';
import { recordAuthFailure } from '../rateLimit/middleware';
import { forbidden, unauthorized } from './errors';

/** Who may call a route: anyone, any signed-in user (even without a role), or these roles. */
export type Access = 'public' | 'signed_in' | readonly CallerRole[];

const REJECTION_MESSAGES: Record<TokenRejectionReason, string> = {
  missing: 'Missing Authorization header; send "Authorization: Bearer <ID token>"',
  malformed: 'Authorization header must be "Bearer <ID token>"',
  invalid: 'ID token is invalid',
  expired: 'ID token has expired; obtain a fresh ID token and retry',
  revoked: 'ID token has been revoked; sign in again',
  disabled: 'This user account has been disabled',
};

function rejectionReason(err: unknown): TokenRejectionReason {
  switch ((err as { code?: string }).code) {
    case 'auth/id-token-expired':
      return 'expired';
    case 'auth/id-token-revoked':
      return 'revoked';
    case 'auth/user-disabled':
      return 'disabled';
    default:
      return 'invalid';
  }
}

/** The uid a refused token claims, for the investigator; never trusted for anything else. */
function claimedUid(token: string): string | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return typeof payload.sub === 'string' ? payload.sub.slice(0, 128) : null;
  } catch {
    return null;
  }
}

// Reads keep accepting a token until it expires; anything that changes data
// also asks Auth whether it was revoked or the user disabled.
const checksRevocation = (method: string) => method !== 'GET' && method !== 'HEAD';

type Rejection = { reason: TokenRejectionReason; claimedUid: string | null };

async function verifiedPrincipal(req: Request): Promise<Principal | Rejection> {
  const header = req.header('authorization');
  if (!header) return { reason: 'missing', claimedUid: null };
  const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header.trim());
  if (!match) return { reason: 'malformed', claimedUid: null };
  try {
    const decoded = await auth.verifyIdToken(match[1], checksRevocation(req.method));
    return principalFromClaims(decoded);
  } catch (err) {
    return { reason: rejectionReason(err), claimedUid: claimedUid(match[1]) };
  }
}

async function assertClientActive(clientId: string): Promise<void> {
  const client = await getClient(clientId);
  if (client?.active_status !== 1) throw forbidden('Your organization is not active');
}

/** The one auth middleware: verifies the ID token, records the sign-in, applies the route's access rule. */
export function authenticate(access: Access, config: RuntimeConfig): RequestHandler {
  return async (req, res, next) => {
    if (access === 'public') return next();
    const result = await verifiedPrincipal(req);
    if ('reason' in result) {
      // No header at all is not a token to record, but it still counts as a failure.
      await Promise.all([
        recordAuthFailure(res, config),
        result.reason === 'missing' ? undefined : recordTokenRejected(req, result.reason, result.claimedUid),
      ]);
      throw unauthorized(REJECTION_MESSAGES[result.reason]);
    }
    res.locals.principal = result;
    await recordLogin(result, req);
    if (access !== 'signed_in') {
      assertRole(result, access);
      // Tenant routes are closed to users of a deactivated organization.
      if (result.clientId) await assertClientActive(result.clientId);
    }
    next();
  };
}
