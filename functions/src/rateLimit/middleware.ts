import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { errorText, log } from '../platform/log';
import type { RuntimeConfig } from '../config';
import { attemptTokenOf, usesAttemptToken } from '../http/attemptToken';
import { clientIp } from '../http/clientIp';
import { requestState } from '../http/requestState';
import { ApiError } from '../shared/errors';
import { isBackendFault } from '../platform/backendFaults';
import { registeredNetworks } from '../networks/registry';
import { addressBucket } from './addressBucket';
import { activeBlock, block } from './blockedKeys';
import { addToCounters, addToManyCounters, type Counters } from './counterStore';
import { counterKey, currentWindow, limitState, type LimitState, type Window } from './window';

const TOO_MANY_REQUESTS = 'Too many requests';
const TOO_MANY_AUTH_FAILURES = 'Too many failed authentications from this address';
const TOO_MANY_REFUSED_CREDENTIALS = 'Too many refused credentials for this account';
const TOO_MANY_SENSITIVE = 'Too many sensitive operations';

/** The rate limiter, made once by the app from its config: each part reads the config it was made with. */
export interface RateLimiter {
  /** The per-IP limit and the lock-out of addresses with too many failed authentications (see `ipRateLimit`). */
  perAddress: RequestHandler;
  /** The strict limit for sensitive operations (see `sensitiveRateLimit`). */
  sensitive: RequestHandler;
  /**
   * Counts a refused credential: a failed authentication, or a credential a
   * handler refused (an unknown, expired, revoked or used-up share code; an
   * attempt token that opens nothing; a wrong access code). Whom it counts
   * against, and the limits: docs/security.md#rate-limits (`failureSubjects`).
   */
  countRefusedCredential(req: Request, res: Response): Promise<void>;
}

export const rateLimiter = (config: RuntimeConfig): RateLimiter => ({
  perAddress: ipRateLimit(config),
  sensitive: sensitiveRateLimit(config),
  countRefusedCredential: (req, res) => countFailedAuthentication(req, res, config),
});

// ------------------------------------------------------------ who is counted

/**
 * What a request is counted against. Off the registered networks, and without
 * an identity on them, its address (IPv6 per /64), as the interface says. On a
 * registered network (a school hall behind one address), an identified request
 * is counted against its identity instead, and the address is locked out only
 * after many more failures than usual, so one student's mistakes never lock out
 * the room (see docs/security.md).
 */
interface Subject {
  key: string;
  /** Refused credentials in a minute at which the subject is locked out. */
  failureLimit: number;
  /** What a lock-out of this subject says. */
  failureMessage: string;
}

const addressSubject = (req: Request, res: Response, config: RuntimeConfig, window: Window): Subject => ({
  key: counterKey('ip', addressBucket(clientIp(req)), window),
  failureLimit: requestState(res).onNetwork
    ? config.authFailuresPerNetworkAddressPerMinute
    : config.authFailuresPerMinute,
  failureMessage: TOO_MANY_AUTH_FAILURES,
});

/**
 * The identity a request on a registered network is counted against: its
 * verified user, or the attempt its token names. An attempt token is checked
 * by its handler, after counting: it is keyed with a digest of the token
 * itself, so a wrong token for someone else's attempt lands in a bucket of its
 * own and cannot spend that attempt's allowance. A token that then opens
 * nothing is counted as a refused credential against the address
 * (`failureSubjects`; when: `tokenOpenedNothing`, http/attemptToken.ts).
 */
