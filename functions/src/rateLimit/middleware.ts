import type { Request, RequestHandler, Response } from 'express';
import { errorText, log } from '../platform/log';
import type { RuntimeConfig } from '../config';
import { clientIp } from '../http/clientIp';
import { requestState } from '../http/requestState';
import { ApiError } from '../shared/errors';
import { isBackendFault } from '../platform/backendFaults';
import { addressBucket } from './addressBucket';
import { activeBlock, block } from './blockedKeys';
import { addToCounters, addToManyCounters, type Counters } from './counterStore';
import { counterKey, currentWindow, limitState, type LimitState, type Window } from './window';

const TOO_MANY_REQUESTS = 'Too many requests';
const TOO_MANY_AUTH_FAILURES = 'Too many failed authentications from this address';
const TOO_MANY_SENSITIVE = 'Too many sensitive operations';

/** The rate limiter, made once by the app from its config: each part reads the config it was made with. */
export interface RateLimiter {
  /** The per-IP limit and the lock-out of addresses with too many failed authentications (see `ipRateLimit`). */
  perAddress: RequestHandler;
  /** The strict limit for sensitive operations (see `sensitiveRateLimit`). */
  sensitive: RequestHandler;
  /**
   * Counts a refused credential against the caller's address: a failed
   * authentication, or a credential a handler refused (an unknown, expired,
   * revoked or used-up share code; an attempt token that does not open the
   * attempt). Together, the limit of them in a minute make the address 429 for
   * the rest of the minute, so guessing share codes is throttled like guessing
   * passwords.
   */
  countRefusedCredential(req: Request): Promise<void>;
}

export const rateLimiter = (config: RuntimeConfig): RateLimiter => ({
  perAddress: ipRateLimit(config),
  sensitive: sensitiveRateLimit(config),
  countRefusedCredential: (req) => countFailedAuthentication(req, config),
});

/** The counter document of the caller's address (IPv6 per /64) for the current minute. */
const ipKey = (req: Request, nowMs: number): string => counterKey('ip', addressBucket(clientIp(req)), currentWindow(nowMs));

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

/**
 * Counts one request against `key`'s shared counter and refuses it past `limit`.
 * Keys already over their limit are refused from memory until the window ends,
 * so a flood costs no Firestore writes.
 */
async function consume(key: string, limit: number, res: Response, reason: string, strict = false) {
  const now = Date.now();
  const blocked = activeBlock(key, now);
  if (blocked) throw rateLimited(blocked.message, limitState(limit + 1, limit, blocked.untilMs, now));
  const window = currentWindow(now);
  const counters = await addToCounters(key, { requests: 1 }, window);
  return judge(key, counters, limit, window, now, res, reason, strict);
}

/** The verdict on counters just read back: limit headers set, a 429 thrown past the limit. */
function judge(key: string, counters: Counters, limit: number, window: Window, now: number, res: Response, reason: string, strict: boolean) {
  const state = limitState(counters.requests, limit, window.resetAtMs, now);
  setLimitHeaders(res, state, strict);
  if (state.exceeded) {
    block(key, window.resetAtMs, reason);
    throw rateLimited(reason, state);
  }
  return { window, counters, state };
}

/**
 * Default limit per client IP, and the lock-out of IPs with too many failed
 * authentications. Fails open: if the counter cannot be written the request
 * goes on (logged at WARNING) without rate-limit headers, because the work it
 * asks for needs the same Firestore and answers 503 itself if it is down, and a
 * counter hiccup should not turn into an outage for every caller.
 *
 * It only refuses keys already known to be over their limit here; the counting
 * starts as the route begins (`startIpCount`: beside token verification), or,
 * on a sensitive route, in the same commit as the user's count
 * (`sensitiveRateLimit`), and its verdict is awaited (`ipLimitPassed`) before
 * anything is answered: every path that answers starts it if nothing did.
 */
