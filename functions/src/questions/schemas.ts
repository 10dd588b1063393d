import { z } from 'zod';
import { ClientId, MAX_ID_LENGTH, pagedQuery, Pagination, parseNumberText } from '../shared';
import type { QuestionExtras, StoredQuestion } from './documents';
import { isBlankHtml, sanitizeQuestionHtml, unresolvedMedia } from './html';

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
/** An HTML question text as stored (sanitized); the HTML sent may be longer (styles and the like are stripped). */
export const MAX_HTML_QUESTION_TEXT = 20_000;
/** What an HTML text may be before sanitizing, as a multiple of its stored limit. */
export const HTML_INPUT_FACTOR = 2.5;
export const MAX_TITLE = 255;
export const MAX_FEEDBACK = 5_000;
export const MAX_OPTION_FEEDBACK = 1_000;
export const MAX_ALTERNATIVES = 20;
export const TEXT_FORMATS = ['plain', 'html'] as const;
export type TextFormat = (typeof TEXT_FORMATS)[number];
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

/** How a case-sensitive short answer is compared: trimmed, spacing collapsed, case kept. */
export const exactComparable = (value: string): string => value.normalize('NFKC').trim().replace(/\s+/g, ' ');
/** How options and answers are compared: trimmed, spacing collapsed, case folded. */
export const comparable = (value: string): string => exactComparable(value).toLowerCase();

const questionText = z
  .string()
  .trim()
  .min(1)
  .max(MAX_HTML_QUESTION_TEXT * HTML_INPUT_FACTOR)
  .describe(
    `plain: 1 to ${MAX_QUESTION_TEXT} characters. html: sanitized on write to an allow-list (p, br, b, i, em, strong, u, sub, sup, ul, ol, li, span, div, ` +
      'table, thead, tbody, tr, th, td, pre, code, blockquote, h1–h6, a href (http, https, mailto, or exactly /api/media/{mediaId}; rel and target set by the service), ' +
      'img src alt width height, audio src controls, source src type; media sources /api/media/{mediaId} or http(s) URLs; no style, ' +
      `no event handlers, no script, iframe, svg, object or data: URLs), at most ${MAX_HTML_QUESTION_TEXT} characters once sanitized ` +
      `(${MAX_HTML_QUESTION_TEXT * HTML_INPUT_FACTOR} as sent), and not blank once sanitized`,
  );
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

/** Up to 5 decimals, as Moodle's fractions are (0.33333 × 100): checked with room for binary float error. */
const fiveDecimals = (n: number) => Math.abs(n * 1e5 - Math.round(n * 1e5)) < 1e-6;
const credit = (min: number) =>
  z
    .number()
    .min(min)
    .max(100)
    .refine(fiveDecimals, 'At most 5 decimals')
    .describe(`${min} to 100 (a share of the marks in %), up to 5 decimals`);

const optionalText = (limit: number, what: string) =>
  z
    .string()
    .trim()
    .max(limit * HTML_INPUT_FACTOR)
    .describe(
      `${what}: at most ${limit} characters (html: sanitized as question_text is, at most ${limit} once sanitized); "" is none`,
    );

/** Fields every type may have. */
const extras = {
  title: z
    .string()
    .trim()
    .max(MAX_TITLE)
    .nullable()
    .optional()
    .describe(`A short name for the question, at most ${MAX_TITLE} characters (null, absent or "": none)`),
  text_format: z
    .enum(TEXT_FORMATS)
    .nullable()
    .optional()
    .describe(
      'plain (the default): question_text and feedback are shown as written. html: they are HTML, sanitized on write (see question_text); options stay plain text',
    ),
  feedback: optionalText(MAX_FEEDBACK, 'General feedback, shown to takers only in a released review')
    .nullable()
    .optional(),
};

const optionFeedback = z
  .array(
    z
      .string()
      .trim()
      .max(MAX_OPTION_FEEDBACK * HTML_INPUT_FACTOR),
  )
  .max(MAX_OPTIONS)
  .nullable()
  .optional()
  .describe(
    `One per option, in the options' order ("" where an option has none), each at most ${MAX_OPTION_FEEDBACK} characters (html as question_text is when text_format is html); shown to takers only in a released review`,
  );

