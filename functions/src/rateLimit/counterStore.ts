import { FieldValue, Timestamp } from 'firebase-admin/firestore';
import { paths } from '../firestore/paths';
import { WINDOW_MS, type Window } from './window';

export type CounterField = 'requests' | 'auth_failures';
export type Counters = Record<CounterField, number>;

/**
 * Shared fixed-window counters in Firestore. An atomic increment never aborts
 * under contention (a transaction would), and reading the document back
 * afterwards sees our own increment, so a limit is never exceeded; at worst a
 * request racing at the boundary is refused one early.
 */
export async function incrementCounter(key: string, field: CounterField, window: Window): Promise<Counters> {
  const ref = paths.rateLimit(key);
  await ref.set(
    {
      [field]: FieldValue.increment(1),
      // A TTL policy on expires_at (firestore.indexes.json) deletes old windows.
      expires_at: Timestamp.fromMillis(window.resetAtMs + WINDOW_MS),
    },
    { merge: true },
  );
  const data = (await ref.get()).data() ?? {};
  return { requests: Number(data.requests ?? 0), auth_failures: Number(data.auth_failures ?? 0) };
}

/** Bumps a counter without reading it back, for events whose outcome is already decided. */
export async function bumpCounter(key: string, field: CounterField, window: Window): Promise<void> {
  await paths.rateLimit(key).set(
    { [field]: FieldValue.increment(1), expires_at: Timestamp.fromMillis(window.resetAtMs + WINDOW_MS) },
    { merge: true },
  );
}
