import { FieldValue, Timestamp } from 'firebase-admin/firestore';
import { bookkeepingWrite, db, paths } from '../firestore';
import { WINDOW_MS, type Window } from './window';

export type CounterField = 'requests' | 'auth_failures';
export type Counters = Record<CounterField, number>;

// The raw answer of Firestore's Commit RPC: each write's transform results are
// the values its increments produced. The SDK's public commit() drops them;
// its WriteBatch._commit() (pinned firebase-admin 13.9) returns the raw answer.
interface RawCommit {
  _commit(): Promise<{ writeResults: Array<{ transformResults?: Array<{ integerValue?: string | number }> }> }>;
}

/**
 * Adds to the shared fixed-window counters of `key` and answers both counters
 * as they stand right after this change, in one round trip. An increment never
 * aborts under contention (a transaction would), and its result is this
 * request's own position: of forty requests at once, exactly the first ten see
 * a count of ten or less. Incrementing by 0 reads a counter atomically.
 */
export async function addToCounters(key: string, add: Partial<Counters>, window: Window): Promise<Counters> {
  const [counters] = await addToManyCounters([{ key, add }], window);
  return counters;
}

/**
 * The same for several counter documents in one commit (a sensitive operation
 * counts its address and its user together): one round trip, each counter's
 * value after this change.
 */
export async function addToManyCounters(
  changes: Array<{ key: string; add: Partial<Counters> }>,
  window: Window,
): Promise<Counters[]> {
  // A count is not what the reply reports: a stall in it is answered at the deadline like a read's.
  const batch = bookkeepingWrite(db.batch());
  for (const { key, add } of changes) {
    batch.set(
      paths.rateLimit(key),
      {
        // Field order is transform order: transformResults[0] is requests, [1] auth_failures.
        requests: FieldValue.increment(add.requests ?? 0),
        auth_failures: FieldValue.increment(add.auth_failures ?? 0),
        // A TTL policy on expires_at (firestore.indexes.json) deletes old windows.
        expires_at: Timestamp.fromMillis(window.resetAtMs + WINDOW_MS),
      },
      { merge: true },
    );
  }
  const response = await (batch as unknown as RawCommit)._commit();
  return changes.map((_, w) => {
    const results = response.writeResults[w]?.transformResults ?? [];
    const value = (i: number) => Number(results[i]?.integerValue);
    const counters = { requests: value(0), auth_failures: value(1) };
    if (!Number.isFinite(counters.requests) || !Number.isFinite(counters.auth_failures)) {
      throw new Error(`Rate-limit commit answered no counter values: ${JSON.stringify(results)}`);
    }
    return counters;
  });
}
