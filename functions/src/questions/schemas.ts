import { z } from 'zod';
import { ClientId, MAX_ID_LENGTH } from '../shared/ids';
import { parseNumberText } from '../shared/numberText';
import { pagedQuery, Pagination } from '../shared/pagination';
import type { StoredQuestion } from './documents';
import { INTERCHANGE_FORMATS } from '../interchange/model';

// Pure: what a question is. One zod schema per question type, joined in a
// discriminated union on question_type, validates POST/PUT bodies, every CSV
// row of an import, and documents both in OpenAPI.

export const QUESTION_TYPES = [
  'multiple_choice',
  'multiple_select',
  'true_false',
  'short_answer',
  'numeric',
  'essay',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const MAX_QUESTION_TEXT = 2_000;
export const MAX_OPTION_LENGTH = 500;
export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 10;
export const MAX_ANSWER_LENGTH = 500;
export const MAX_MARKS = 1_000;
export const MAX_TOLERANCE = 1e9;
/** The most an essay's max_words may be. */
export const MAX_ESSAY_WORDS = 10_000;
/** Options are joined by `|` in a CSV cell and in a multiple_select answer, so no option may contain it. */
export const OPTION_SEPARATOR = '|';
export const TRUE_FALSE_OPTIONS = ['True', 'False'] as const;

export const QuestionId = z
  .string()
  .min(1)
  .max(MAX_ID_LENGTH)
  .describe(`A question id, 1 to ${MAX_ID_LENGTH} characters`);
export const FolderIdRef = z.string().trim().min(1).max(MAX_ID_LENGTH).describe('A folder of the same organization');

/** How options and answers are compared: trimmed, spacing collapsed, case folded. */
export const comparable = (value: string): string => value.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

const questionText = z.string().trim().min(1).max(MAX_QUESTION_TEXT).describe(`1 to ${MAX_QUESTION_TEXT} characters`);
const option = z
  .string()
  .trim()
  .min(1, 'An option cannot be empty')
  .max(MAX_OPTION_LENGTH)
  .refine((o) => !o.includes(OPTION_SEPARATOR), `An option cannot contain "${OPTION_SEPARATOR}"`);
const marks = z.number().positive().max(MAX_MARKS).describe(`Greater than 0, at most ${MAX_MARKS}`);
const difficulty = z.enum(DIFFICULTIES);
const answer = z.string().trim().min(1).max(MAX_ANSWER_LENGTH);
const choiceOptions = z
  .array(option)
  .min(MIN_OPTIONS)
  .max(MAX_OPTIONS)
  .describe(
    `${MIN_OPTIONS} to ${MAX_OPTIONS} distinct options (compared trimmed and case-insensitively), each 1 to ${MAX_OPTION_LENGTH} characters without "|"`,
  );
const noOptions = z
  .array(z.string().max(MAX_OPTION_LENGTH))
  .max(0, 'This question type has no options')
  .optional()
  .describe('Absent or empty');

const common = {
  question_text: questionText,
  marks,
  difficulty,
  folder_id: FolderIdRef.nullable().optional(),
  client_id: ClientId.optional().describe(
    'The organization: required for a Super Admin creating a question, otherwise optional and must be the caller’s (never a CSV column)',
  ),
};

type Ctx = z.core.$RefinementCtx;

/** Unknown keys are refused; `tolerance` on a question that is not numeric, and `max_words` on one that is not an essay, are named as such. */
const refuseUnknownKeys = {
  error: (issue: z.core.$ZodRawIssue) => {
    if (issue.code !== 'unrecognized_keys') return undefined;
    const keys = issue.keys as string[];
    if (keys.includes('tolerance')) return 'tolerance is allowed only for numeric questions';
    if (keys.includes('max_words')) return 'max_words is allowed only for essays';
    return undefined;
  },
};

function checkDistinct(options: string[], ctx: Ctx): void {
  const seen = new Map<string, number>();
  options.forEach((o, i) => {
    const key = comparable(o);
    if (seen.has(key))
      ctx.addIssue({
        code: 'custom',
        path: ['options', i],
        message: `Duplicates option ${seen.get(key)! + 1} ("${o}")`,
      });
    else seen.set(key, i);
  });
}

const inOptions = (options: string[], value: string): boolean =>
  options.some((o) => comparable(o) === comparable(value));

export const MultipleChoiceInput = z
  .strictObject(
    {
      question_type: z.literal('multiple_choice'),
      ...common,
      options: choiceOptions,
      correct_answer: answer.describe('Exactly one of the options'),
    },
    refuseUnknownKeys,
  )
  .superRefine((q, ctx) => {
    checkDistinct(q.options, ctx);
    if (!inOptions(q.options, q.correct_answer))
      ctx.addIssue({ code: 'custom', path: ['correct_answer'], message: 'Must be one of the options' });
  })
  .meta({ id: 'MultipleChoiceQuestionInput', description: 'One correct option' });

export const MultipleSelectInput = z
  .strictObject(
    {
      question_type: z.literal('multiple_select'),
      ...common,
      options: choiceOptions,
      correct_answer: z
        .string()
        .trim()
        .min(1)
        .max(MAX_OPTIONS * (MAX_OPTION_LENGTH + 1))
        .describe('The correct options joined by "|" (one or more)'),
    },
    refuseUnknownKeys,
  )
  .superRefine((q, ctx) => {
    checkDistinct(q.options, ctx);
    const chosen = q.correct_answer.split(OPTION_SEPARATOR).map((a) => a.trim());
    const seen = new Set<string>();
    for (const a of chosen) {
      if (a.length === 0)
        ctx.addIssue({ code: 'custom', path: ['correct_answer'], message: 'Contains an empty choice' });
      else if (!inOptions(q.options, a))
        ctx.addIssue({ code: 'custom', path: ['correct_answer'], message: `"${a}" is not one of the options` });
      else if (seen.has(comparable(a)))
        ctx.addIssue({ code: 'custom', path: ['correct_answer'], message: `"${a}" is named twice` });
      seen.add(comparable(a));
    }
  })
  .meta({
    id: 'MultipleSelectQuestionInput',
    description: 'One or more correct options, joined by "|" in correct_answer',
  });

export const TrueFalseInput = z
  .strictObject(
    {
      question_type: z.literal('true_false'),
      ...common,
      options: z
        .array(z.string().max(MAX_OPTION_LENGTH))
        .max(2)
        .optional()
        .describe('Absent, or exactly ["True", "False"]'),
      correct_answer: answer.describe('"True" or "False" (any case)'),
    },
    refuseUnknownKeys,
  )
  .superRefine((q, ctx) => {
    const given = q.options;
    if (given && !(given.length === 2 && comparable(given[0]) === 'true' && comparable(given[1]) === 'false')) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'Must be exactly ["True", "False"] or absent' });
    }
    if (!['true', 'false'].includes(comparable(q.correct_answer))) {
      ctx.addIssue({ code: 'custom', path: ['correct_answer'], message: 'Must be "True" or "False"' });
    }
  })
  .meta({ id: 'TrueFalseQuestionInput', description: 'Options are always True, False' });

