import type { Request, RequestHandler, Response } from 'express';
import { ApiError } from '../http/errors';
import type { RuntimeConfig } from '../config';
import { addressBucket } from './addressBucket';
import { activeBlock, block } from './blockedKeys';
import { bumpCounter, incrementCounter } from './counterStore';
import { counterKey, currentWindow, limitState, type LimitState, type Window } from './window';

interface IpWindow {
  key: string;
  window: Window;
  authFailures: number;
}

const TOO_MANY_REQUESTS = 'Too many requests';
const TOO_MANY_AUTH_FAILURES = 'Too many failed authentications from this address';
const TOO_MANY_SENSITIVE = 'Too many sensitive operations';

export const clientIp = (req: Request): string => req.ip ?? 'unknown';

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
  const counters = await incrementCounter(key, 'requests', window);
  const state = limitState(counters.requests, limit, window.resetAtMs, now);
  setLimitHeaders(res, state);
  if (state.exceeded) {
    block(key, window.resetAtMs, reason);
    throw rateLimited(reason, state);
  }
  return { window, counters, state };
}

/** Default limit per client IP, and the lock-out of IPs with too many failed authentications. */
export function ipRateLimit(config: RuntimeConfig): RequestHandler {
  return async (req, res, next) => {
    const key = counterKey('ip', addressBucket(clientIp(req)), currentWindow(Date.now()));
    const { window, counters, state } = await consume(key, config.ratePerMinute, res, TOO_MANY_REQUESTS);
    if (counters.auth_failures >= config.authFailuresPerMinute) {
      block(key, window.resetAtMs, TOO_MANY_AUTH_FAILURES);
      throw rateLimited(TOO_MANY_AUTH_FAILURES, state);
    }
    const ipWindow: IpWindow = { key, window, authFailures: counters.auth_failures };
    res.locals.ipWindow = ipWindow;
    next();
  };
}

/** Counts a failed authentication against the caller's IP, locking it out at the threshold. */
export async function recordAuthFailure(res: Response, config: RuntimeConfig): Promise<void> {
  const ipWindow = res.locals.ipWindow as IpWindow | undefined;
  if (!ipWindow) return;
  await bumpCounter(ipWindow.key, 'auth_failures', ipWindow.window);
  ipWindow.authFailures += 1;
  if (ipWindow.authFailures >= config.authFailuresPerMinute) {
    block(ipWindow.key, ipWindow.window.resetAtMs, TOO_MANY_AUTH_FAILURES);
  }
}

/** The strict limit for sensitive operations: per signed-in user, per IP without one. */
export function sensitiveRateLimit(config: RuntimeConfig): RequestHandler {
  return async (req, res, next) => {
    const uid: string | undefined = res.locals.principal?.uid;
    const subject = uid ? `user:${uid}` : `ip:${addressBucket(clientIp(req))}`;
    const key = counterKey('sensitive', subject, currentWindow(Date.now()));
    await consume(key, config.sensitivePerMinute, res, TOO_MANY_SENSITIVE);
    next();
  };
}
