import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { errorText, isBackendFault, log, offTheDeadline } from '../platform';
import type { RuntimeConfig } from '../config';
import { attemptTokenOf, clientIp, requestState, usesAttemptToken } from '../http';
import { ApiError } from '../shared';
import { registeredNetworks } from '../networks';
import { addressBucket } from './addressBucket';
import { blockedKeys, type BlockedKeys } from './blockedKeys';
import { addToCounters, addToManyCounters, type Counters } from './counterStore';
import { waitOnDeadline } from '../firestore';
import { LocalCounts } from './localCounts';
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

export interface RateLimiterOptions {
  /**
   * Requests that are counted and judged like any other but never cause a
   * write of their own (the liveness check): their counts go with the next
   * flush another request of the same key makes.
   */
  writesNothing?: (req: Request) => boolean;
}

/**
 * Each limiter keeps its own counts and blocks: two apps served in one process
 * count as two instances would.
 */
export function rateLimiter(config: RuntimeConfig, options: RateLimiterOptions = {}): RateLimiter {
  const limits: Limits = {
    config,
    counts: new LocalCounts(),
    blocks: blockedKeys(),
    flushes: new Map(),
    writesNothing: options.writesNothing ?? (() => false),
  };
  return {
    perAddress: ipRateLimit(limits),
    sensitive: sensitiveRateLimit(limits),
    countRefusedCredential: (req, res) => countFailedAuthentication(req, res, limits),
  };
}

/** One limiter's state. */
interface Limits {
  config: RuntimeConfig;
  /** Requests counted here, not yet (or just) flushed to the shared counters. */
  counts: LocalCounts;
  blocks: BlockedKeys;
  /** The flush under way, or waiting for its second, per key. */
  flushes: Map<string, Promise<void>>;
  writesNothing: (req: Request) => boolean;
}

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
function refuseBlocked(
  blocks: BlockedKeys,
  key: string,
  limit: number,
  nowMs: number,
  { lockoutOnly = false } = {},
): void {
  const blocked = blocks.active(lockoutKey(key), nowMs) ?? (lockoutOnly ? undefined : blocks.active(key, nowMs));
  if (blocked) throw rateLimited(blocked.message, limitState(limit + 1, limit, blocked.untilMs, nowMs));
}

interface Verdict {
  window: Window;
  state: LimitState;
  /** Refused credentials of the key as last read back from its shared counter. */
  failures: number;
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    // A flush waiting for its second keeps no process alive by itself.
    setTimeout(resolve, ms).unref();
  });

/**
 * Adds what `key` counted here since its last flush to the shared counter and
 * takes the value read back as the shared count: at most one flush per key at
 * a time, and one a second. Rejects when the commit fails; the counts are
 * then kept for the next flush.
 */
function flush(limits: Limits, key: string, window: Window): Promise<void> {
  const running = limits.flushes.get(key);
  if (running) return running;
  // Shared by every request that waits for it, so on none's deadline: each waiter puts its wait on its own.
  const flushing = offTheDeadline(async () => {
    try {
      const delay = limits.counts.flushDelay(key, Date.now());
      if (delay > 0) await sleep(delay);
      const amount = limits.counts.startFlush(key, Date.now());
      if (amount === 0) return;
      try {
        limits.counts.flushed(key, await addToCounters(key, { requests: amount }, window));
      } catch (err) {
        limits.counts.flushFailed(key);
        throw err;
      }
    } finally {
      limits.flushes.delete(key);
    }
  });
  limits.flushes.set(key, flushing);
  return flushing;
}

/** A flush nobody waits for: a failure is logged (the counts stay for the next one). */
function flushInBackground(limits: Limits, key: string, window: Window): void {
  flush(limits, key, window).catch((err) =>
    (isBackendFault(err) ? log.warn : log.error)('Rate-limit counts not flushed; kept for the next flush', {
      error: errorText(err),
    }),
  );
}

/**
 * Counts one request against `key` and refuses it past `limit`, from the
 * shared count last read back plus what this instance counted since: no
 * Firestore round trip, but when this instance already holds its share of
 * unflushed counts for the key (then the request waits for that flush).
 * Keys over their limit are refused from memory until the window ends.
 * Rejects, with the request counted, only when a flush it waited for failed.
 */
async function countLocally(
  limits: Limits,
  key: string,
  limit: number,
  res: Response,
  reason: string,
  writesNothing: boolean,
): Promise<Verdict> {
  for (;;) {
    const now = Date.now();
    refuseBlocked(limits.blocks, key, limit, now);
    const window = currentWindow(now);
    const decision = limits.counts.decide(key, limit, window.resetAtMs, now, { writesNothing });
    if (decision.kind === 'wait') {
      try {
        await waitOnDeadline(flush(limits, key, window));
      } catch (err) {
        limits.counts.admitUncounted(key, window.resetAtMs, Date.now());
        throw err;
      }
      continue;
    }
    if (decision.kind === 'admit' && decision.flushDue) flushInBackground(limits, key, window);
    const state = limitState(decision.count, limit, window.resetAtMs, now);
    setLimitHeaders(res, state, false);
    if (state.exceeded) {
      limits.blocks.block(key, window.resetAtMs, reason);
      throw rateLimited(reason, state);
    }
    return { window, state, failures: limits.counts.failures(key) };
  }
}

