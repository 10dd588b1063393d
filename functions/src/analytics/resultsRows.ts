import { stringify } from 'csv-stringify';
import { EVENT_TYPES, type StoredAttempt, type StoredIntegritySummary } from '../attempts';
import { htmlLine } from '../interchange';
import { localTime, percentageOf } from '../shared';

// Pure: the rows of a test version's results export and their CSV text. No
// Firebase import (StoredAttempt is a type, erased when compiled).
//
// - Columns: attempt_id, student_id, student_name, student_email, classes,
//   candidate_number, score, total_marks, percentage, `Started (<zone>)`,
//   `Submitted (<zone>)` (the organization's time zone, named in the header),
//   submitted_at (ISO 8601 UTC, for programs), auto_submitted, grading, the
//   integrity events counted per type (focus_lost_count, …, reload_count) and
//   in all (integrity_events_total; 0 when none), then one per question the
//   version's attempts can hold, in the version's order (its fixed questions,
//   then every question of each pool), headed `Q<position> · <title or text>`
//   (HTML made plain text, spacing collapsed, cut to QUESTION_HEADER_CHARS
//   characters).
// - A question's cell is the marks the attempt was awarded (negative with
//   negative marking), so a row's numbers add up to its score (before the floor
//   at 0). A teacher must tell apart three empties that are not marks: a
//   question the attempt never drew from its pool says `not drawn`, an essay
//   waiting for its grade says `awaiting grading`, and a question drawn but
//   left unanswered is an empty cell (a spreadsheet's SUM and COUNTBLANK read it
//   so; a grade of 0 is a 0).
// - grading: `pending` while an answered essay waits for its grade (score is
//   then the marks so far and percentage is empty: not final), `complete` once
//   every essay is graded, empty for an attempt without essays.
// - student_name: a Guest's attempt carries the name the Guest gave; anyone
//   else's is the profile's display name, empty when there is none.
// - Every cell, header included, goes through csv-stringify's formula escaping:
//   a text beginning with =, +, -, @, tab or carriage return (or their
//   full-width forms) gets a leading single quote, so a spreadsheet shows it
//   instead of evaluating it. Numbers are not text: a negative mark stays -0.5.

/** The columns before the questions', the times headed with the organization's time zone (IANA name). */
export const fixedColumns = (timeZone: string) =>
  [
    'attempt_id',
    'student_id',
    'student_name',
    'student_email',
    'classes',
    'candidate_number',
    'score',
    'total_marks',
    'percentage',
    `Started (${timeZone})`,
    `Submitted (${timeZone})`,
    'submitted_at',
    'auto_submitted',
    'grading',
    ...EVENT_TYPES.map((type) => `${type}_count` as const),
    'integrity_events_total',
  ] as const;

/** The columns of an organization in UTC (every organization has as many). */
export const FIXED_COLUMNS = fixedColumns('UTC');

/** What a cell says of a question the attempt never drew from its pool. */
export const NOT_DRAWN = 'not drawn';
/** What a cell says of an answered essay still waiting for its grade. */
export const AWAITING_GRADING = 'awaiting grading';

export const QUESTION_HEADER_CHARS = 60;

/** What a results row reads of a stored attempt (the export selects only these fields). */
export type ExportedAttempt = Pick<
  StoredAttempt,
  | 'id'
  | 'student_id'
  | 'guest'
  | 'guest_name'
  | 'class_ids'
  | 'started_at'
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
  'class_ids',
  'started_at',
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
  title?: string;
  text_format?: string;
}

