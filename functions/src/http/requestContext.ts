import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { RequestOrigin } from '../shared/callContext';
import { clientIp } from './clientIp';

/** What one request spent on the backends; read by the benchmark through X-Debug-Cost. */
export interface RequestCost {
  firestoreReads: number;
  firestoreWrites: number;
  firestoreRoundTrips: number;
  authCalls: number;
  /** When each Firestore round trip started and ended (ms), to find the critical path. */
  roundTripSpans: Array<[number, number]>;
}

interface RequestContext {
  requestId: string;
  cost: RequestCost;
  memo: Map<string, Promise<unknown>>;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const currentRequestId = (): string => storage.getStore()?.requestId ?? 'none';
export const currentCost = (): RequestCost | undefined => storage.getStore()?.cost;

/**
 * Reads a value once per request: the auth middleware and the handler often
 * need the same document. Outside a request it simply reads.
 */
export function readOncePerRequest<T>(key: string, read: () => Promise<T>): Promise<T> {
  const memo = storage.getStore()?.memo;
  if (!memo) return read();
  let pending = memo.get(key) as Promise<T> | undefined;
  if (!pending) {
    pending = read();
    memo.set(key, pending);
    pending.catch(() => memo.delete(key));
  }
  return pending;
}

/** Drops a value read earlier in this request, after the request changed it. */
export const forgetInRequest = (key: string): void => {
  storage.getStore()?.memo.delete(key);
};

// Cloud Run forwards the trace id; reusing it ties our logs to the platform's request log.
function requestIdFrom(traceHeader: string | undefined): string {
  const traceId = traceHeader?.split('/')[0];
  return traceId && /^[0-9a-f]{16,32}$/i.test(traceId) ? traceId : randomUUID();
}

/** Where this request came from: its address, user agent and id. */
export const requestOrigin = (req: Request): RequestOrigin => ({
  ip: clientIp(req),
  userAgent: req.header('user-agent') ?? null,
  requestId: currentRequestId(),
});

export const requestContext: RequestHandler = (req, res, next) => {
  const requestId = requestIdFrom(req.header('x-cloud-trace-context'));
  res.setHeader('X-Request-Id', requestId);
  const cost: RequestCost = { firestoreReads: 0, firestoreWrites: 0, firestoreRoundTrips: 0, authCalls: 0, roundTripSpans: [] };
  storage.run({ requestId, cost, memo: new Map() }, next);
};
