import { isContention } from '../platform';

// Transactions on one busy document (an attempt its taker is saving to) lose to
// one another: Firestore aborts one, or closes it under a lock wait, and the
// SDK's own few retries can all lose too. Such a transaction is run again, after
// a growing, jittered pause, rather than answered 503. A run that lost wrote
// nothing, so running it again is safe; one that committed is never re-run.

export interface ContentionRetry {
  /** How many runs after the first, at most. */
  retries: number;
  /** With it: no run starts after this many ms from the first one; the last loss is thrown (503 with Retry-After). */
  budgetMs?: number;
}

/** Runs `transaction` (a whole `db.runTransaction`), and again while it loses to contention, within `retries` and `budgetMs`. */
export async function retryOnContention<T>(
  transaction: () => Promise<T>,
  { retries, budgetMs }: ContentionRetry,
): Promise<T> {
  const startedMs = Date.now();
  for (let retry = 0; ; retry++) {
    try {
      return await transaction();
    } catch (err) {
      if (retry >= retries || !isContention(err)) throw err;
      const pauseMs = 100 * 2 ** retry + Math.random() * 100;
      if (budgetMs !== undefined && Date.now() + pauseMs - startedMs >= budgetMs) throw err;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}
