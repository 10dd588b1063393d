import type { z } from 'zod';
import { parseNumberText } from '../shared/numberText';
import { OPTION_SEPARATOR, QuestionInput, type RowError } from './schemas';

// Pure: one CSV row to one question input, validated by the very schema that
// validates POST /api/questions. Errors name the file's line, the column and
// the problem.

export const REQUIRED_COLUMNS = [
  'question_text',
  'question_type',
  'options',
  'correct_answer',
  'marks',
  'difficulty',
] as const;
export const OPTIONAL_COLUMNS = ['folder_id', 'tolerance', 'max_words'] as const;
export type CsvColumn = (typeof REQUIRED_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];
const KNOWN = new Set<string>([...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]);

/** Each cell's column, in order; null for a blank trailing header cell (spreadsheets export those). */
export type HeaderColumns = Array<CsvColumn | null>;

/** The columns a header row names, or why it is not a header this import understands. */
export function parseHeader(cells: string[]): { columns: HeaderColumns } | { error: string } {
  const names = cells.map((c) => c.trim().toLowerCase());
  let last = names.length;
  while (last > 0 && names[last - 1] === '') last--;
  const expected = `expected ${REQUIRED_COLUMNS.join(', ')} (optionally ${OPTIONAL_COLUMNS.join(', ')})`;
  const problems: string[] = [];
  const seen = new Set<string>();
  const columns: HeaderColumns = names.map((name, i) => {
    if (i >= last) return null;
    if (name === '') problems.push(`column ${i + 1} has no name`);
    else if (!KNOWN.has(name)) problems.push(`unknown column "${cells[i].trim().slice(0, 40)}"`);
    else if (seen.has(name)) problems.push(`column "${name}" appears twice`);
    seen.add(name);
    return KNOWN.has(name) ? (name as CsvColumn) : null;
  });
  const missing = REQUIRED_COLUMNS.filter((c) => !seen.has(c));
  if (missing.length > 0) problems.push(`missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  if (problems.length > 0)
    return { error: `The header row (line 1) is not valid: ${problems.join('; ')}; ${expected}` };
  return { columns };
}

const numberOrText = (cell: string): number | string => parseNumberText(cell) ?? cell;

/** The fields of a row as POST /api/questions would receive them: blank cells are absent. */
export function rowFields(columns: HeaderColumns, cells: string[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  columns.forEach((column, i) => {
    const cell = (cells[i] ?? '').trim();
    if (column === null || cell === '') return;
    if (column === 'options') fields.options = cell.split(OPTION_SEPARATOR).map((o) => o.trim());
    else if (column === 'marks' || column === 'tolerance' || column === 'max_words')
      fields[column] = numberOrText(cell);
    else fields[column] = cell;
  });
  return fields;
}

export const rowError = (row: number, field: string, message: string): RowError => ({
  path: `row ${row}.${field}`,
  row,
  field,
  message,
});

function issueField(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return issue.keys[0] ?? 'row';
  const first = issue.path[0];
  return first === undefined ? 'row' : String(first);
}

const issueMessage = (issue: z.core.$ZodIssue): string => {
  const index = issue.path[1];
  return typeof index === 'number' && issue.path[0] === 'options'
    ? `option ${index + 1}: ${issue.message}`
    : issue.message;
};

export type RowResult =
  { ok: true; line: number; question: QuestionInput } | { ok: false; line: number; errors: RowError[] };

/** One data row (at `line` of the file), validated as a question. */
export function validateRow(line: number, columns: HeaderColumns, cells: string[]): RowResult {
  const result = QuestionInput.safeParse(rowFields(columns, cells));
  if (result.success) return { ok: true, line, question: result.data };
  return {
    ok: false,
    line,
    errors: result.error.issues.map((issue) => rowError(line, issueField(issue), issueMessage(issue))),
  };
}

/** The line a record starts on, from the line it ends on and its raw text (which may begin with skipped blank lines). */
export function recordStartLine(endLine: number, raw: string): number {
  const content = raw.replace(/^\n+/, '').replace(/\n$/, '');
  return endLine - (content.match(/\n/g)?.length ?? 0);
}
