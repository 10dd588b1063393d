import { AsyncLocalStorage } from 'node:async_hooks';
import type { BackendWatch } from './backendDeadline';

// What belongs to one request wherever it is read: its id, its backend cost and
// the values it has read once. Stores read it too, so it lives below the http layer;
// http/requestContext.ts opens a scope per request.

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
  /** Its outstanding Firestore and Auth calls, for the deadline (platform/backendDeadline.ts). */
  watch?: BackendWatch;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `next` (the rest of a request's handling) in a fresh scope; `watch` tracks its backend calls. */
export function runInRequestScope(requestId: string, next: () => void, watch?: BackendWatch): void {
  const cost: RequestCost = {
    firestoreReads: 0,
    firestoreWrites: 0,
    firestoreRoundTrips: 0,
    authCalls: 0,
    roundTripSpans: [],
  };
  storage.run({ requestId, cost, memo: new Map(), watch }, next);
}

export const currentRequestId = (): string => storage.getStore()?.requestId ?? 'none';
export const currentCost = (): RequestCost | undefined => storage.getStore()?.cost;
export const currentWatch = (): BackendWatch | undefined => storage.getStore()?.watch;

/**
 * Runs `work` belonging to no request: a timer or a background task started
 * while a request is handled would otherwise carry that request's scope (its id
 * in logs, its calls on its deadline) for as long as it lives.
 */
export const outsideRequestScope = <T>(work: () => T): T => storage.exit(work);

/**
 * Runs `work` in this request's scope (its id in logs, its cost) but off its
 * deadline: a write no reply waits for (a login record, a rate-limit flush) is
 * neither answered 503 when it stalls nor refused once the request was answered.
 */
export function offTheDeadline<T>(work: () => T): T {
  const scope = storage.getStore();
  return scope?.watch ? storage.run({ ...scope, watch: undefined }, work) : work();
}

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
