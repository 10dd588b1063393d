import { type ApiError, badRequest, conflict } from '../shared';
import type { ImportEntry } from './bankEntries';
import type { ImportRecord } from './documents';
import { MAX_IMPORT_ROWS, type ImportResult, type RowError } from './importSchemas';
import type { QuestionInput } from './schemas';
import { uploadError } from '../transfer';

// Pure: what an upload writes, given what its file was read into, the mode
// and the dry run. No Firebase import: importService.ts reads and writes, this
// decides.

export type ImportMode = 'all_or_nothing' | 'partial';

/** An entry the import can write: its question passed validation. */
export type ValidEntry = ImportEntry & { question: QuestionInput };

/** What the decision was given besides the entries. */
export interface ImportCase {
  /** A CSV file (rows) rather than a bank file (questions): only the messages differ. */
  csv: boolean;
  mode: ImportMode;
  dryRun: boolean;
  /**
   * The import record of this file, if any (read for a dry run only: a real
   * import's claim checks it in its transaction).
   */
  earlier: ImportRecord | undefined;
}

/** What a real import writes: the valid entries, in file order, beside the report it answers with. */
export interface ImportWrite {
  valid: ValidEntry[];
  failed: number;
  errors: RowError[];
  report: ImportResult['questions'];
}

export type ImportDecision = { refusal: ApiError } | { dryRun: ImportResult } | { write: ImportWrite };

const alreadyImported = (record: ImportRecord) =>
  conflict(
    `This file was already imported (import ${record.id}, ${record.imported} questions, ${record.completed_at ?? record.created_at}); ` +
      'change the file to import its questions again',
  );
const inProgress = (record: ImportRecord) =>
  conflict(`An import of this file is in progress (import ${record.id}); retry in a few minutes`);

/** 409 when this file was imported before, or is being imported now; undefined when it never was. */
export function earlierImportRefusal(record: ImportRecord | undefined): ApiError | undefined {
  if (!record) return undefined;
  return record.status === 'complete' ? alreadyImported(record) : inProgress(record);
}

/** 400 when a bank file holds no questions, or more than an import takes. */
export function bankSizeRefusal(questions: number): ApiError | undefined {
  if (questions > MAX_IMPORT_ROWS)
    return uploadError(
      `The file has ${questions} questions, more than ${MAX_IMPORT_ROWS}; split it into smaller files`,
    );
  if (questions === 0) return uploadError('The file holds no questions');
  return undefined;
}

/**
 * 400 for the file as a whole. Beside the details, the per-question report of
 * every question found, in file order, ok or not, as the 201 has it: a teacher
 * sees the whole file before choosing partial.
 */
const refusedImport = (message: string, entries: readonly ImportEntry[]) =>
  badRequest(
    message,
    entries.flatMap((e) => e.errors),
    { questions: entries.map((e) => e.report) },
  );

const someInvalid = (failed: number, total: number, csv: boolean) =>
  csv
    ? `${failed} of ${total} rows are invalid; nothing was imported (send ?mode=partial to import the valid rows)`
    : `${failed} of ${total} questions cannot be imported; nothing was imported (send ?mode=partial to import the others)`;

const noneValid = (total: number, csv: boolean) =>
  csv
    ? `None of the ${total} rows is valid; nothing was imported`
    : `None of the ${total} questions can be imported; nothing was imported`;

/**
 * The import's decision, in the order its refusals are owed: an entry failed
 * under all-or-nothing, nothing valid at all, (a dry run) the file imported
 * before or being imported; then a dry run answers what would be written, a
 * real import writes the valid entries.
 */
export function decideImport(entries: readonly ImportEntry[], given: ImportCase): ImportDecision {
  const failedEntries = entries.filter((e) => e.report.status !== 'ok');
  const failed = failedEntries.length;
  const valid = entries.filter((e): e is ValidEntry => e.question !== undefined);
  if (failed > 0 && given.mode === 'all_or_nothing')
    return { refusal: refusedImport(someInvalid(failed, entries.length, given.csv), entries) };
  if (valid.length === 0) return { refusal: refusedImport(noneValid(entries.length, given.csv), entries) };
  const errors = failedEntries.flatMap((e) => e.errors);
  const report = entries.map((e) => e.report);
  if (!given.dryRun) return { write: { valid, failed, errors, report } };
  const earlier = earlierImportRefusal(given.earlier);
  if (earlier) return { refusal: earlier };
  return {
    dryRun: {
      import_id: null,
      dry_run: true,
      imported: valid.length,
      failed,
      errors,
      question_ids: [],
      questions: report,
    },
  };
}
