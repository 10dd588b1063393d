// Pure: the totals a version's attempts can have. An attempt's own total is the marks of the
// questions it holds (its fixed ones and what it drew), so with pools whose questions' marks
// differ, two attempts of one version can have different totals. What the version can hold
// is a range: the fixed questions' marks plus, per pool, the sum of its `draw` smallest marks
// (the least) and of its `draw` largest (the most).

export interface PoolMarks {
  draw: number;
  /** The marks of every question the pool can draw from (frozen, or the bank's for a draft). */
  marks: readonly number[];
}

export interface MarksRange {
  min: number;
  max: number;
}

const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;
const sum = (values: readonly number[]): number => values.reduce((total, v) => total + v, 0);

/** The least and the most a pool's draw can give; a draw above the pool's size takes the whole pool (publishing refuses it anyway). */
export function poolMarksRange(pool: PoolMarks): MarksRange {
  const sorted = [...pool.marks].sort((a, b) => a - b);
  const draw = Math.max(0, Math.min(pool.draw, sorted.length));
  return { min: round4(sum(sorted.slice(0, draw))), max: round4(sum(sorted.slice(sorted.length - draw))) };
}

/** The totals the version's attempts can have: the fixed marks plus each pool's range. */
export function totalMarksRange(fixedMarks: number, pools: readonly PoolMarks[]): MarksRange {
  const ranges = pools.map(poolMarksRange);
  return {
    min: round4(fixedMarks + sum(ranges.map((r) => r.min))),
    max: round4(fixedMarks + sum(ranges.map((r) => r.max))),
  };
}

/** A range as a reader sees it: "8–9", or "9" when every attempt has the same total. */
export const rangeText = (range: MarksRange): string =>
  range.min === range.max ? String(range.min) : `${range.min}–${range.max}`;

/** The version's pools as PoolMarks, or undefined when one was frozen before their marks were kept. */
export function versionPoolMarks(
  pools: ReadonlyArray<{ draw: number; question_ids: readonly string[]; question_marks?: readonly number[] }>,
): PoolMarks[] | undefined {
  const out: PoolMarks[] = [];
  for (const pool of pools) {
    if (!pool.question_marks || pool.question_marks.length !== pool.question_ids.length) return undefined;
    out.push({ draw: pool.draw, marks: pool.question_marks });
  }
  return out;
}