/**
 * Counts one request against `key`'s shared counter, exactly: one commit
 * that reads the count back (the sensitive operations' strict limit).
 */
async function countShared(limits: Limits, key: string, limit: number, res: Response, reason: string) {
  const now = Date.now();
  refuseBlocked(limits.blocks, key, limit, now);
  const window = currentWindow(now);
  const counters = await addToCounters(key, { requests: 1 }, window);
  judge(limits.blocks, key, counters, limit, window, now, res, reason);
}

/** The verdict on a strict counter just read back: limit headers set, a 429 thrown past the limit. */
function judge(
  blocks: BlockedKeys,
  key: string,
  counters: Counters,
  limit: number,
  window: Window,
  now: number,
  res: Response,
  reason: string,
) {
  const state = limitState(counters.requests, limit, window.resetAtMs, now);
  setLimitHeaders(res, state, true);
  if (state.exceeded) {
    blocks.block(key, window.resetAtMs, reason);
    throw rateLimited(reason, state);
  }
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
 * lock-out of IPs with too many failed authentications. Counted on this
 * instance and flushed to the shared counters (`countLocally`). Fails open: if
 * the counter cannot be written the request goes on (logged at WARNING)
 * without rate-limit headers, because the work it asks for needs the same
 * Firestore and answers 503 itself if it is down, and a counter hiccup should
 * not turn into an outage for every caller.
 *
 * It only refuses keys already known to be over their limit here; the counting
 * starts as the route begins (`startIpCount`; on a registered network once
 * authentication has said who is calling, `startIdentifiedCount`), and its
 * verdict is awaited (`ipLimitPassed`) before anything is answered: every path
 * that answers starts it if nothing did.
 */
function ipRateLimit(limits: Limits): RequestHandler {
  const { config } = limits;
  return async (req, res, next) => {
    const perRequest = requestState(res);
    // Answered from memory but for an instance's first request, which reads the networks once.
    perRequest.onNetwork = await onRegisteredNetwork(req);
    const now = Date.now();
    const address = addressSubject(req, res, config, currentWindow(now));
    // On a registered network only a locked-out address is refused before we know who calls.
    refuseBlocked(limits.blocks, address.key, config.ratePerMinute, now, { lockoutOnly: perRequest.onNetwork });
    const writesNothing = limits.writesNothing(req);
    perRequest.startIpCount = () =>
      (perRequest.ipLimit ??= (() => {
        const subject = requestSubject(req, res, config, currentWindow(Date.now()));
        return ipLimitOutcome(limits, subject, () =>
          countLocally(limits, subject.key, config.ratePerMinute, res, TOO_MANY_REQUESTS, writesNothing),
        );
      })());
    next();
  };
}

/** The request's verdict from a count (started by `count`): a 429 to answer, or nothing. Never rejects. */
async function ipLimitOutcome(
  limits: Limits,
  subject: Subject,
  count: () => Promise<Verdict>,
): Promise<ApiError | undefined> {
  let outcome: Verdict;
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
  // Refused credentials counted on other instances are learned at this key's flushes.
  if (outcome.failures >= subject.failureLimit) {
    limits.blocks.block(lockoutKey(subject.key), outcome.window.resetAtMs, subject.failureMessage);
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
async function countFailedAuthentication(req: Request, res: Response, limits: Limits): Promise<void> {
  const perRequest = requestState(res);
  if (perRequest.refusalCounted) return;
  perRequest.refusalCounted = true;
  const now = Date.now();
  const window = currentWindow(now);
  const subjects = failureSubjects(req, res, limits.config, window);
  const counted = await addToManyCounters(
    subjects.map(({ key }) => ({ key, add: { auth_failures: 1 } })),
    window,
  );
  let refusal: ApiError | undefined;
  subjects.forEach((subject, i) => {
    const { auth_failures } = counted[i];
    // The request count read back with it is as good as a flush's.
    limits.counts.seen(subject.key, counted[i]);
    if (auth_failures >= subject.failureLimit)
      limits.blocks.block(lockoutKey(subject.key), window.resetAtMs, subject.failureMessage);
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
 * one, counted exactly in the shared counter (one commit that reads it back),
 * beside the request's own count (`countLocally`, which writes nothing for it).
 * Fails closed: if the counter cannot be written, the operation is refused with
 * 503, since these are the operations worth abusing.
 */
function sensitiveRateLimit(limits: Limits): RequestHandler {
  return async (req, res, next) => {
    const uid = requestState(res).principal?.uid;
    const window = currentWindow(Date.now());
    const key = counterKey('sensitive', uid ? `user:${uid}` : `ip:${addressBucket(clientIp(req))}`, window);
    void startedIpCount(res);
    await countShared(limits, key, limits.config.sensitivePerMinute, res, TOO_MANY_SENSITIVE); // a failed commit is a 503
    next();
  };
}
