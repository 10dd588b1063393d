// Pure: how the analytics page numbers a test's questions.

/**
 * The questions numbered as a student meets them: the reply's position of a pool question is its place
 * among every question its pool could draw (a draw of 2 from 5 shows as #8 and #11), so the page numbers
 * the rows, which come in the version's order (the fixed questions, then the pools'), one after another.
 */
export const numbered = <Q extends { position: number }>(questions: readonly Q[]): Q[] =>
  questions.map((q, index) => ({ ...q, position: index + 1 }));
