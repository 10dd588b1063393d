import { z } from 'zod';
import { ClientId } from '../shared';
import { DIFFICULTIES, FolderIdRef, QUESTION_TYPES } from '../questionTypes';

// Pure: the export endpoints' queries.

export const EXPORT_FORMATS = ['moodle_xml', 'gift', 'qti'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** At most this many questions leave in one bank export. */
export const MAX_EXPORT_QUESTIONS = 5_000;

const format = z
  .enum(EXPORT_FORMATS)
  .describe('moodle_xml: a Moodle XML file; gift: a GIFT text file; qti: a QTI 3.0 content package (zip)');

export const ExportQuestionsQuery = z.strictObject({
  format,
  client_id: ClientId.optional().describe('Required for a Super Admin; others may omit it (own organization)'),
  folder_id: FolderIdRef.optional(),
  difficulty: z.enum(DIFFICULTIES).optional(),
  question_type: z.enum(QUESTION_TYPES).optional(),
});
export type ExportQuestionsQuery = z.infer<typeof ExportQuestionsQuery>;

export const ExportTestQuery = z.strictObject({ format });
