// Pure: the one spelling of a number this API accepts in text (a numeric answer key, an answer, a CSV cell, a bank file).

const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/** The number a numeric answer key spells, or undefined when it is not a plain finite number. */
export function parseNumberText(text: string): number | undefined {
  const trimmed = text.trim();
  if (!NUMBER_TEXT.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}