export const ShortAnswerInput = z
  .strictObject(
    {
      question_type: z.literal('short_answer'),
      ...common,
      options: noOptions,
      correct_answer: answer.describe(
        'Compared with a student answer trimmed, with spacing collapsed and case ignored',
      ),
    },
    refuseUnknownKeys,
  )
  .meta({ id: 'ShortAnswerQuestionInput', description: 'Free text, compared trimmed, case- and space-insensitively' });

export const NumericInput = z
  .strictObject(
    {
      question_type: z.literal('numeric'),
      ...common,
      options: noOptions,
      correct_answer: z
        .string()
        .trim()
        .min(1)
        .max(64)
        .describe('A finite number written as text, e.g. "3.14", "-2", "1e3"'),
      tolerance: z
        .number()
        .min(0)
        .max(MAX_TOLERANCE)
        .nullable()
        .optional()
        .describe(
          'Accepted absolute difference (default 0); numeric questions only. An answer is correct when |answer − correct_answer| ≤ tolerance + ' +
            '4 × 2^-52 × max(|answer|, |correct_answer|, tolerance): beyond the tolerance only the floating-point representation error of the ' +
            'parsed decimals is forgiven (about 9e-16 relative), so with tolerance 0, 4294967300 is wrong for 4294967296 and 1.1e-12 wrong for 1e-12.',
        ),
    },
    refuseUnknownKeys,
  )
  .superRefine((q, ctx) => {
    if (parseNumberText(q.correct_answer) === undefined) {
      ctx.addIssue({ code: 'custom', path: ['correct_answer'], message: 'Must be a finite number, e.g. "3.14"' });
    }
  })
  .meta({
    id: 'NumericQuestionInput',
    description: 'A number; a student answer within tolerance of correct_answer is correct',
  });

