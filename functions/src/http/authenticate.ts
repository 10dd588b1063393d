import type { Request, RequestHandler, Response } from 'express';
import { errorText, isTokenProblem, log } from '../platform';
import { auth } from '../firestore';
import {
  type Access,
  accountVerdict,
  assertRole,
  claimedClientId,
  claimedUid,
  needsAccountCheck,
  type Principal,
  principalFromClaims,
  recentAccountFacts,
  REJECTION_MESSAGES,
  rejectionReason,
  revocationVerdict,
  type TokenRejectionReason,
} from '../auth';
import { requestState } from './requestState';
import { ApiError, forbidden, serviceUnavailable, unauthorized } from '../shared';

/**
 * What authentication does to the rest of the service, handed to it by the app
 * (audit log, failure counting, client status) so that auth reaches for no feature.
 */
export interface AuthenticationEffects {
  /** Starts recording the first request of a sign-in (uid + auth_time); no reply waits for it. */
  recordLogin(principal: Principal, req: Request): void;
  /** Starts recording a refused token; the 401 does not wait for it. */
  recordTokenRejected(req: Request, reason: TokenRejectionReason, claimedUid: string | null): void;
  /**
   * Counts one refused credential against the caller's address and throws
   * RATE_LIMITED when, counted after its own increment, it is past the limit:
   * however many arrive at once, at most the limit are ever answered 401.
   */
  countFailedAuthentication(req: Request, res: Response): Promise<void>;
  isClientActive(clientId: string): Promise<boolean>;
  /**
   * Starts reading an organization the unverified token names, beside the
   * token's verification; `isClientActive` then finds it read (per request).
   * A speculation only: nothing is decided on it.
   */
  prefetchClient(clientId: string): void;
  /**
   * The token's signature and expiry are verified (its revocation may still be
   * being asked of Auth): the rate limiter may count the request against this
   * uid now, beside that check, instead of after it.
   */
  signed(res: Response, uid: string): void;
}

type Rejection = { reason: TokenRejectionReason; claimedUid: string | null };

// Reads keep accepting a token until it expires (admins: see accountStatus);
// anything that changes data also asks Auth whether it was revoked or the user disabled.
const checksRevocation = (method: string) => method !== 'GET' && method !== 'HEAD';

/**
 * A write whose outcome must not depend on it (a failure count): if it fails,
 * it is logged at ERROR with what it would have written, and the request goes
 * on. RATE_LIMITED and other answers the effect itself decides still reach the caller.
 */
async function failOpen(
  what: string,
  req: Request,
  detail: Record<string, unknown>,
  write: () => Promise<void>,
): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    log.error(`${what} failed; the request goes on without it`, {
      ...detail,
      ip: req.ip,
      path: req.path,
      error: errorText(err),
    });
  }
}

async function verifiedPrincipal(
  req: Request,
  prefetch?: (clientId: string) => void,
  signed?: (uid: string) => void,
): Promise<Principal | Rejection> {
  const header = req.header('authorization');
  if (!header) return { reason: 'missing', claimedUid: null };
  const match = /^Bearer ([A-Za-z0-9._~+/=-]{1,8192})$/.exec(header.trim());
  if (!match) return { reason: 'malformed', claimedUid: null };
  const speculativeClient = claimedClientId(match[1]);
  if (speculativeClient) prefetch?.(speculativeClient);
  try {
    const decoded = await auth.verifyIdToken(match[1], false);
    // What needs only a verified uid starts before a write's revocation check.
    signed?.(decoded.uid);
    const principal = principalFromClaims(decoded);
    if (checksRevocation(req.method)) {
      // Asked of Auth at most once a minute per account and instance (auth/accountCache.ts).
      const reason = revocationVerdict(await recentAccountFacts(principal.uid), principal);
      if (reason) return { reason, claimedUid: principal.uid };
    }
    return principal;
  } catch (err) {
    // Only a verdict on the token is the caller's failure. Auth being unreachable,
    // out of quota or failing inside is ours: 503, not counted, not audited.
    if (!isTokenProblem(err)) {
      log.warn('Token verification failed for a reason that is not the token', { error: errorText(err) });
      throw serviceUnavailable('Sign-in could not be checked right now; retry shortly');
    }
    return { reason: rejectionReason((err as { code?: unknown }).code), claimedUid: claimedUid(match[1]) };
  }
}

