import type { components } from '../api';
import { DEFINITIONS, TYPE_NAMES } from './definitions';

// Pure: the CSV import's columns as the page describes them, and the template it offers, with each
// type's example row from its definition. The service's own list (functions/src/questions/csvRows.ts)
// cannot be bundled into the web app, so test/web/csvTemplate.test.ts proves this header equals it
// and every example row passes its checks.

type Question = components['schemas']['Question'];

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
export const CSV_COLUMNS: readonly CsvColumn[] = [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS];

// Records keyed by the API's own unions: a value the service adds that is missing here is a type error.
const DIFFICULTIES: Record<Question['difficulty'], true> = { easy: true, medium: true, hard: true };
const TEXT_FORMATS: Record<NonNullable<Question['text_format']>, true> = { plain: true, html: true };

/** The types a CSV row can hold (their key fits its columns), in the pages' order. */
const CSV_TYPES = TYPE_NAMES.filter((type) => DEFINITIONS[type].csvExample !== null);
/** The types a CSV row cannot hold, by their names in the pages. */
const NOT_IN_CSV = TYPE_NAMES.filter((type) => DEFINITIONS[type].csvExample === null).map(
  (type) => DEFINITIONS[type].label,
);

/** The columns whose cells take one of a few words, and those words. */
export const CODED_VALUES: Partial<Record<CsvColumn, readonly string[]>> = {
  question_type: CSV_TYPES,
  difficulty: Object.keys(DIFFICULTIES),
  text_format: Object.keys(TEXT_FORMATS),
  case_sensitive: ['true', 'false'],
};

/** What each column holds, in a line. */
export const COLUMN_NOTES: Record<CsvColumn, string> = {
  question_text: 'The question as the student reads it',
  question_type: `One of the values listed (${NOT_IN_CSV.join(', ')}: not in a CSV row, import them as Moodle XML, GIFT or QTI)`,
  options: 'Multiple choice and select: the options separated by |; empty for the other types',
  correct_answer:
    'The correct option; for multiple select the correct options separated by |; True or False; the answer or the number; empty for an essay or a description; for a hottext the right phrases (marked [[like this]] in the text) separated by |',
  marks: 'A number greater than 0, at most 1000; empty for a description (it has no marks)',
  difficulty: 'One of the values listed',
  folder_id: 'The id of one of the organization’s folders; empty for none',
  tolerance: 'Numeric only: the accepted difference, such as 0.01',
  max_words: 'Essay only: the most words an answer may have, 1 to 10000; empty for no limit',
  title: 'A name for the bank, not shown to students',
  text_format: 'plain (the default) or html (sanitized)',
  feedback: 'General feedback, shown in the released review',
  option_feedback: 'One per option, separated by |',
  option_credits: 'Multiple select: a credit per option from -100 to 100, separated by |',
  alternatives: 'Other accepted answers as answer:credit, separated by | (numeric: answer:credit:tolerance)',
  case_sensitive: 'Short answer: true when case matters',
};

/**
 * The template's rows: the header with every column, and an example row of each question type. The
 * admin page writes them by the app's CSV rule (web/src/csv.ts), which a taker's page never loads.
 */
export function templateRows(): string[][] {
  const examples = CSV_TYPES.map((type) => DEFINITIONS[type].csvExample ?? {});
  return [[...CSV_COLUMNS], ...examples.map((row) => CSV_COLUMNS.map((c) => row[c] ?? ''))];
}