const ESSAY_HAS_NO_ANSWER = 'An essay has no correct_answer; it is graded by a person';

export const EssayInput = z
  .strictObject(
    {
      question_type: z.literal('essay'),
      ...common,
      options: noOptions,
      correct_answer: z
        .string()
        .refine((a) => a.trim() === '', ESSAY_HAS_NO_ANSWER)
        .optional()
        .describe('Absent or empty: an essay is graded by a person'),
      max_words: z
        .number()
        .int()
        .min(1)
        .max(MAX_ESSAY_WORDS)
        .nullable()
        .optional()
        .describe(
          `Essays only: the most words an answer may have, 1 to ${MAX_ESSAY_WORDS} (absent or null: no limit beyond the answer's 10,000 characters)`,
        ),
    },
    refuseUnknownKeys,
  )
  .meta({
    id: 'EssayQuestionInput',
    description: 'A free-text answer (up to 10,000 characters) graded by a person: no options, no correct_answer',
  });

/** The body of POST and PUT /api/questions, and the contents of one CSV row. */
export const QuestionInput = z
  .discriminatedUnion(
    'question_type',
    [MultipleChoiceInput, MultipleSelectInput, TrueFalseInput, ShortAnswerInput, NumericInput, EssayInput],
    {
      error: (issue) =>
        issue.code === 'invalid_union' ? `question_type must be one of ${QUESTION_TYPES.join(', ')}` : undefined,
    },
  )
  .meta({ id: 'QuestionInput' });
export type QuestionInput = z.infer<typeof QuestionInput>;

export const UpdateQuestionBody = z
  .strictObject({
    question_text: z
      .string()
      .max(MAX_QUESTION_TEXT * 2)
      .optional(),
    question_type: z.enum(QUESTION_TYPES).optional(),
    options: z
      .array(z.string().max(MAX_OPTION_LENGTH * 2))
      .max(MAX_OPTIONS * 2)
      .optional(),
    correct_answer: z
      .string()
      .max(MAX_OPTIONS * (MAX_OPTION_LENGTH + 1))
      .optional(),
    tolerance: z.number().nullable().optional(),
    max_words: z.number().nullable().optional(),
    marks: z.number().optional(),
    difficulty: z.string().max(20).optional(),
    folder_id: FolderIdRef.nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'Send at least one field to change' })
  .meta({
    id: 'UpdateQuestion',
    description:
      'The fields to change; the question as changed must then be a valid question of its (possibly new) type, checked as PUT would. ' +
      "Changing question_type drops what the new type cannot have (options, tolerance, max_words, and an essay's empty correct_answer or the " +
      'correct_answer of a question made an essay) unless sent. ' +
      'Send folder_id, tolerance or max_words null to clear them.',
  });
export type QuestionChanges = z.infer<typeof UpdateQuestionBody>;

/** The stored, normalized fields of a validated question: options and answers spelled as the options are. */
export function normalizeQuestion(
  input: QuestionInput,
): Pick<
  StoredQuestion,
  'question_text' | 'question_type' | 'options' | 'correct_answer' | 'tolerance' | 'max_words' | 'marks' | 'difficulty'
> {
  const base = {
    question_text: input.question_text,
    marks: input.marks,
    difficulty: input.difficulty,
    max_words: null,
  };
  const spelledAsOption = (options: string[], value: string) =>
    options.find((o) => comparable(o) === comparable(value)) ?? value.trim();
  switch (input.question_type) {
    case 'multiple_choice':
      return {
        ...base,
        question_type: input.question_type,
        options: input.options,
        correct_answer: spelledAsOption(input.options, input.correct_answer),
        tolerance: null,
      };
    case 'multiple_select': {
      const chosen = new Set(input.correct_answer.split(OPTION_SEPARATOR).map((a) => comparable(a)));
      const correct = input.options.filter((o) => chosen.has(comparable(o))).join(OPTION_SEPARATOR);
      return {
        ...base,
        question_type: input.question_type,
        options: input.options,
        correct_answer: correct,
        tolerance: null,
      };
    }
    case 'true_false':
      return {
        ...base,
        question_type: input.question_type,
        options: [...TRUE_FALSE_OPTIONS],
        correct_answer: comparable(input.correct_answer) === 'true' ? 'True' : 'False',
        tolerance: null,
      };
    case 'short_answer':
      return {
        ...base,
        question_type: input.question_type,
        options: [],
        correct_answer: input.correct_answer,
        tolerance: null,
      };
    case 'numeric':
      return {
        ...base,
        question_type: input.question_type,
        options: [],
        correct_answer: input.correct_answer.trim(),
        tolerance: input.tolerance ?? null,
      };
    case 'essay':
      // Stored as an empty string (every stored question has a string key); replies say null.
      return {
        ...base,
        question_type: input.question_type,
        options: [],
        correct_answer: '',
        tolerance: null,
        max_words: input.max_words ?? null,
      };
  }
}

