import { createHash } from 'node:crypto';

// Pure: a shuffle derived only from a seed text, so every read of an attempt shows the same order
// without storing it (attempts/shuffle.ts orders questions and options; a type may order its own items).

/** sfc32 seeded with the first 128 bits of sha256(text): fast, well mixed, deterministic. */
function seededRandom(text: string): () => number {
  const digest = createHash('sha256').update(text, 'utf8').digest();
  let a = digest.readUInt32LE(0);
  let b = digest.readUInt32LE(4);
  let c = digest.readUInt32LE(8);
  let d = digest.readUInt32LE(12);
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next(); // discard the first outputs, as sfc32 recommends
  return next;
}

/** An unbiased integer in [0, bound) by rejection sampling on 32-bit outputs. */
function below(next: () => number, bound: number): number {
  const limit = Math.floor(0x1_0000_0000 / bound) * bound;
  let value = next();
  while (value >= limit) value = next();
  return value % bound;
}

/** A shuffled copy (Fisher-Yates); the input array is left as it is. */
export function shuffled<T>(items: readonly T[], seed: string): T[] {
  const copy = [...items];
  const next = seededRandom(seed);
  for (let i = copy.length - 1; i > 0; i--) {
    const j = below(next, i + 1);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/** `count` numbers in [0, 1), the same for the same seed: a draw that every read repeats. */
export function seededFractions(seed: string, count: number): number[] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () => next() / 0x1_0000_0000);
}
