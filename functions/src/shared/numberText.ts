// Pure: the one spelling of a number this API accepts in text (a numeric answer key, an answer, a CSV cell, a bank file),
// and the decimal comma a taker's answer may use besides.

const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/** The number a numeric answer key spells, or undefined when it is not a plain finite number. */
export function parseNumberText(text: string): number | undefined {
  const trimmed = text.trim();
  if (!NUMBER_TEXT.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

/** Digits, one comma, digits: how much of Europe writes 1.41. No dot, no exponent. */
const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;
/** A comma that may as well group thousands ("1,234", "12,345", "-999,000"): 1.234 or 1234? */
const THOUSANDS_READING = /^[+-]?[1-9]\d{0,2},\d{3}$/;

/**
 * The number a taker's numeric answer spells, or undefined: the key's spelling, or the same with a
 * decimal comma in place of the point where the comma cannot be read as a thousands separator
 * ("1,41", "0,125", "1234,5"; not "1,234", which is 1.234 or 1234). The comma form is read as the
 * text with the comma made a point, so "1,41" is exactly the number "1.41" is.
 */
export function parseNumberAnswer(text: string): number | undefined {
  const trimmed = text.trim();
  if (!DECIMAL_COMMA.test(trimmed)) return parseNumberText(trimmed);
  return THOUSANDS_READING.test(trimmed) ? undefined : parseNumberText(trimmed.replace(',', '.'));
}
