// Pure: how a score is reported, shared by the attempt that is scored and the
// analytics that read it back (so neither reaches into the other). No Firebase import.

const DECIMALS = 1e4;

/** Rounds a reported figure to 4 decimals; never -0. */
export const round4 = (value: number): number => Math.round(value * DECIMALS) / DECIMALS + 0;

/** The attempt's percentage of the version's total marks (0 when the total is 0). */
export const percentageOf = (score: number, totalMarks: number): number =>
  totalMarks > 0 ? round4((score / totalMarks) * 100) : 0;
