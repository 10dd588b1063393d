import { z } from 'zod';
import { ClientId, MAX_ID_LENGTH, pagedQuery, Pagination } from '../shared';
import {
  Alternative,
  DIFFICULTIES,
  type Difficulty,
  FolderIdRef,
  HTML_INPUT_FACTOR,
  MAX_ALTERNATIVES,
  MAX_FEEDBACK,
  MAX_HTML_QUESTION_TEXT,
  MAX_OPTION_FEEDBACK,
  MAX_OPTION_LENGTH,
  MAX_OPTIONS,
  MAX_HOTTEXTS,
  MAX_MATCHING_OPTIONS,
  MAX_TITLE,
  QUESTION_TYPES,
  TYPED_CHANGES,
  TYPED_REPLY_FIELDS,
  QuestionInput,
  type QuestionExtras,
  type QuestionType,
  type QuestionTypeModule,
  questionTypeOf,
  storedText,
  TEXT_FORMATS,
  type TypedFields,
} from '../questionTypes';
import type { StoredQuestion } from './documents';

// Pure: what a question is, beside its type. Each type's schema lives in its
// questionTypes/ folder, joined there in the discriminated union on question_type
// that validates POST/PUT bodies, every CSV row of an import, and documents both in
// OpenAPI; this keeps what is not per type: ids, changes, replies and queries.

export {
  DIFFICULTIES,
  MAX_ESSAY_WORDS,
  QUESTION_TYPES,
  QuestionInput,
  TEXT_FORMATS,
  type Difficulty,
  type QuestionType,
} from '../questionTypes';

export const QuestionId = z
  .string()
  .min(1)
  .max(MAX_ID_LENGTH)
  .describe(`A question id, 1 to ${MAX_ID_LENGTH} characters`);

export const UpdateQuestionBody = z
  .strictObject({
    question_text: z
      .string()
      .max(MAX_HTML_QUESTION_TEXT * HTML_INPUT_FACTOR * 2)
      .optional(),
    question_type: z.enum(QUESTION_TYPES).optional(),
    options: z
      .array(z.string().max(MAX_OPTION_LENGTH * 2))
      .max(MAX_MATCHING_OPTIONS * 2)
      .optional(),
    correct_answer: z
      .string()
      .max(MAX_HOTTEXTS * (MAX_OPTION_LENGTH + 1))
      .optional(),
    tolerance: z.number().nullable().optional(),
    max_words: z.number().nullable().optional(),
    marks: z.number().optional(),
    difficulty: z.string().max(20).optional(),
    folder_id: FolderIdRef.nullable().optional(),
    title: z
      .string()
      .max(MAX_TITLE * 2)
      .nullable()
      .optional(),
    text_format: z.enum(TEXT_FORMATS).nullable().optional(),
    feedback: z
      .string()
      .max(MAX_FEEDBACK * HTML_INPUT_FACTOR * 2)
      .nullable()
      .optional(),
    option_feedback: z
      .array(z.string().max(MAX_OPTION_FEEDBACK * HTML_INPUT_FACTOR * 2))
      .max(MAX_OPTIONS * 2)
      .nullable()
      .optional(),
    option_credits: z
      .array(z.number())
      .max(MAX_OPTIONS * 2)
      .nullable()
      .optional(),
    alternatives: z
      .array(Alternative)
      .max(MAX_ALTERNATIVES * 2)
      .nullable()
      .optional(),
    case_sensitive: z.boolean().nullable().optional(),
    passage_id: z
      .string()
      .max(MAX_ID_LENGTH * 2)
      .nullable()
      .optional(),
    ...TYPED_CHANGES,
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'Send at least one field to change' })
  .meta({
    id: 'UpdateQuestion',
    description:
      'The fields to change; the question as changed must then be a valid question of its (possibly new) type, checked as PUT would. ' +
      "Changing question_type drops what the new type cannot have (options, tolerance, max_words, an essay's empty correct_answer or the " +
      'correct_answer of a question made an essay, option_feedback, option_credits, alternatives, case_sensitive) unless sent. ' +
      'Changing options keeps option_feedback and option_credits by position: send them too when the options change. ' +
      'Send folder_id, tolerance, max_words, title, text_format, feedback, option_feedback, option_credits, alternatives, case_sensitive or passage_id null to clear them.',
  });
