// How the service reads a numeric answer (functions/src/shared/numberText.ts, parseNumberAnswer),
// so the field can say what is wrong before the answer is sent. A test keeps the two in step.

const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;
const THOUSANDS_READING = /^[+-]?[1-9]\d{0,2},\d{3}$/;

/** A numeric answer as typed: a number (with the point form the service reads), or why it is none. */
export type NumberReading =
  | { kind: 'blank' }
  | { kind: 'number'; value: number; decimal: string }
  | { kind: 'ambiguous' }
  | { kind: 'not_a_number' };

export function readNumberAnswer(text: string): NumberReading {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'blank' };
  const comma = DECIMAL_COMMA.test(trimmed);
  if (comma && THOUSANDS_READING.test(trimmed)) return { kind: 'ambiguous' };
  const decimal = comma ? trimmed.replace(',', '.') : trimmed;
  const value = NUMBER_TEXT.test(decimal) ? Number(decimal) : NaN;
  return Number.isFinite(value) ? { kind: 'number', value, decimal } : { kind: 'not_a_number' };
}

/** What to tell the taker about a numeric entry, or null when it reads as a number (or is blank). */
export function numberProblem(text: string): string | null {
  const reading = readNumberAnswer(text);
  if (reading.kind === 'ambiguous') {
    const trimmed = text.trim();
    const [whole, part] = trimmed.split(',');
    return `“${trimmed}” could be ${whole}.${part} or ${whole}${part}: write it with a point (${whole}.${part}) or without the comma (${whole}${part}).`;
  }
  if (reading.kind === 'not_a_number')
    return 'This is not a number. Write digits, with a point or a comma for decimals (3.5 or 3,5), and no units.';
  return null;
}

/** A typed number's check: an entry that is no number is not sent, since it would score as wrong. */
export const NUMBER_CHECK = {
  problemOf: numberProblem,
  unsaved: 'Not saved until it is a number.',
  testId: 'number-error',
};