const Alternative = z
  .strictObject({
    answer: z.string().trim().min(1).max(MAX_ANSWER_LENGTH),
    credit: credit(0),
    tolerance: z
      .number()
      .min(0)
      .max(MAX_TOLERANCE)
      .optional()
      .describe('numeric only: its own accepted difference (absent: 0)'),
  })
  .meta({ id: 'AlternativeAnswer', description: 'A further accepted answer and the share of the marks it earns' });
export type Alternative = z.infer<typeof Alternative>;

const alternatives = z
  .array(Alternative)
  .max(MAX_ALTERNATIVES)
  .nullable()
  .optional()
  .describe(
    `Up to ${MAX_ALTERNATIVES} further accepted answers. An answer matching correct_answer earns the marks; otherwise the best matching alternative earns credit % of them ` +
      '(an answer earning some credit never costs negative marks; one earning none is wrong)',
  );

/** Unknown keys are refused; `tolerance` on a question that is not numeric, and `max_words` on one that is not an essay, are named as such. */
const refuseUnknownKeys = {
  error: (issue: z.core.$ZodRawIssue) => {
    if (issue.code !== 'unrecognized_keys') return undefined;
    const keys = issue.keys as string[];
    if (keys.includes('tolerance')) return 'tolerance is allowed only for numeric questions';
    if (keys.includes('max_words')) return 'max_words is allowed only for essays';
    if (keys.includes('option_credits')) return 'option_credits is allowed only for multiple_select questions';
    if (keys.includes('alternatives')) return 'alternatives is allowed only for short_answer and numeric questions';
    if (keys.includes('case_sensitive')) return 'case_sensitive is allowed only for short_answer questions';
    if (keys.includes('option_feedback'))
      return 'option_feedback is allowed only for questions with options (multiple_choice, multiple_select, true_false)';
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

/** The text as stored: HTML sanitized, plain text as sent (the schema trimmed it). */
export const storedText = (text: string, format: TextFormat | null | undefined): string =>
  format === 'html' ? sanitizeQuestionHtml(text).html : text;

type TextFields = {
  question_text: string;
  text_format?: TextFormat | null;
  feedback?: string | null;
  option_feedback?: string[] | null;
};

/** question_text, feedback and option_feedback checked as they will be stored: HTML once sanitized. */
function checkTexts(q: TextFields, ctx: Ctx, optionCount?: number): void {
  const html = q.text_format === 'html';
  const check = (text: string, limit: number, path: Array<string | number>, mustShow: boolean) => {
    if (!html) {
      if (text.length > limit)
        ctx.addIssue({ code: 'custom', path, message: `At most ${limit} characters (it has ${text.length})` });
      return;
    }
    const unresolved = unresolvedMedia(text);
    if (unresolved.length > 0)
      ctx.addIssue({
        code: 'custom',
        path,
        message: `Refers to ${unresolved.join(', ')}: a media file that was not stored (sources must be /api/media/{mediaId} or http(s) URLs)`,
      });
    const clean = sanitizeQuestionHtml(text).html;
    if (clean.length > limit)
      ctx.addIssue({
        code: 'custom',
        path,
        message: `At most ${limit} characters once sanitized (it has ${clean.length})`,
      });
    if (mustShow && isBlankHtml(clean))
      ctx.addIssue({ code: 'custom', path, message: 'Shows nothing once sanitized (no text, image or sound is left)' });
  };
  check(q.question_text, html ? MAX_HTML_QUESTION_TEXT : MAX_QUESTION_TEXT, ['question_text'], true);
  if (q.feedback) check(q.feedback, MAX_FEEDBACK, ['feedback'], false);
  if (q.option_feedback) {
    if (optionCount !== undefined && q.option_feedback.length !== optionCount)
      ctx.addIssue({
        code: 'custom',
        path: ['option_feedback'],
        message: `Must have one entry per option (${optionCount}), "" where an option has none; it has ${q.option_feedback.length}`,
      });
    q.option_feedback.forEach((text, i) => {
      if (text) check(text, MAX_OPTION_FEEDBACK, ['option_feedback', i], false);
    });
  }
}

/** option_credits: one per option, at least one positive, and correct_answer naming exactly the positive ones. */
function checkCredits(q: { options: string[]; correct_answer: string; option_credits?: number[] | null }, ctx: Ctx) {
  const credits = q.option_credits;
  if (!credits) return;
  if (credits.length !== q.options.length) {
    ctx.addIssue({
      code: 'custom',
      path: ['option_credits'],
      message: `Must have one credit per option (${q.options.length}); it has ${credits.length}`,
    });
    return;
  }
  if (!credits.some((c) => c > 0)) {
    ctx.addIssue({
      code: 'custom',
      path: ['option_credits'],
      message: 'At least one option must have a positive credit',
    });
    return;
  }
  const positive = q.options.filter((_, i) => credits[i] > 0);
  const named = new Set(q.correct_answer.split(OPTION_SEPARATOR).map(comparable));
  if (named.size !== positive.length || !positive.every((o) => named.has(comparable(o))))
    ctx.addIssue({
      code: 'custom',
      path: ['correct_answer'],
      message: `With option_credits, must name exactly the options with a positive credit: "${positive.join(OPTION_SEPARATOR)}"`,
    });
}

function checkAlternatives(alternatives: Alternative[] | null | undefined, numeric: boolean, ctx: Ctx): void {
  (alternatives ?? []).forEach((alternative, i) => {
    if (numeric && parseNumberText(alternative.answer) === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['alternatives', i, 'answer'],
        message: 'Must be a finite number, e.g. "3.14"',
      });
    if (!numeric && alternative.tolerance !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['alternatives', i, 'tolerance'],
        message: 'tolerance is allowed only for numeric questions',
      });
  });
}

