import type { z } from 'zod';
import { parseNumberText } from '../shared';
import type { RowError } from './importSchemas';
import { isQuestionType, OPTION_SEPARATOR, QuestionInput, questionTypeOf } from '../questionTypes';

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
export const OPTIONAL_COLUMNS = [
  'folder_id',
  'tolerance',
  'max_words',
  'title',
  'text_format',
  'feedback',
  'option_feedback',
  'option_credits',
  'alternatives',
  'case_sensitive',
] as const;
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
const booleanOrText = (cell: string): boolean | string =>
  cell.toLowerCase() === 'true' ? true : cell.toLowerCase() === 'false' ? false : cell;

/** Where an `alternatives` entry's answer ends: `answer:credit`, or `answer:credit:tolerance` for a numeric key (the answer may hold ":"). */
const ALTERNATIVE = /^(.*):([^:]*)$/s;
const NUMERIC_ALTERNATIVE = /^(.*):([^:]*):([^:]*)$/s;

/**
 * An `alternatives` cell: entries separated by "|", each `answer:credit`
 * (a numeric key's: `answer:credit` or `answer:credit:tolerance`), the answer split off
 * at the last colons so it may itself contain ":". An entry of another shape is
 * kept as text, for the schema to name.
 */
export function parseAlternatives(cell: string, numeric: boolean): unknown[] {
  return cell.split(OPTION_SEPARATOR).map((raw) => {
    const entry = raw.trim();
    const withTolerance = numeric ? NUMERIC_ALTERNATIVE.exec(entry) : null;
    if (
      withTolerance &&
      parseNumberText(withTolerance[3]) !== undefined &&
      parseNumberText(withTolerance[2]) !== undefined
    )
      return {
        answer: withTolerance[1].trim(),
        credit: numberOrText(withTolerance[2].trim()),
        tolerance: numberOrText(withTolerance[3].trim()),
      };
    const plain = ALTERNATIVE.exec(entry);
    return plain ? { answer: plain[1].trim(), credit: numberOrText(plain[2].trim()) } : entry;
  });
}

/** The fields of a row as POST /api/questions would receive them: blank cells are absent. */
export function rowFields(columns: HeaderColumns, cells: string[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  columns.forEach((column, i) => {
    const cell = (cells[i] ?? '').trim();
    if (column === null || cell === '') return;
    if (column === 'options') fields.options = cell.split(OPTION_SEPARATOR).map((o) => o.trim());
    else if (column === 'option_feedback') fields.option_feedback = cell.split(OPTION_SEPARATOR).map((f) => f.trim());
    else if (column === 'option_credits')
      fields.option_credits = cell.split(OPTION_SEPARATOR).map((c) => numberOrText(c.trim()));
    else if (column === 'case_sensitive') fields.case_sensitive = booleanOrText(cell);
    else if (column === 'marks' || column === 'tolerance' || column === 'max_words')
      fields[column] = numberOrText(cell);
    else fields[column] = cell;
  });
  if (typeof fields.alternatives === 'string')
    fields.alternatives = parseAlternatives(
      fields.alternatives,
      isQuestionType(fields.question_type) && questionTypeOf(fields.question_type).numericKey,
    );
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
  if (typeof index !== 'number') return issue.message;
  if (issue.path[0] === 'options') return `option ${index + 1}: ${issue.message}`;
  const part = issue.path.length > 2 ? ` ${String(issue.path[2])}` : '';
  return `entry ${index + 1}${part}: ${issue.message}`;
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