export type QuestionChanges = z.infer<typeof UpdateQuestionBody>;

/** The optional fields of a question (QuestionExtras), in the order replies show them. */
export const EXTRA_FIELDS = [
  'title',
  'text_format',
  'feedback',
  'passage_id',
  'option_feedback',
  'option_credits',
  'alternatives',
  'case_sensitive',
  'stems',
  'matches',
  'ordering_score',
  'gaps',
  'drag_options',
  'drag_reusable',
  'max_choices',
  'variables',
  'choices',
  'tolerance_type',
  'image',
  'areas',
  'select',
  'max_points',
  'attachments',
  'attachments_required',
] as const satisfies ReadonlyArray<keyof QuestionExtras>;

/** The optional fields every type may have (but a description its passage_id). */
const COMMON_EXTRAS = ['title', 'text_format', 'feedback', 'passage_id'] as const;

/** The optional fields that belong to some types only: what a change of type drops unless sent. */
const TYPED_EXTRAS = EXTRA_FIELDS.filter(
  (field): field is Exclude<(typeof EXTRA_FIELDS)[number], (typeof COMMON_EXTRAS)[number]> =>
    !(COMMON_EXTRAS as readonly string[]).includes(field),
);

/** The question without its optional fields: what a replace starts from, so that fields not sent are cleared. */
export function withoutExtras<Q extends QuestionExtras>(q: Q): Omit<Q, keyof QuestionExtras> {
  const copy = { ...q } as Record<string, unknown>;
  for (const field of EXTRA_FIELDS) delete copy[field];
  return copy as Omit<Q, keyof QuestionExtras>;
}

/**
 * The optional fields as stored: only those set, defaults left out (plain text,
 * case folded, no feedback), HTML sanitized. Absent fields mean the old behaviour.
 */
function normalizeExtras(input: QuestionInput): QuestionExtras {
  const format = input.text_format === 'html' ? 'html' : 'plain';
  const extras: QuestionExtras = {};
  if (input.title) extras.title = input.title;
  if (format === 'html') extras.text_format = 'html';
  if (input.passage_id) extras.passage_id = input.passage_id;
  const feedback = input.feedback ? storedText(input.feedback, format) : '';
  if (feedback) extras.feedback = feedback;
  // Judged once sanitized: feedback that sanitizes to nothing everywhere is none.
  const optionFeedback =
    'option_feedback' in input ? (input.option_feedback ?? []).map((f) => (f ? storedText(f, format) : '')) : [];
  if (optionFeedback.some((f) => f.length > 0)) extras.option_feedback = optionFeedback;
  return { ...extras, ...questionTypeOf(input.question_type).normalizeExtras(input) };
}

/** The stored, normalized fields of a validated question: options and answers spelled as the options are. */
export function normalizeQuestion(input: QuestionInput): TypedFields<QuestionType> & QuestionExtras {
  const core = questionTypeOf(input.question_type).normalize(input) as TypedFields<QuestionType>;
  return { ...core, ...normalizeExtras(input) };
}

/** The question as its author wrote it (the input PUT would take): the base a PATCH is applied to. */
export function questionAsInput(q: StoredQuestion): Record<string, unknown> {
  const type = questionTypeOf(q.question_type);
  const input: Record<string, unknown> = {
    question_type: q.question_type,
    question_text: q.question_text,
    // A type that takes no options but stores some derives them (a hottext's phrases, from its text).
    ...(type.options !== 'none' || q.options.length === 0 ? { options: q.options } : {}),
    marks: q.marks,
    difficulty: q.difficulty,
    folder_id: q.folder_id,
  };
  for (const field of type.ownFields) if (q[field] !== null) input[field] = q[field];
  for (const field of EXTRA_FIELDS) if (q[field] !== undefined) input[field] = q[field];
  return type.inputWithKey(input, q.correct_answer);
}

