import type { Request, RequestHandler, Response } from 'express';
import { errorText, log } from '../platform/log';
import type { RuntimeConfig } from '../config';
import { clientIp } from '../http/clientIp';
import { ApiError } from '../http/errors';
import { isBackendFault } from '../platform/backendFaults';
import { addressBucket } from './addressBucket';
import { activeBlock, block } from './blockedKeys';
import { addToCounters } from './counterStore';
import { counterKey, currentWindow, limitState, type LimitState } from './window';

const TOO_MANY_REQUESTS = 'Too many requests';
const TOO_MANY_AUTH_FAILURES = 'Too many failed authentications from this address';
const TOO_MANY_SENSITIVE = 'Too many sensitive operations';

/** The counter document of the caller's address (IPv6 per /64) for the current minute. */
const ipKey = (req: Request, nowMs: number): string => counterKey('ip', addressBucket(clientIp(req)), currentWindow(nowMs));

function setLimitHeaders(res: Response, state: LimitState): void {
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
async function consume(key: string, limit: number, res: Response, reason: string) {
  const now = Date.now();
  const blocked = activeBlock(key, now);
  if (blocked) throw rateLimited(blocked.message, limitState(limit + 1, limit, blocked.untilMs, now));
  const window = currentWindow(now);
  const counters = await addToCounters(key, { requests: 1 }, window);
  const state = limitState(counters.requests, limit, window.resetAtMs, now);
  setLimitHeaders(res, state);
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
 */
export function ipRateLimit(config: RuntimeConfig): RequestHandler {
  return async (req, res, next) => {
    const key = ipKey(req, Date.now());
    let outcome: Awaited<ReturnType<typeof consume>>;
    try {
      outcome = await consume(key, config.ratePerMinute, res, TOO_MANY_REQUESTS);
    } catch (err) {
      if (!isBackendFault(err)) throw err;
      log.warn('Per-IP rate limit not applied: its counter could not be written', { error: errorText(err) });
      return next();
    }
    if (outcome.counters.auth_failures >= config.authFailuresPerMinute) {
      block(key, outcome.window.resetAtMs, TOO_MANY_AUTH_FAILURES);
      throw rateLimited(TOO_MANY_AUTH_FAILURES, outcome.state);
    }
    next();
  };
}

/**
 * Counts a refused credential against the caller's address. The count read back
 * after this increment decides: the failures numbered 1 to the limit are
 * answered 401, every later one 429, however many arrive at once.
 */
export async function countFailedAuthentication(req: Request, config: RuntimeConfig): Promise<void> {
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
export function sensitiveRateLimit(config: RuntimeConfig): RequestHandler {
  return async (req, res, next) => {
    const uid: string | undefined = res.locals.principal?.uid;
    const subject = uid ? `user:${uid}` : `ip:${addressBucket(clientIp(req))}`;
    const key = counterKey('sensitive', subject, currentWindow(Date.now()));
    await consume(key, config.sensitivePerMinute, res, TOO_MANY_SENSITIVE);
    next();
  };
}