function ipRateLimit(config: RuntimeConfig): RequestHandler {
  return (req, res, next) => {
    const perRequest = requestState(res);
    const now = Date.now();
    const key = ipKey(req, now);
    const blocked = activeBlock(key, now);
    if (blocked) throw rateLimited(blocked.message, limitState(config.ratePerMinute + 1, config.ratePerMinute, blocked.untilMs, now));
    perRequest.ipKey = key;
    perRequest.startIpCount = () => (perRequest.ipLimit ??= ipLimitOutcome(key, config, res, () => consume(key, config.ratePerMinute, res, TOO_MANY_REQUESTS)));
    next();
  };
}

/** The per-IP verdict from a count (started by `count`): a 429 to answer, or nothing. Never rejects. */
async function ipLimitOutcome(
  key: string,
  config: RuntimeConfig,
  res: Response,
  count: () => Promise<Awaited<ReturnType<typeof consume>>>,
): Promise<ApiError | undefined> {
  let outcome: Awaited<ReturnType<typeof consume>>;
  try {
    outcome = await count();
  } catch (err) {
    if (err instanceof ApiError) return err;
    // Not a backend fault is a bug here: still open, but loud.
    (isBackendFault(err) ? log.warn : log.error)('Per-IP rate limit not applied: its counter could not be written', { error: errorText(err) });
    return undefined;
  }
  if (outcome.counters.auth_failures >= config.authFailuresPerMinute) {
    block(key, outcome.window.resetAtMs, TOO_MANY_AUTH_FAILURES);
    return rateLimited(TOO_MANY_AUTH_FAILURES, outcome.state);
  }
  return undefined;
}

const startedIpCount = (res: Response): Promise<ApiError | undefined> => {
  const perRequest = requestState(res);
  return perRequest.ipLimit ?? perRequest.startIpCount?.() ?? Promise.resolve(undefined);
};

/** Starts this request's per-IP count without waiting for it: token verification runs beside it. */
export const startIpCount: RequestHandler = (_req, res, next) => {
  void startedIpCount(res);
  next();
};

/** Waits for this request's per-IP verdict (starting the count if nothing did) and throws its 429, if any. */
export async function ipLimitPassed(res: Response): Promise<void> {
  const refusal = await startedIpCount(res);
  if (refusal) throw refusal;
}

/**
 * Counts a refused credential against the caller's address. The count read back
 * after this increment decides: the failures numbered 1 to the limit are
 * answered 401, every later one 429, however many arrive at once.
 */
async function countFailedAuthentication(req: Request, config: RuntimeConfig): Promise<void> {
  const now = Date.now();
  const window = currentWindow(now);
  const key = ipKey(req, now);
  const { auth_failures } = await addToCounters(key, { auth_failures: 1 }, window);
  if (auth_failures >= config.authFailuresPerMinute) block(key, window.resetAtMs, TOO_MANY_AUTH_FAILURES);
  if (auth_failures > config.authFailuresPerMinute) {
    throw rateLimited(TOO_MANY_AUTH_FAILURES, limitState(auth_failures, config.authFailuresPerMinute, window.resetAtMs, now));
  }
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
    const subject = uid ? `user:${uid}` : `ip:${addressBucket(clientIp(req))}`;
    const now = Date.now();
    const window = currentWindow(now);
    const key = counterKey('sensitive', subject, window);
    if (perRequest.ipLimit !== undefined || perRequest.ipKey === undefined) {
      await consume(key, config.sensitivePerMinute, res, TOO_MANY_SENSITIVE, true);
      return next();
    }
    // The address's count and the user's in one commit: one round trip for both limits.
    const blocked = activeBlock(key, now);
    if (blocked) throw rateLimited(blocked.message, limitState(config.sensitivePerMinute + 1, config.sensitivePerMinute, blocked.untilMs, now));
    const addressKey = perRequest.ipKey;
    const both = addToManyCounters([{ key: addressKey, add: { requests: 1 } }, { key, add: { requests: 1 } }], window);
    perRequest.ipLimit = ipLimitOutcome(addressKey, config, res, async () =>
      judge(addressKey, (await both)[0], config.ratePerMinute, window, now, res, TOO_MANY_REQUESTS, false),
    );
    const [, counters] = await both; // fails closed: a counter that cannot be written is a 503
    judge(key, counters, config.sensitivePerMinute, window, now, res, TOO_MANY_SENSITIVE, true);
    next();
  };
}
