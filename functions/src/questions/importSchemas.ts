import { z } from 'zod';
import { INTERCHANGE_FORMATS } from '../interchange';
import { ClientId } from '../shared';
import { FolderIdRef, QUESTION_TYPES } from '../questionTypes';

// The question import's query and report, apart from the question schemas: a cold instance
// loads those (scoring needs them) and none of the interchange formats this names.

export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 5_000;

export const ImportQuery = z.strictObject({
  client_id: ClientId.optional().describe('Required for a Super Admin; others may omit it (own organization)'),
  format: z
    .enum(INTERCHANGE_FORMATS)
    .optional()
    .describe(
      'The file’s format; absent: from its name (.csv, .gift, .txt = GIFT or Aiken by content, .xml = Moodle XML or QTI by root element, .zip = QTI package) or else its content',
    ),
  folder_id: FolderIdRef.optional().describe(
    'Files every question in this folder of the organization, instead of the folders named after the file’s categories',
  ),
  mode: z
    .enum(['all_or_nothing', 'partial'])
    .default('all_or_nothing')
    .describe('partial: write the valid rows and report the others'),
  dry_run: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe('true: validate only, write nothing'),
});

export const RowError = z
  .object({
    path: z.string().describe('"row <line>.<field>"'),
    row: z.number().int().describe('Line number in the file (the header is line 1)'),
    field: z.string().describe('Column, or "row" for the row as a whole'),
    message: z.string(),
  })
  .meta({ id: 'ImportRowError' });
export type RowError = z.infer<typeof RowError>;

export const ImportedQuestionReport = z
  .object({
    index: z.number().int().describe('1-based position among the questions found in the file'),
    line: z.number().int().optional().describe('GIFT, Aiken, CSV: the line the question starts on'),
    path: z.string().optional().describe('Moodle XML, QTI: where the question is (e.g. "question[3]", "items/q1.xml")'),
    title: z.string().nullable(),
    question_type: z.enum(QUESTION_TYPES).nullable().describe('The bank’s type it became, or null'),
    status: z
      .enum(['ok', 'error', 'unsupported'])
      .describe(
        'ok: imported (or would be); error: invalid, with message; unsupported: a type this bank does not have, named in message',
      ),
    message: z.string().nullable(),
    warnings: z.array(z.string()).describe('What was carried imperfectly (a weight rounded, a format flag ignored…)'),
  })
  .meta({ id: 'ImportedQuestion' });

export const ImportResult = z
  .object({
    import_id: z.string().nullable().describe('The import record (the file’s SHA-256); null for a dry run'),
    dry_run: z.boolean(),
    imported: z.number().int().describe('Questions written (for a dry run: that would be written)'),
    failed: z.number().int().describe('Rows refused'),
    errors: z.array(RowError),
    question_ids: z.array(z.string()).describe('Ids of the questions written, in file order; empty for a dry run'),
    questions: z.array(ImportedQuestionReport).describe('One entry per question (or CSV row) found, in file order'),
  })
  .meta({ id: 'QuestionImportResult' });
export type ImportResult = z.infer<typeof ImportResult>;