const inOptions = (options: string[], value: string): boolean =>
  options.some((o) => comparable(o) === comparable(value));

export const MultipleChoiceInput = z
  .strictObject(
    {
      question_type: z.literal('multiple_choice'),
      ...common,
      ...extras,
      options: choiceOptions,
      correct_answer: answer.describe('Exactly one of the options'),
      option_feedback: optionFeedback,
    },
    refuseUnknownKeys,
  )
  .superRefine((q, ctx) => {
    checkTexts(q, ctx, q.options.length);
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
      ...extras,
      options: choiceOptions,
      option_feedback: optionFeedback,
      option_credits: z
        .array(credit(-100))
        .max(MAX_OPTIONS)
        .nullable()
        .optional()
        .describe(
          'Partial credit: one per option, −100 to 100 (up to 5 decimals), at least one positive; correct_answer must name exactly the positive ones. ' +
            'An answer then earns Σ credits of the options chosen / 100 × marks, clamped to 0..marks, instead of all or nothing and instead of negative marking',
        ),
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
    checkTexts(q, ctx, q.options.length);
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
    checkCredits(q, ctx);
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
      ...extras,
      option_feedback: optionFeedback,
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
    checkTexts(q, ctx, TRUE_FALSE_OPTIONS.length);
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
      ...extras,
      options: noOptions,
      correct_answer: answer.describe(
        'Compared with a student answer trimmed, with spacing collapsed and case ignored (case kept when case_sensitive)',
      ),
      alternatives,
      case_sensitive: z
        .boolean()
        .nullable()
        .optional()
        .describe(
          'true: the answer must match correct_answer (or an alternative) case for case, still trimmed and with spacing collapsed (default false)',
        ),
    },
    refuseUnknownKeys,
  )
  .superRefine((q, ctx) => {
    checkTexts(q, ctx);
    checkAlternatives(q.alternatives, false, ctx);
  })
  .meta({ id: 'ShortAnswerQuestionInput', description: 'Free text, compared trimmed, case- and space-insensitively' });

