import { stringify } from 'csv-stringify';
import type { StoredAttempt } from '../attempts/documents';
import { percentageOf } from '../shared/scores';

// Pure: the rows of a test version's results export and their CSV text. No
// Firebase import (StoredAttempt is a type, erased when compiled).
//
// - Columns: attempt_id, student_id, student_name, score, total_marks,
//   percentage, submitted_at, auto_submitted, then one per question of the
//   frozen version in its order, headed `Q<position> <question text>` (spacing
//   collapsed, cut to QUESTION_HEADER_CHARS characters).
// - A question's cell is the marks the submit awarded (negative with negative
//   marking), empty when the question was left unanswered.
// - student_name: a Guest's attempt carries the name the Guest gave; anyone
//   else's is the profile's display name, empty when there is none.
// - Every cell, header included, goes through csv-stringify's formula escaping:
//   a text beginning with =, +, -, @, tab or carriage return (or their
//   full-width forms) gets a leading single quote, so a spreadsheet shows it
//   instead of evaluating it. Numbers are not text: a negative mark stays -0.5.

export const FIXED_COLUMNS = [
  'attempt_id',
  'student_id',
  'student_name',
  'score',
  'total_marks',
  'percentage',
  'submitted_at',
  'auto_submitted',
] as const;

export const QUESTION_HEADER_CHARS = 60;

/** What a results row reads of a stored attempt (the export selects only these fields). */
export type ExportedAttempt = Pick<
  StoredAttempt,
  'id' | 'student_id' | 'guest' | 'guest_name' | 'score' | 'total_marks' | 'percentage' | 'submitted_at' | 'auto_submitted' | 'results'
>;

export const EXPORTED_FIELDS = [
  'id',
  'student_id',
  'guest',
  'guest_name',
  'score',
  'total_marks',
  'percentage',
  'submitted_at',
  'auto_submitted',
  'results',
] as const satisfies ReadonlyArray<keyof ExportedAttempt>;

/** A frozen question as the export needs it. */
export interface ExportedQuestion {
  id: string;
  question_text: string;
}

export type Cell = string | number | boolean | null;

/** The question's text for a header: spacing collapsed, trimmed, at most `max` characters (code points), "…" marking a cut. */
export function shortText(text: string, max = QUESTION_HEADER_CHARS): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  if (chars.length <= max) return flat;
  return `${chars
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

export const questionHeader = (position: number, text: string): string => `Q${position} ${shortText(text)}`.trimEnd();

export function headerRow(questions: ReadonlyArray<ExportedQuestion>): string[] {
  return [...FIXED_COLUMNS, ...questions.map((q, i) => questionHeader(i + 1, q.question_text))];
}

/** Non-guest students whose display names a page of attempts needs, each once, in first-seen order. */
export function studentsToName(attempts: ReadonlyArray<Pick<ExportedAttempt, 'student_id' | 'guest'>>): string[] {
  return [...new Set(attempts.filter((a) => a.guest !== true && typeof a.student_id === 'string' && a.student_id !== '').map((a) => a.student_id))];
}

export function studentNameOf(attempt: Pick<ExportedAttempt, 'student_id' | 'guest' | 'guest_name'>, displayNames: ReadonlyMap<string, string>): string {
  if (attempt.guest === true) return attempt.guest_name ?? '';
  return displayNames.get(attempt.student_id) ?? '';
}

/** One attempt's row, in the columns of `headerRow(questions)`. */
export function resultRow(attempt: ExportedAttempt, questions: ReadonlyArray<ExportedQuestion>, displayNames: ReadonlyMap<string, string>): Cell[] {
  const score = attempt.score ?? 0;
  const percentage = typeof attempt.percentage === 'number' ? attempt.percentage : percentageOf(score, attempt.total_marks);
  const awarded = new Map<string, number>();
  for (const result of attempt.results ?? []) {
    if (result.answered && typeof result.marks_awarded === 'number') awarded.set(result.question_id, result.marks_awarded);
  }
  return [
    attempt.id,
    attempt.student_id,
    studentNameOf(attempt, displayNames),
    score,
    attempt.total_marks,
    percentage,
    attempt.submitted_at ?? '',
    attempt.auto_submitted === true,
    ...questions.map((q) => awarded.get(q.id) ?? null),
  ];
}

export const CSV_OPTIONS = {
  bom: false,
  escape_formulas: true,
  record_delimiter: 'unix',
  // Quotes any cell holding a CR or LF: a reader takes a bare CR for a line end too (naming record_delimiter turns this off otherwise).
  quote_record_delimiter: true,
  cast: { boolean: (value: boolean) => (value ? 'true' : 'false') },
} as const;

/** The CSV text of `records` (each line ended by "\n"), every text cell formula-escaped. */
export function toCsv(records: Cell[][]): Promise<string> {
  if (records.length === 0) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    stringify(records, CSV_OPTIONS, (err, output) => (err ? reject(err) : resolve(output)));
  });
}