/** The student as the export names it: one profile read per page (display name, email, the school's candidate number). */
export interface ExportedPerson {
  name: string;
  email: string;
  candidate_number: string;
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

/** What a header calls a question: its title when it has one, else its text, HTML read as one line of plain text (entities decoded). */
export function questionLabel(question: Omit<ExportedQuestion, 'id'>): string {
  const title = question.title?.trim();
  if (title) return title;
  const text = question.question_text ?? '';
  return question.text_format === 'html' || /<[a-z!/]/i.test(text) ? htmlLine(text).text : text;
}

export const questionHeader = (position: number, text: string): string => {
  const short = shortText(text);
  return short === '' ? `Q${position}` : `Q${position} · ${short}`;
};

/** The headers of `questions`, the first at `firstPosition` (1-based): a long header is written a chunk at a time. */
export const questionHeaders = (questions: ReadonlyArray<ExportedQuestion>, firstPosition = 1): string[] =>
  questions.map((q, i) => questionHeader(firstPosition + i, questionLabel(q)));

export function headerRow(questions: ReadonlyArray<ExportedQuestion>, timeZone = 'UTC'): string[] {
  return [...fixedColumns(timeZone), ...questionHeaders(questions)];
}

/**
 * The classes a row names: those the student was in when the attempt started (`class_ids`), of the test's
 * audience when it is assigned to classes (`audience` non-empty), by name, sorted and joined by "; ".
 */
export function classesCell(
  classIds: readonly string[] | undefined,
  audience: readonly string[],
  classNames: ReadonlyMap<string, string>,
): string {
  const assigned = new Set(audience);
  return (classIds ?? [])
    .filter((id) => assigned.size === 0 || assigned.has(id))
    .map((id) => classNames.get(id))
    .filter((name): name is string => typeof name === 'string')
    .sort((a, b) => a.localeCompare(b))
    .join('; ');
}

/** How the export names people, zones and classes: read once per export (classes) or per page (people). */
export interface RowContext {
  people: ReadonlyMap<string, ExportedPerson>;
  timeZone: string;
  audience: readonly string[];
  classNames: ReadonlyMap<string, string>;
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
  people: ReadonlyMap<string, Pick<ExportedPerson, 'name'>>,
): string {
  if (attempt.guest === true) return attempt.guest_name ?? '';
  return people.get(attempt.student_id)?.name ?? '';
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
  context: RowContext,
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
  // An attempt scored before results were kept has none: its cells are left empty rather than said undrawn.
  const cells: Cell[] = new Array<Cell>(questions.length).fill(attempt.results ? NOT_DRAWN : null);
  for (const result of attempt.results ?? []) {
    const at = columns.get(result.question_id);
    if (at === undefined) continue;
    if (result.pending === true) cells[at] = AWAITING_GRADING;
    else if (!result.answered || typeof result.marks_awarded !== 'number') cells[at] = null;
    else cells[at] = result.marks_awarded;
  }
  const person = attempt.guest === true ? undefined : context.people.get(attempt.student_id);
  return [
    attempt.id,
    attempt.student_id,
    studentNameOf(attempt, context.people),
    person?.email ?? '',
    attempt.guest === true ? '' : classesCell(attempt.class_ids, context.audience, context.classNames),
    person?.candidate_number ?? '',
    score,
    attempt.total_marks,
    percentage,
    localTime(attempt.started_at, context.timeZone),
    localTime(attempt.submitted_at, context.timeZone),
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

/**
 * The results export is a file a teacher opens in a spreadsheet: the same rule, with records ended by CRLF
 * (RFC 4180, what Excel writes). Its UTF-8 byte order mark (CSV_BOM) is written once, before the header,
 * by the export, since its text is made a chunk at a time.
 */
export const GRADEBOOK_CSV_OPTIONS = { ...CSV_OPTIONS, record_delimiter: 'windows' } as const;

/** Without it Excel reads a CSV as the machine's legacy code page: "Zoë" shows as "ZoÃ«". */
export const CSV_BOM = '\uFEFF';

/** The CSV text of `records` (each line ended by CRLF), every text cell formula-escaped. */
export function toCsv(records: Cell[][]): Promise<string> {
  if (records.length === 0) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    stringify(records, GRADEBOOK_CSV_OPTIONS, (err, output) => (err ? reject(err) : resolve(output)));
  });
}

/** One record's cells as CSV text without its line end: a header too long to hold whole is written in such pieces, joined by commas. */
export async function csvCells(cells: Cell[]): Promise<string> {
  return (await toCsv([cells])).replace(/\r\n$/, '');
}
