/* eslint-disable @typescript-eslint/no-explicit-any -- it wraps SDK methods of every signature */
import { Firestore, Query, Transaction, WriteBatch } from 'firebase-admin/firestore';
import type { Auth } from 'firebase-admin/auth';
import { currentCost } from '../platform';

// Counts Firestore reads, writes and round trips, and Auth calls, per request by
// wrapping the SDK's entry points. Installed only when EXPOSE_COST_HEADER is on
// (emulator, benchmark): production runs the SDK untouched.

type AnyFn = (...args: any[]) => any;

function wrap<T extends object>(
  proto: T,
  method: string,
  account: (self: any, args: any[], result: any, startedMs: number) => void,
) {
  const original = (proto as Record<string, AnyFn>)[method];
  if (typeof original !== 'function' || (original as { metered?: boolean }).metered) return;
  const metered = function (this: unknown, ...args: any[]) {
    const startedMs = performance.now();
    const result = original.apply(this, args);
    if (result && typeof result.then === 'function') {
      return result.then(
        (value: unknown) => {
          account(this, args, value, startedMs);
          return value;
        },
        (err: unknown) => {
          // A refused call (ALREADY_EXISTS, say) still made its round trip.
          account(this, args, undefined, startedMs);
          throw err;
        },
      );
    }
    account(this, args, result, startedMs);
    return result;
  };
  (metered as { metered?: boolean }).metered = true;
  (proto as Record<string, AnyFn>)[method] = metered;
}

const add = (reads: number, writes: number, startedMs: number) => {
  const cost = currentCost();
  if (!cost) return;
  cost.firestoreRoundTrips += 1;
  cost.firestoreReads += reads;
  cost.firestoreWrites += writes;
  cost.roundTripSpans.push([startedMs, performance.now()]);
};

/**
 * The longest chain of round trips each of which started only after the one
 * before it had ended: the round trips the request waited for one after
 * another (its critical path), however many more ran beside them.
 */
export function sequentialRoundTrips(spans: ReadonlyArray<[number, number]>): number {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const depth: number[] = [];
  sorted.forEach(([start], i) => {
    let before = 0;
    for (let j = 0; j < i; j++) if (sorted[j][1] <= start) before = Math.max(before, depth[j]);
    depth.push(before + 1);
  });
  return Math.max(0, ...depth);
}

let installed = false;

export function installCostMeter(db: Firestore, auth: Auth): void {
  if (installed) return;
  installed = true;
  // AggregateQuery is not exported; its prototype is reachable from an instance.
  const aggregateQueryProto = Object.getPrototypeOf(db.collection('_').count());
  // DocumentReference.get() goes through Firestore.getAll().
  wrap(Firestore.prototype, 'getAll', (_self, args, _r, t) => add(args.filter((a) => a && a.path).length, 0, t));
  // A query is billed one read per document returned (at least one), plus skipped offsets.
  wrap(Query.prototype, 'get', (self, _args, snap, t) =>
    add(Math.max(1, snap?.size ?? 0) + (self._queryOptions?.offset ?? 0), 0, t),
  );
  // Billed one read per 1,000 index entries counted.
  wrap(aggregateQueryProto, 'get', (_self, _args, snap, t) =>
    add(Math.max(1, Math.ceil(Number(snap?.data?.().count ?? 0) / 1000)), 0, t),
  );
  wrap(Transaction.prototype, 'get', (_self, _args, snap, t) => add(Math.max(1, snap?.size ?? 1), 0, t));
  wrap(Transaction.prototype, 'getAll', (_self, args, _r, t) => add(args.filter((a) => a && a.path).length, 0, t));
  // Every write path (set/create/update/delete, batches, transactions) commits through _commit.
  wrap(WriteBatch.prototype, '_commit', (self, _args, result, t) =>
    add(0, result === undefined ? 0 : (self._ops?.length ?? 0), t),
  );

  for (const method of [
    'getUser',
    'getUserByEmail',
    'createUser',
    'updateUser',
    'deleteUser',
    'setCustomUserClaims',
    'revokeRefreshTokens',
  ]) {
    wrap(auth, method, () => {
      const cost = currentCost();
      if (cost) cost.authCalls += 1;
    });
  }
}

export function costHeaderValue(): string | undefined {
  const cost = currentCost();
  if (!cost) return undefined;
  return (
    `reads=${cost.firestoreReads}; writes=${cost.firestoreWrites}; round_trips=${cost.firestoreRoundTrips}; ` +
    `sequential_round_trips=${sequentialRoundTrips(cost.roundTripSpans)}; auth_calls=${cost.authCalls}`
  );
}