/** The question as its author wrote it (the input PUT would take): the base a PATCH is applied to. */
export function questionAsInput(q: StoredQuestion): Record<string, unknown> {
  const input: Record<string, unknown> = {
    question_type: q.question_type,
    question_text: q.question_text,
    options: q.options,
    correct_answer: q.correct_answer,
    marks: q.marks,
    difficulty: q.difficulty,
    folder_id: q.folder_id,
  };
  if (q.question_type === 'numeric' && q.tolerance !== null) input.tolerance = q.tolerance;
  if (q.question_type === 'essay' && q.max_words !== null) input.max_words = q.max_words;
  return input;
}

/** The question an author means by these changes, as a PUT body: fields that no longer fit a changed type are dropped. */
export function applyChanges(current: StoredQuestion, changes: QuestionChanges): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...questionAsInput(current), ...changes };
  const typeChanged = changes.question_type !== undefined && changes.question_type !== current.question_type;
  if (typeChanged && changes.options === undefined) {
    if (['true_false', 'short_answer', 'numeric', 'essay'].includes(changes.question_type!)) delete merged.options;
  }
  // An essay has no answer key, and an essay's empty one is no answer key for another type.
  if (
    typeChanged &&
    changes.correct_answer === undefined &&
    (changes.question_type === 'essay' || current.question_type === 'essay')
  )
    delete merged.correct_answer;
  if (typeChanged && changes.tolerance === undefined) delete merged.tolerance;
  if (typeChanged && changes.max_words === undefined) delete merged.max_words;
  if (merged.tolerance === null) delete merged.tolerance;
  if (merged.max_words === null) delete merged.max_words;
  return merged;
}

// ---- replies

const questionFields = {
  id: z.string(),
  client_id: z.string(),
  folder_id: z.string().nullable(),
  question_text: z.string(),
  question_type: z.enum(QUESTION_TYPES),
  options: z.array(z.string()),
  marks: z.number(),
  difficulty: z.enum(DIFFICULTIES),
  max_words: z
    .number()
    .int()
    .nullable()
    .describe('essay only: the most words an answer may have (null: no limit); null for every other type'),
  created_at: z.string().describe('ISO 8601 UTC'),
  updated_at: z.string().describe('ISO 8601 UTC'),
};

/** A question with its answer key: only administrators' replies use this. */
export const AdminQuestion = z
  .object({
    ...questionFields,
    correct_answer: z
      .string()
      .nullable()
      .describe(
        'multiple_select: the correct options joined by "|"; numeric: a number as text; essay: null (graded by a person)',
      ),
    tolerance: z.number().nullable().describe('numeric only; null otherwise'),
  })
  .meta({ id: 'Question' });
export type AdminQuestion = z.infer<typeof AdminQuestion>;

/** A stored question as an administrator's reply shows it: an essay's (empty) answer key is null. */
export const adminQuestion = (q: StoredQuestion): AdminQuestion =>
  q.question_type === 'essay' ? { ...q, correct_answer: null } : q;

/** A question as a Student or Guest may see it: no answer key can pass through this schema. */
export const PublicQuestion = z.object(questionFields).meta({ id: 'PublicQuestion' });

export const QuestionParams = z.strictObject({ questionId: QuestionId });

export const ListQuestionsQuery = pagedQuery({
  client_id: ClientId.optional().describe('Required for a Super Admin; others may omit it (own organization)'),
  folder_id: FolderIdRef.optional(),
  difficulty: z.enum(DIFFICULTIES).optional(),
  question_type: z.enum(QUESTION_TYPES).optional(),
});
export type QuestionFilters = { folder_id?: string; difficulty?: Difficulty; question_type?: QuestionType };

export const QuestionPage = z
  .object({ data: z.array(AdminQuestion), pagination: Pagination })
  .meta({ id: 'QuestionPage' });

// ---- CSV import

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
