import { stringify } from 'csv-stringify';
import { EVENT_TYPES, type StoredAttempt, type StoredIntegritySummary } from '../attempts';
import { percentageOf } from '../shared';

// Pure: the rows of a test version's results export and their CSV text. No
// Firebase import (StoredAttempt is a type, erased when compiled).
//
// - Columns: attempt_id, student_id, student_name, score, total_marks,
//   percentage, submitted_at, auto_submitted, grading, the integrity events
//   counted per type (focus_lost_count, …, reload_count) and in all
//   (integrity_events_total; 0 when none), then one per question
//   the version's attempts can hold, in the version's order (its fixed
//   questions, then every question of each pool), headed
//   `Q<position> <question text>` (spacing collapsed, cut to
//   QUESTION_HEADER_CHARS characters).
// - A question's cell is the marks the attempt was awarded (negative with
//   negative marking), so a row's cells add up to its score (before the floor
//   at 0). It is empty when the question was left unanswered, when the attempt
//   did not draw it from its pool, and while it is an essay waiting for its
//   grade (a grade of 0 is a 0).
// - grading: `pending` while an answered essay waits for its grade (score is
//   then the marks so far and percentage is empty: not final), `complete` once
//   every essay is graded, empty for an attempt without essays.
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
  'grading',
  ...EVENT_TYPES.map((type) => `${type}_count` as const),
  'integrity_events_total',
] as const;

export const QUESTION_HEADER_CHARS = 60;

/** What a results row reads of a stored attempt (the export selects only these fields). */
export type ExportedAttempt = Pick<
  StoredAttempt,
  | 'id'
  | 'student_id'
  | 'guest'
  | 'guest_name'
  | 'score'
  | 'total_marks'
  | 'percentage'
  | 'submitted_at'
  | 'auto_submitted'
  | 'results'
  | 'grading'
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
  'grading',
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

/** The headers of `questions`, the first at `firstPosition` (1-based): a long header is written a chunk at a time. */
export const questionHeaders = (questions: ReadonlyArray<ExportedQuestion>, firstPosition = 1): string[] =>
  questions.map((q, i) => questionHeader(firstPosition + i, q.question_text));

export function headerRow(questions: ReadonlyArray<ExportedQuestion>): string[] {
  return [...FIXED_COLUMNS, ...questionHeaders(questions)];
}

/** Non-guest students whose display names a page of attempts needs, each once, in first-seen order. */
export function studentsToName(attempts: ReadonlyArray<Pick<ExportedAttempt, 'student_id' | 'guest'>>): string[] {
  return [
    ...new Set(
      attempts
        .filter((a) => a.guest !== true && typeof a.student_id === 'string' && a.student_id !== '')
        .map((a) => a.student_id),
    ),
  ];
}

export function studentNameOf(
  attempt: Pick<ExportedAttempt, 'student_id' | 'guest' | 'guest_name'>,
  displayNames: ReadonlyMap<string, string>,
): string {
  if (attempt.guest === true) return attempt.guest_name ?? '';
  return displayNames.get(attempt.student_id) ?? '';
}

/** Each column's index by question id, made once per list of columns (thousands with large pools), not once per row. */
const columnIndexes = new WeakMap<ReadonlyArray<{ id: string }>, Map<string, number>>();
function columnsOf(questions: ReadonlyArray<{ id: string }>): Map<string, number> {
  let index = columnIndexes.get(questions);
  if (!index) {
    index = new Map(questions.map((q, i) => [q.id, i]));
    columnIndexes.set(questions, index);
  }
  return index;
}

/** One attempt's row, in the columns of `headerRow(questions)`: `questions` are every question the version's attempts can hold. */
export function resultRow(
  attempt: ExportedAttempt,
  questions: ReadonlyArray<{ id: string }>,
  displayNames: ReadonlyMap<string, string>,
  integrity: ReadonlyMap<string, Pick<StoredIntegritySummary, 'total' | 'counts'>> = new Map(),
): Cell[] {
  const events = integrity.get(attempt.id);
  const score = attempt.score ?? 0;
  const pending = attempt.grading === 'pending';
  const percentage = pending
    ? null
    : typeof attempt.percentage === 'number'
      ? attempt.percentage
      : percentageOf(score, attempt.total_marks);
  const columns = columnsOf(questions);
  const cells: Cell[] = new Array<Cell>(questions.length).fill(null);
  for (const result of attempt.results ?? []) {
    const at = columns.get(result.question_id);
    if (at === undefined || !result.answered || result.pending === true || typeof result.marks_awarded !== 'number')
      continue;
    cells[at] = result.marks_awarded;
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
    attempt.grading ?? null,
    // Events inform the reader; they are not part of the score.
    ...EVENT_TYPES.map((type) => events?.counts?.[type] ?? 0),
    events?.total ?? 0,
    ...cells,
  ];
}

/** The one rule every CSV written is written by: the service's here, the web app's in web/src/csv.ts (the same options, held to this by test/web/csv.test.ts). */
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

/** One record's cells as CSV text without its line end: a header too long to hold whole is written in such pieces, joined by commas. */
export async function csvCells(cells: Cell[]): Promise<string> {
  return (await toCsv([cells])).replace(/\n$/, '');
}
