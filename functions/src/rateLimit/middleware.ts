import type { Request, RequestHandler, Response } from 'express';
import { ApiError } from '../http/errors';
import type { RuntimeConfig } from '../config';
import { block, isBlocked } from './blockedKeys';
import { bumpCounter, incrementCounter } from './counterStore';
import { counterKey, currentWindow, limitState, secondsUntil, type LimitState, type Window } from './window';

interface IpWindow {
  key: string;
  window: Window;
  authFailures: number;
}

export const clientIp = (req: Request): string => req.ip ?? 'unknown';

function setLimitHeaders(res: Response, state: LimitState): void {
  res.setHeader('X-RateLimit-Limit', String(state.limit));
  res.setHeader('X-RateLimit-Remaining', String(state.remaining));
  res.setHeader('X-RateLimit-Reset', String(state.resetSeconds));
}

function rateLimited(message: string, state: LimitState): ApiError {
  return new ApiError('RATE_LIMITED', message, undefined, {
    'Retry-After': String(state.resetSeconds),
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': '0',
    'X-RateLimit-Reset': String(state.resetSeconds),
  });
}

/** Default limit per client IP, and the lock-out of IPs with too many failed authentications. */
export function ipRateLimit(config: RuntimeConfig): RequestHandler {
  return async (req, res, next) => {
    const now = Date.now();
    const window = currentWindow(now);
    const key = counterKey('ip', clientIp(req), window);
    const blockedUntil = isBlocked(key, now);
    if (blockedUntil !== undefined) {
      const state = limitState(config.ratePerMinute + 1, config.ratePerMinute, blockedUntil, now);
      throw rateLimited(`Too many requests; retry in ${state.resetSeconds} s`, state);
    }
    const counters = await incrementCounter(key, 'requests', window);
    const state = limitState(counters.requests, config.ratePerMinute, window.resetAtMs, now);
    setLimitHeaders(res, state);
    if (counters.auth_failures >= config.authFailuresPerMinute) {
      block(key, window.resetAtMs);
      throw rateLimited(`Too many failed authentications from this address; retry in ${state.resetSeconds} s`, { ...state, remaining: 0 });
    }
    if (state.exceeded) {
      block(key, window.resetAtMs);
      throw rateLimited(`Too many requests; retry in ${state.resetSeconds} s`, state);
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
  if (ipWindow.authFailures >= config.authFailuresPerMinute) block(ipWindow.key, ipWindow.window.resetAtMs);
}

/** The strict limit for sensitive operations: per signed-in user, per IP without one. */
export function sensitiveRateLimit(config: RuntimeConfig): RequestHandler {
  return async (req, res, next) => {
    const now = Date.now();
    const window = currentWindow(now);
    const subject = res.locals.principal?.uid ? `user:${res.locals.principal.uid}` : `ip:${clientIp(req)}`;
    const key = counterKey('sensitive', subject, window);
    const blockedUntil = isBlocked(key, now);
    if (blockedUntil !== undefined) {
      const state = limitState(config.sensitivePerMinute + 1, config.sensitivePerMinute, blockedUntil, now);
      throw rateLimited(`Too many sensitive operations; retry in ${secondsUntil(blockedUntil, now)} s`, state);
    }
    const { requests } = await incrementCounter(key, 'requests', window);
    const state = limitState(requests, config.sensitivePerMinute, window.resetAtMs, now);
    setLimitHeaders(res, state);
    if (state.exceeded) {
      block(key, window.resetAtMs);
      throw rateLimited(`Too many sensitive operations; retry in ${state.resetSeconds} s`, state);
    }
    next();
  };
}
