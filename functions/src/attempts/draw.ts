import { randomInt } from 'node:crypto';

// Pure: the random draw of an attempt's pool questions. No Firebase import;
// the start's transaction calls it with the version's frozen pools and the
// questions the student was given in its earlier attempts of the test.
//
// Per pool, in the version's order:
// - the questions the student has not seen are drawn first, at random;
// - when fewer than `draw` are left unseen, every unseen one is taken and
//   the rest drawn at random from the seen ones: the pool starts a new cycle,
//   in which only those are seen;
// - pools are disjoint (publishing made them so), so no question repeats.

export interface DrawPool {
  question_ids: readonly string[];
  draw: number;
}

/** A random integer in [0, bound): crypto's by default, a seeded one in tests. */
export type RandomBelow = (bound: number) => number;

/** `count` items of `items` at random (a partial Fisher-Yates), in the order drawn. */
function sample<T>(items: readonly T[], count: number, below: RandomBelow): T[] {
  const copy = [...items];
  const n = Math.min(count, copy.length);
  for (let i = 0; i < n; i++) {
    const j = i + below(copy.length - i);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}

/** At most this many seen questions are kept per (test, student): as many as a version's pools can freeze. */
export const MAX_SEEN = 5_000;

export interface Draw {
  /** The drawn question ids, pool after pool. */
  drawn: string[];
  /** The pool questions seen from now on (kept on the student's slot for the next attempt). */
  seen: string[];
}

export function drawFromPools(
  pools: readonly DrawPool[],
  seenBefore: readonly string[],
  below: RandomBelow = randomInt,
): Draw {
  const seen = new Set(seenBefore);
  const drawn: string[] = [];
  for (const pool of pools) {
    const unseen = pool.question_ids.filter((id) => !seen.has(id));
    if (unseen.length >= pool.draw) {
      const picked = sample(unseen, pool.draw, below);
      drawn.push(...picked);
      for (const id of picked) seen.add(id);
      continue;
    }
    // A new cycle: every unseen question, then the rest from those seen before; only these count as seen now.
    const seenInPool = pool.question_ids.filter((id) => seen.has(id));
    const rest = sample(seenInPool, pool.draw - unseen.length, below);
    const picked = [...sample(unseen, unseen.length, below), ...rest];
    drawn.push(...picked);
    for (const id of pool.question_ids) seen.delete(id);
    for (const id of rest) seen.add(id);
  }
  // The slot is read by every start: what it keeps is bounded (the oldest go first, a Set keeps insertion order).
  return { drawn, seen: [...seen].slice(-MAX_SEEN) };
}
