/* eslint-disable @typescript-eslint/no-explicit-any -- it wraps SDK methods of every signature */
import { Firestore, Query, Transaction, WriteBatch } from 'firebase-admin/firestore';
import type { Auth } from 'firebase-admin/auth';
import {
  AnsweredAtDeadline,
  type BackendWatch,
  beginCall,
  type Call,
  currentRequestId,
  currentWatch,
  endCall,
  log,
} from '../platform';

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
    return endWhenSettled(watch, call, result);
  };
}

/** Ends the call when its result settles (at once if it is not a promise), passing the result on. */
function endWhenSettled(watch: BackendWatch, call: Call, result: any): any {
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
}

/**
 * Waits for work shared with other requests (a rate-limit flush, started by
 * whichever request came first and run off every request's deadline) as for a
 * read of this request's own: if it stalls, this request is answered at its deadline.
 */
export function waitOnDeadline<T>(shared: Promise<T>): Promise<T> {
  const watch = currentWatch();
  if (watch === undefined || watch.over || watch.abandoned) return shared;
  return endWhenSettled(watch, beginCall(watch, false), shared);
}

function refuse(): Promise<never> {
  log.warn('A write of a request answered at its deadline was refused, unsent', { requestId: currentRequestId() });
  return Promise.reject(new AnsweredAtDeadline());
}

/**
 * Every method of the Admin SDK's Auth, by what the deadline does with it.
 * `decisive`: a change of an account (or of sign-in providers) whose outcome the
 * reply reports: waited for while in flight, refused once the request was answered.
 * `read`: everything else, answered at the deadline when it stalls and never
 * refused; a token or a link made for a request answered 503 is just never delivered.
 */
export const AUTH_CALLS = {
  verifyIdToken: 'read',
  // verifyIdToken's revocation check (checkRevoked), through the instance as well.
  verifyDecodedJWTNotRevokedOrDisabled: 'read',
  verifySessionCookie: 'read',
  _verifyAuthBlockingToken: 'read',
  getUser: 'read',
  getUsers: 'read',
  getUserByEmail: 'read',
  getUserByPhoneNumber: 'read',
  getUserByProviderUid: 'read',
  listUsers: 'read',
  getProviderConfig: 'read',
  listProviderConfigs: 'read',
  createCustomToken: 'read',
  createSessionCookie: 'read',
  generatePasswordResetLink: 'read',
  generateEmailVerificationLink: 'read',
  generateVerifyAndChangeEmailLink: 'read',
  generateSignInWithEmailLink: 'read',
  createUser: 'decisive',
  updateUser: 'decisive',
  deleteUser: 'decisive',
  deleteUsers: 'decisive',
  importUsers: 'decisive',
  setCustomUserClaims: 'decisive',
  revokeRefreshTokens: 'decisive',
  createProviderConfig: 'decisive',
  updateProviderConfig: 'decisive',
  deleteProviderConfig: 'decisive',
} as const satisfies Record<string, 'read' | 'decisive'>;

const read = () => false;

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
  for (const [method, kind] of Object.entries(AUTH_CALLS)) {
    const decisive = kind === 'decisive';
    track(auth, method, () => decisive);
  }
}
