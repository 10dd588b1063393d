/* eslint-disable @typescript-eslint/no-explicit-any -- it wraps SDK methods of every signature */
import { Firestore, Query, Transaction, WriteBatch } from 'firebase-admin/firestore';
import type { Auth } from 'firebase-admin/auth';
import { AnsweredAtDeadline, beginCall, endCall } from '../platform/backendDeadline';
import { log } from '../platform/log';
import { currentRequestId, currentWatch } from '../platform/requestScope';

// Puts every Firestore and Auth call of a request on its deadline
// (platform/backendDeadline.ts). Always installed, so each wrapper costs one
// scope lookup and a Set entry per call. The same entry points as the cost meter.

type AnyFn = (...args: any[]) => any;

// Commits that decide nothing the reply reports (a rate-limit count): treated as reads.
const bookkeeping = new WeakSet<object>();

/**
 * Marks a batch whose outcome the reply does not report: the deadline does not
 * wait for its commit, and it is not refused after the request was answered.
 */
export function bookkeepingWrite<T extends object>(batch: T): T {
  bookkeeping.add(batch);
  return batch;
}

/** `decisive`: a write the reply reports (every commit but bookkeeping, an Auth change). */
function track(target: object, method: string, decisive: (self: any) => boolean): void {
  const original = (target as Record<string, AnyFn>)[method];
  if (typeof original !== 'function') throw new Error(`No ${method} to put on the deadline`);
  (target as Record<string, AnyFn>)[method] = function (this: any, ...args: any[]) {
    const watch = currentWatch();
    if (watch === undefined || watch.over) return original.apply(this, args);
    const isDecisive = decisive(this);
    if (watch.abandoned) return isDecisive ? refuse() : original.apply(this, args);
    const call = beginCall(watch, isDecisive);
    let result: any;
    try {
      result = original.apply(this, args);
    } catch (err) {
      endCall(watch, call);
      throw err;
    }
    if (!result || typeof result.then !== 'function') {
      endCall(watch, call);
      return result;
    }
    return result.then(
      (value: unknown) => {
        endCall(watch, call);
        return value;
      },
      (err: unknown) => {
        endCall(watch, call);
        throw err;
      },
    );
  };
}

function refuse(): Promise<never> {
  log.warn('A write of a request answered at its deadline was refused, unsent', { requestId: currentRequestId() });
  return Promise.reject(new AnsweredAtDeadline());
}

const read = () => false;
const write = () => true;

let installed = false;

export function installCallWatch(db: Firestore, auth: Auth): void {
  if (installed) return;
  installed = true;
  // DocumentReference.get() goes through Firestore.getAll(); a transaction's reads through its own class.
  track(Firestore.prototype, 'getAll', read);
  track(Query.prototype, 'get', read);
  // AggregateQuery is not exported; its prototype is reachable from an instance.
  track(Object.getPrototypeOf(db.collection('_').count()), 'get', read);
  track(Transaction.prototype, 'get', read);
  track(Transaction.prototype, 'getAll', read);
  // Every write path (set/create/update/delete, batches, transactions) commits through _commit.
  track(WriteBatch.prototype, '_commit', (batch) => !bookkeeping.has(batch));
  for (const method of ['verifyIdToken', 'getUser', 'getUsers', 'getUserByEmail', 'createCustomToken'])
    track(auth, method, read);
  for (const method of [
    'createUser',
    'updateUser',
    'deleteUser',
    'deleteUsers',
    'setCustomUserClaims',
    'revokeRefreshTokens',
  ])
    track(auth, method, write);
}