/** The question an author means by these changes, as a PUT body: fields that no longer fit a changed type are dropped. */
export function applyChanges(current: StoredQuestion, changes: QuestionChanges): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...questionAsInput(current), ...changes };
  if (changes.question_type !== undefined && changes.question_type !== current.question_type)
    dropWhatDoesNotFit(merged, questionTypeOf(current.question_type), questionTypeOf(changes.question_type), changes);
  for (const field of ['tolerance', 'max_words', ...EXTRA_FIELDS]) if (merged[field] === null) delete merged[field];
  return merged;
}

/** What a question changed from type `was` to type `next` cannot keep, unless the changes send it. */
function dropWhatDoesNotFit(
  merged: Record<string, unknown>,
  was: QuestionTypeModule,
  next: QuestionTypeModule,
  changes: QuestionChanges,
): void {
  if (changes.options === undefined && next.options !== 'authored') delete merged.options;
  // A type graded by a person has no answer key, and its empty one is no answer key for another type.
  // A type graded by a person has no answer key, and its empty one is no answer key for another type;
  // a key derived from a type's own fields is no correct_answer for another.
  if (
    changes.correct_answer === undefined &&
    (next.marking === 'person' || was.marking === 'person' || next.derivesKey || was.derivesKey)
  )
    delete merged.correct_answer;
  // The fields a type derives its key from (a matching's matches, a calculated's formula) fit no other type.
  for (const field of Object.keys(was.inputWithKey({}, '[]')))
    if (field !== 'options' && changes[field as keyof QuestionChanges] === undefined) delete merged[field];
  if (changes.tolerance === undefined) delete merged.tolerance;
  if (changes.max_words === undefined) delete merged.max_words;
  // A question with no answer (a description) is a passage itself: it names none.
  if (changes.passage_id === undefined && next.marking === 'none') delete merged.passage_id;
  for (const field of TYPED_EXTRAS) {
    if (changes[field] !== undefined) continue;
    // A type with options of its own: feedback written for other options does not fit them.
    const fitsOptions = field !== 'option_feedback' || (next.options !== 'fixed' && was.options !== 'fixed');
    if (!next.extras.includes(field) || !fitsOptions) delete merged[field];
  }
}

// ---- replies

const questionFields = {
  id: z.string(),
  client_id: z.string(),
  folder_id: z.string().nullable(),
  title: z.string().optional().describe('Present when the question has one'),
  question_text: z.string().describe('HTML (sanitized) when text_format is html, else plain text'),
  text_format: z.enum(TEXT_FORMATS).optional().describe('Present when html; absent means plain'),
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
    feedback: z.string().optional().describe('General feedback (HTML when text_format is html); absent: none'),
    option_feedback: z
      .array(z.string())
      .optional()
      .describe('One per option, in the options’ order ("" for none); absent: none'),
    option_credits: z
      .array(z.number())
      .optional()
      .describe('multiple_select partial credit, one per option (−100 to 100); absent: all or nothing'),
    alternatives: z
      .array(Alternative)
      .optional()
      .describe('short_answer, numeric: further accepted answers; absent: none'),
    case_sensitive: z.boolean().optional().describe('short_answer: present (true) when compared case for case'),
    passage_id: z.string().optional().describe('The description shown beside it (a reading passage); absent: none'),
    ...TYPED_REPLY_FIELDS,
  })
  .meta({ id: 'Question' });
export type AdminQuestion = z.infer<typeof AdminQuestion>;

/** A stored question as an administrator's reply shows it: an essay's (empty) answer key is null. */
export const adminQuestion = (q: StoredQuestion): AdminQuestion => ({
  ...q,
  correct_answer: questionTypeOf(q.question_type).shownKey(q),
});

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