export const NumericInput = z
  .strictObject(
    {
      question_type: z.literal('numeric'),
      ...common,
      ...extras,
      options: noOptions,
      alternatives,
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
    checkTexts(q, ctx);
    if (parseNumberText(q.correct_answer) === undefined) {
      ctx.addIssue({ code: 'custom', path: ['correct_answer'], message: 'Must be a finite number, e.g. "3.14"' });
    }
    checkAlternatives(q.alternatives, true, ctx);
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
      ...extras,
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
  .superRefine((q, ctx) => checkTexts(q, ctx))
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
      .max(MAX_HTML_QUESTION_TEXT * HTML_INPUT_FACTOR * 2)
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
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'Send at least one field to change' })
  .meta({
    id: 'UpdateQuestion',
    description:
      'The fields to change; the question as changed must then be a valid question of its (possibly new) type, checked as PUT would. ' +
      "Changing question_type drops what the new type cannot have (options, tolerance, max_words, an essay's empty correct_answer or the " +
      'correct_answer of a question made an essay, option_feedback, option_credits, alternatives, case_sensitive) unless sent. ' +
      'Changing options keeps option_feedback and option_credits by position: send them too when the options change. ' +
      'Send folder_id, tolerance, max_words, title, text_format, feedback, option_feedback, option_credits, alternatives or case_sensitive null to clear them.',
  });
export type QuestionChanges = z.infer<typeof UpdateQuestionBody>;

/** The optional fields of a question (QuestionExtras), in the order replies show them. */
export const EXTRA_FIELDS = [
  'title',
  'text_format',
  'feedback',
  'option_feedback',
  'option_credits',
  'alternatives',
  'case_sensitive',
] as const satisfies ReadonlyArray<keyof QuestionExtras>;

/** The extras a question type may have beyond those of every type. */
const TYPE_EXTRAS: Record<QuestionType, ReadonlyArray<keyof QuestionExtras>> = {
  multiple_choice: ['option_feedback'],
  multiple_select: ['option_feedback', 'option_credits'],
  true_false: ['option_feedback'],
  short_answer: ['alternatives', 'case_sensitive'],
  numeric: ['alternatives'],
  essay: [],
};

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
  const feedback = input.feedback ? storedText(input.feedback, format) : '';
  if (feedback) extras.feedback = feedback;
  // Judged once sanitized: feedback that sanitizes to nothing everywhere is none.
  const optionFeedback =
    'option_feedback' in input ? (input.option_feedback ?? []).map((f) => (f ? storedText(f, format) : '')) : [];
  if (optionFeedback.some((f) => f.length > 0)) extras.option_feedback = optionFeedback;
  if (input.question_type === 'multiple_select' && input.option_credits) extras.option_credits = input.option_credits;
  if ((input.question_type === 'short_answer' || input.question_type === 'numeric') && input.alternatives?.length) {
    const numeric = input.question_type === 'numeric';
    extras.alternatives = input.alternatives.map((a) => ({
      answer: a.answer,
      credit: a.credit,
      ...(numeric && a.tolerance ? { tolerance: a.tolerance } : {}),
    }));
  }
  if (input.question_type === 'short_answer' && input.case_sensitive === true) extras.case_sensitive = true;
  return extras;
}

/** The stored, normalized fields of a validated question: options and answers spelled as the options are. */
export function normalizeQuestion(
  input: QuestionInput,
): Pick<
  StoredQuestion,
  'question_text' | 'question_type' | 'options' | 'correct_answer' | 'tolerance' | 'max_words' | 'marks' | 'difficulty'
> &
  QuestionExtras {
  return { ...normalizeCore(input), ...normalizeExtras(input) };
}

function normalizeCore(
  input: QuestionInput,
): Pick<
  StoredQuestion,
  'question_text' | 'question_type' | 'options' | 'correct_answer' | 'tolerance' | 'max_words' | 'marks' | 'difficulty'
> {
  const base = {
    question_text: storedText(input.question_text, input.text_format),
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
  for (const field of EXTRA_FIELDS) if (q[field] !== undefined) input[field] = q[field];
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
  if (typeChanged) {
    const next = changes.question_type!;
    for (const field of ['option_feedback', 'option_credits', 'alternatives', 'case_sensitive'] as const) {
      if (changes[field] !== undefined) continue;
      // True/false has options of its own: feedback written for other options does not fit them.
      const fitsOptions =
        field !== 'option_feedback' || (next !== 'true_false' && current.question_type !== 'true_false');
      if (!TYPE_EXTRAS[next].includes(field) || !fitsOptions) delete merged[field];
    }
  }
  for (const field of ['tolerance', 'max_words', ...EXTRA_FIELDS]) if (merged[field] === null) delete merged[field];
  return merged;
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