function identityOf(req: Request, res: Response): string | undefined {
  const uid = requestState(res).principal?.uid ?? requestState(res).signedUid;
  if (uid) return `user:${uid}`;
  const attemptId = req.params.attemptId;
  const token = attemptTokenOf(req);
  if (!usesAttemptToken(req) || typeof attemptId !== 'string' || token === undefined) return undefined;
  return `attempt:${attemptId}:${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;
}

/** The subject of this request's count: its identity on a registered network, else its address. */
function requestSubject(req: Request, res: Response, config: RuntimeConfig, window: Window): Subject {
  const identity = requestState(res).onNetwork ? identityOf(req, res) : undefined;
  if (identity === undefined) return addressSubject(req, res, config, window);
  return {
    key: counterKey('id', identity, window),
    failureLimit: config.authFailuresPerMinute,
    failureMessage: TOO_MANY_REFUSED_CREDENTIALS,
  };
}

/**
 * Whom a refused credential is counted against: always the address (at the
 * network's higher limit on a registered network), whoever the caller, so
 * that limit holds however many accounts share the guessing; on a registered
 * network also the signed-in caller who presented it, who alone is locked out
 * at the lower limit. A refused token identifies no one: only the address.
 */
function failureSubjects(req: Request, res: Response, config: RuntimeConfig, window: Window): Subject[] {
  const address = addressSubject(req, res, config, window);
  const principal = requestState(res).principal;
  if (!requestState(res).onNetwork || !principal) return [address];
  return [
    address,
    {
      key: counterKey('id', `user:${principal.uid}`, window),
      failureLimit: config.authFailuresPerMinute,
      failureMessage: TOO_MANY_REFUSED_CREDENTIALS,
    },
  ];
}

/** Locked-out subjects are blocked under a key of their own: on a registered network, an address over its request count still lets identified requests through. */
const lockoutKey = (key: string): string => `${key}#lockout`;

// ------------------------------------------------------------ counting

// A sensitive operation reports its stricter limit: the per-IP counter, which now
// finishes whenever its round trip does, must not overwrite it.
function setLimitHeaders(res: Response, state: LimitState, strict: boolean): void {
  const perRequest = requestState(res);
  if (res.headersSent || (!strict && perRequest.strictLimitReported)) return;
  if (strict) perRequest.strictLimitReported = true;
  res.setHeader('X-RateLimit-Limit', String(state.limit));
  res.setHeader('X-RateLimit-Remaining', String(state.remaining));
  res.setHeader('X-RateLimit-Reset', String(state.resetSeconds));
}

function rateLimited(reason: string, state: LimitState): ApiError {
  return new ApiError('RATE_LIMITED', `${reason}; retry in ${state.resetSeconds} s`, undefined, {
    'Retry-After': String(state.resetSeconds),
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': '0',
    'X-RateLimit-Reset': String(state.resetSeconds),
  });
}

/** Refuses from memory a key already known to be over its limit, or locked out, in this window. */
function refuseBlocked(key: string, limit: number, nowMs: number, { lockoutOnly = false } = {}): void {
  const blocked = activeBlock(lockoutKey(key), nowMs) ?? (lockoutOnly ? undefined : activeBlock(key, nowMs));
  if (blocked) throw rateLimited(blocked.message, limitState(limit + 1, limit, blocked.untilMs, nowMs));
}

/**
 * Counts one request against `key`'s shared counter and refuses it past `limit`.
 * Keys already over their limit are refused from memory until the window ends,
 * so a flood costs no Firestore writes.
 */
async function consume(key: string, limit: number, res: Response, reason: string, strict = false) {
  const now = Date.now();
  refuseBlocked(key, limit, now);
  const window = currentWindow(now);
  const counters = await addToCounters(key, { requests: 1 }, window);
  return judge(key, counters, limit, window, now, res, reason, strict);
}

/** The verdict on counters just read back: limit headers set, a 429 thrown past the limit. */
function judge(
  key: string,
  counters: Counters,
  limit: number,
  window: Window,
  now: number,
  res: Response,
  reason: string,
  strict: boolean,
) {
  const state = limitState(counters.requests, limit, window.resetAtMs, now);
  setLimitHeaders(res, state, strict);
  if (state.exceeded) {
    block(key, window.resetAtMs, reason);
    throw rateLimited(reason, state);
  }
  return { window, counters, state };
}

/** Whether the caller's address is inside an organization's registered networks; if they cannot be read, it is counted as any address is. */
async function onRegisteredNetwork(req: Request): Promise<boolean> {
  try {
    return (await registeredNetworks()).onAnyNetwork(clientIp(req));
  } catch (err) {
    (isBackendFault(err) ? log.warn : log.error)(
      'Registered networks unreadable: the request is counted against its address',
      { error: errorText(err) },
    );
    return false;
  }
}

/**
 * Default limit per client IP (per identity on a registered network), and the
 * lock-out of IPs with too many failed authentications. Fails open: if the
 * counter cannot be written the request goes on (logged at WARNING) without
 * rate-limit headers, because the work it asks for needs the same Firestore and
 * answers 503 itself if it is down, and a counter hiccup should not turn into an
 * outage for every caller.
 *
 * It only refuses keys already known to be over their limit here; the counting
 * starts as the route begins (`startIpCount`: beside token verification; on a
 * registered network once authentication has said who is calling,
 * `startIdentifiedCount`), or, on a sensitive route, in the same commit as the
 * user's count (`sensitiveRateLimit`), and its verdict is awaited
 * (`ipLimitPassed`) before anything is answered: every path that answers starts
 * it if nothing did.
 */
function ipRateLimit(config: RuntimeConfig): RequestHandler {
  return async (req, res, next) => {
    const perRequest = requestState(res);
    // Answered from memory but for an instance's first request, which reads the networks once.
    perRequest.onNetwork = await onRegisteredNetwork(req);
    const now = Date.now();
    const address = addressSubject(req, res, config, currentWindow(now));
    // On a registered network only a locked-out address is refused before we know who calls.
    refuseBlocked(address.key, config.ratePerMinute, now, { lockoutOnly: perRequest.onNetwork });
    perRequest.startIpCount = () =>
      (perRequest.ipLimit ??= (() => {
        const subject = requestSubject(req, res, config, currentWindow(Date.now()));
        return ipLimitOutcome(subject, res, () => consume(subject.key, config.ratePerMinute, res, TOO_MANY_REQUESTS));
      })());
    next();
  };
}

/** The request's verdict from a count (started by `count`): a 429 to answer, or nothing. Never rejects. */
async function ipLimitOutcome(
  subject: Subject,
  res: Response,
  count: () => Promise<Awaited<ReturnType<typeof consume>>>,
): Promise<ApiError | undefined> {
  let outcome: Awaited<ReturnType<typeof consume>>;
  try {
    outcome = await count();
  } catch (err) {
    if (err instanceof ApiError) return err;
    // Not a backend fault is a bug here: still open, but loud.
    (isBackendFault(err) ? log.warn : log.error)('Per-IP rate limit not applied: its counter could not be written', {
      error: errorText(err),
    });
    return undefined;
  }
  if (outcome.counters.auth_failures >= subject.failureLimit) {
    block(lockoutKey(subject.key), outcome.window.resetAtMs, subject.failureMessage);
    return rateLimited(subject.failureMessage, outcome.state);
  }
  return undefined;
}

const startedIpCount = (res: Response): Promise<ApiError | undefined> => {
  const perRequest = requestState(res);
  return perRequest.ipLimit ?? perRequest.startIpCount?.() ?? Promise.resolve(undefined);
};

/**
 * Starts this request's count without waiting for it, before authentication:
 * token verification runs beside it. On a registered network the count waits
 * for authentication to say whom to count (`startIdentifiedCount`).
 */
export const startIpCount: RequestHandler = (_req, res, next) => {
  if (!requestState(res).onNetwork) void startedIpCount(res);
  next();
};

/** After authentication (or the attempt-token bypass of it): starts the count if nothing did, now that the caller is known. */
export const startIdentifiedCount: RequestHandler = (_req, res, next) => {
  void startedIpCount(res);
  next();
};

/** On a registered network, starts the count against `uid` as soon as its token's signature is verified (a write's revocation check runs beside it). */
export function startCountAs(res: Response, uid: string): void {
  const perRequest = requestState(res);
  perRequest.signedUid = uid;
  void startedIpCount(res);
}

/** Waits for this request's per-IP verdict (starting the count if nothing did) and throws its 429, if any. */
export async function ipLimitPassed(res: Response): Promise<void> {
  const refusal = await startedIpCount(res);
  if (refusal) throw refusal;
}

/**
 * Counts a refused credential against its subjects (`failureSubjects`), at
 * most once per request, in one commit. The counts read back after this
 * increment decide: the failures numbered 1 to a subject's limit are answered
 * as refused (401, 403, 404…), every later one 429, however many arrive at once.
 */
async function countFailedAuthentication(req: Request, res: Response, config: RuntimeConfig): Promise<void> {
  const perRequest = requestState(res);
  if (perRequest.refusalCounted) return;
  perRequest.refusalCounted = true;
  const now = Date.now();
  const window = currentWindow(now);
  const subjects = failureSubjects(req, res, config, window);
  const counted = await addToManyCounters(
    subjects.map(({ key }) => ({ key, add: { auth_failures: 1 } })),
    window,
  );
  let refusal: ApiError | undefined;
  subjects.forEach((subject, i) => {
    const { auth_failures } = counted[i];
    if (auth_failures >= subject.failureLimit) block(lockoutKey(subject.key), window.resetAtMs, subject.failureMessage);
    if (auth_failures > subject.failureLimit)
      refusal ??= rateLimited(
        subject.failureMessage,
        limitState(auth_failures, subject.failureLimit, window.resetAtMs, now),
      );
  });
  if (refusal) throw refusal;
}

/**
 * The strict limit for sensitive operations: per signed-in user, per IP without
 * one. Fails closed: if the counter cannot be written, the operation is refused
 * with 503, since these are the operations worth abusing.
 */
function sensitiveRateLimit(config: RuntimeConfig): RequestHandler {
  return async (req, res, next) => {
    const perRequest = requestState(res);
    const uid = perRequest.principal?.uid;
    const now = Date.now();
    const window = currentWindow(now);
    const key = counterKey('sensitive', uid ? `user:${uid}` : `ip:${addressBucket(clientIp(req))}`, window);
    if (perRequest.ipLimit !== undefined || perRequest.startIpCount === undefined) {
      await consume(key, config.sensitivePerMinute, res, TOO_MANY_SENSITIVE, true);
      return next();
    }
    // The request's own count (address, or identity on a registered network) and the user's in one commit: one round trip for both limits.
    refuseBlocked(key, config.sensitivePerMinute, now);
    const subject = requestSubject(req, res, config, window);
    refuseBlocked(subject.key, config.ratePerMinute, now);
    const both = addToManyCounters(
      [
        { key: subject.key, add: { requests: 1 } },
        { key, add: { requests: 1 } },
      ],
      window,
    );
    perRequest.ipLimit = ipLimitOutcome(subject, res, async () =>
      judge(subject.key, (await both)[0], config.ratePerMinute, window, now, res, TOO_MANY_REQUESTS, false),
    );
    const [, counters] = await both; // fails closed: a counter that cannot be written is a 503
    judge(key, counters, config.sensitivePerMinute, window, now, res, TOO_MANY_SENSITIVE, true);
    next();
  };
}