// ------------------------------------------------------------ account re-check

export { forgetAccountFacts, recentAccountFacts } from '../auth';

// ------------------------------------------------------------ the middleware

/**
 * The one auth middleware: verifies the ID token, records the sign-in and
 * applies the route's access rule. For an admin it also starts the account
 * re-check: a read awaits it beside its handler (see `awaitAccountCheck`), a
 * write before its handler, beside the login record and the organization's
 * status; either way it costs no sequential round trip.
 */
export function authenticate(
  access: Access,
  effects: AuthenticationEffects,
  { prefetchClient = true, countWhenSigned = true }: { prefetchClient?: boolean; countWhenSigned?: boolean } = {},
): RequestHandler {
  const refuse = async (req: Request, res: Response, rejection: Rejection): Promise<never> => {
    // No header at all is no guess at a credential (a school's many signed-out
    // pages share one address): not counted, nothing to record.
    if (rejection.reason !== 'missing') {
      await failOpen('Counting a failed authentication', req, { reason: rejection.reason }, () =>
        effects.countFailedAuthentication(req, res),
      );
      // Past the count: a refusal answered 429 instead is no 401 to record.
      effects.recordTokenRejected(req, rejection.reason, rejection.claimedUid);
    }
    throw unauthorized(REJECTION_MESSAGES[rejection.reason]);
  };

  return async (req, res, next) => {
    if (access === 'public') return next();
    // A sensitive route reads the organization beside its counters' commit instead (both start after verification).
    const result = await verifiedPrincipal(
      req,
      prefetchClient ? effects.prefetchClient : undefined,
      // Only a registered network's count waits for a uid; elsewhere it started before verification.
      countWhenSigned && checksRevocation(req.method) && requestState(res).onNetwork
        ? (uid) => effects.signed(res, uid)
        : undefined,
    );
    if ('reason' in result) return refuse(req, res, result);
    const state = requestState(res);
    state.principal = result;
    // An admin's account is re-checked (claims changed, disabled, deleted) on
    // every request: a read runs it beside its handler; a write waits for it
    // before its handler starts (with the gate below), so nothing is written,
    // and nothing a write answers is sent, on a stale claim.
    let accountCheck: Promise<void> | undefined;
    if (needsAccountCheck(result)) {
      accountCheck = recentAccountFacts(result.uid).then(async (facts) => {
        const reason = accountVerdict(facts, result);
        if (reason) await refuse(req, res, { reason, claimedUid: result.uid });
      });
      accountCheck.catch(() => undefined); // awaited by the route; never an unhandled rejection
      if (!checksRevocation(req.method)) state.accountCheck = accountCheck;
    }
    if (access !== 'signed_in') assertRole(result, access);
    // The login record is bookkeeping: written beside the request, which never waits for it.
    effects.recordLogin(result, req);
    // The organization's status is read beside whatever runs next (the
    // sensitive-operation counter); the route waits for it before its handler (awaitAuthorization).
    const gate = Promise.all([
      access === 'signed_in' ? undefined : assertClientActive(result, effects),
      checksRevocation(req.method) ? accountCheck : undefined,
    ]).then(() => undefined);
    gate.catch(() => undefined); // awaited by the route; never an unhandled rejection
    state.authorization = gate;
    next();
  };
}

// Tenant routes are closed to users of a deactivated organization. A failed read here is a 503, never an open door.
async function assertClientActive(principal: Principal, effects: AuthenticationEffects): Promise<void> {
  if (principal.clientId && !(await effects.isClientActive(principal.clientId)))
    throw forbidden('Your organization is not active');
}

/** Waits for what `authenticate` left running (the organization's status, a write's account check); throws its 403 or 503. */
export async function awaitAuthorization(res: Response): Promise<void> {
  await requestState(res).authorization;
}

/**
 * Runs the handler beside the admin account re-check started by `authenticate`.
 * A refused account wins over whatever the handler produced, so a revoked admin
 * learns nothing, not even a 404.
 */
export async function awaitAccountCheck<T>(res: Response, work: Promise<T>): Promise<T> {
  const check = requestState(res).accountCheck;
  if (!check) return work;
  const [checked, done] = await Promise.allSettled([check, work]);
  if (checked.status === 'rejected') throw checked.reason;
  if (done.status === 'rejected') throw done.reason;
  return done.value;
}
