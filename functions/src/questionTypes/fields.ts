import { z } from 'zod';
import { ClientId, MAX_ID_LENGTH, parseNumberText } from '../shared';
import { isBlankHtml, sanitizeQuestionHtml, unresolvedMedia } from './html';
import { texToMathMl } from './tex';
import type { StoredAlternative } from './stored';

// Pure: the fields every question type's schema shares (its text, options, marks,
// credits, feedback, alternatives) and the checks they share, in one home; each
// type's folder joins them into its own schema.

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
/** Options are joined by `|` in a CSV cell and in a multiple_select answer, so no option may contain it. */
export const OPTION_SEPARATOR = '|';

export const FolderIdRef = z.string().trim().min(1).max(MAX_ID_LENGTH).describe('A folder of the same organization');

/** How a case-sensitive short answer is compared: trimmed, spacing collapsed, case kept. */
export const exactComparable = (value: string): string => value.normalize('NFKC').trim().replace(/\s+/g, ' ');
/** How options and answers are compared: trimmed, spacing collapsed, case folded. */
export const comparable = (value: string): string => exactComparable(value).toLowerCase();

export const questionText = z
  .string()
  .trim()
  .min(1)
  .max(MAX_HTML_QUESTION_TEXT * HTML_INPUT_FACTOR)
  .describe(
    `plain: 1 to ${MAX_QUESTION_TEXT} characters. html: sanitized on write to an allow-list (p, br, b, i, em, strong, u, sub, sup, ul, ol, li, span, div, ` +
      'table, thead, tbody, tr, th, td, pre, code, blockquote, h1–h6, a href (http, https, mailto, or exactly /api/media/{mediaId}; rel and target set by the service), ' +
      'img src alt width height, audio src controls, source src type, MathML Core (math, mrow, mi, mn, mo, mfrac, msqrt, msup, msub, mtable…; TeX \\( \\), $$ $$, \\[ \\] made MathML); media sources /api/media/{mediaId} or http(s) URLs; no style, ' +
      `no event handlers, no script, iframe, svg, object or data: URLs), at most ${MAX_HTML_QUESTION_TEXT} characters once sanitized ` +
      `(${MAX_HTML_QUESTION_TEXT * HTML_INPUT_FACTOR} as sent), and not blank once sanitized`,
  );
export const option = z
  .string()
  .trim()
  .min(1, 'An option cannot be empty')
  .max(MAX_OPTION_LENGTH)
  .refine((o) => !o.includes(OPTION_SEPARATOR), `An option cannot contain "${OPTION_SEPARATOR}"`);
export const marks = z.number().positive().max(MAX_MARKS).describe(`Greater than 0, at most ${MAX_MARKS}`);
export const difficulty = z.enum(DIFFICULTIES);
export const answer = z.string().trim().min(1).max(MAX_ANSWER_LENGTH);
export const choiceOptions = z
  .array(option)
  .min(MIN_OPTIONS)
  .max(MAX_OPTIONS)
  .describe(
    `${MIN_OPTIONS} to ${MAX_OPTIONS} distinct options (compared trimmed and case-insensitively), each 1 to ${MAX_OPTION_LENGTH} characters without "|"`,
  );
export const noOptions = z
  .array(z.string().max(MAX_OPTION_LENGTH))
  .max(0, 'This question type has no options')
  .optional()
  .describe('Absent or empty');

export const common = {
  question_text: questionText,
  marks,
  difficulty,
  folder_id: FolderIdRef.nullable().optional(),
  client_id: ClientId.optional().describe(
    'The organization: required for a Super Admin creating a question, otherwise optional and must be the caller’s (never a CSV column)',
  ),
};

export type Ctx = z.core.$RefinementCtx;

/** Up to 5 decimals, as Moodle's fractions are (0.33333 × 100): checked with room for binary float error. */
const fiveDecimals = (n: number) => Math.abs(n * 1e5 - Math.round(n * 1e5)) < 1e-6;
export const credit = (min: number) =>
  z
    .number()
    .min(min)
    .max(100)
    .refine(fiveDecimals, 'At most 5 decimals')
    .describe(`${min} to 100 (a share of the marks in %), up to 5 decimals`);

export const optionalText = (limit: number, what: string) =>
  z
    .string()
    .trim()
    .max(limit * HTML_INPUT_FACTOR)
    .describe(
      `${what}: at most ${limit} characters (html: sanitized as question_text is, at most ${limit} once sanitized); "" is none`,
    );

/** Fields every type may have. */
export const extras = {
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
      'plain (the default): question_text, feedback and options are shown as written. html: they are HTML, sanitized on write (see question_text), MathML kept and TeX \\( \\), $$ $$, \\[ \\] made MathML; options, stems, matches and a gap’s choices too (each at most 500 characters once sanitized, a "|" stored as &#124;), so an option may be an image',
    ),
  feedback: optionalText(MAX_FEEDBACK, 'General feedback, shown to takers only in a released review')
    .nullable()
    .optional(),
  passage_id: z
    .string()
    .trim()
    .min(1)
    .max(MAX_ID_LENGTH)
    .nullable()
    .optional()
    .describe(
      'A description of the same organization shown beside this question (a reading passage, shared by the questions naming it); null or absent: none',
    ),
};

export const optionFeedback = z
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

export const Alternative = z
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

export const alternatives = z
  .array(Alternative)
  .max(MAX_ALTERNATIVES)
  .nullable()
  .optional()
  .describe(
    `Up to ${MAX_ALTERNATIVES} further accepted answers. An answer matching correct_answer earns the marks; otherwise the best matching alternative earns credit % of them ` +
      '(an answer earning some credit never costs negative marks; one earning none is wrong)',
  );

/** Unknown keys are refused; `tolerance` on a question that is not numeric, and `max_words` on one that is not an essay, are named as such. */
export const refuseUnknownKeys = {
  error: (issue: z.core.$ZodRawIssue) => {
    if (issue.code !== 'unrecognized_keys') return undefined;
    const keys = issue.keys as string[];
    if (keys.includes('tolerance')) return 'tolerance is allowed only for numeric and calculated questions';
    if (keys.includes('max_words')) return 'max_words is allowed only for essays';
    if (keys.includes('option_credits')) return 'option_credits is allowed only for multiple_select questions';
    if (keys.includes('alternatives')) return 'alternatives is allowed only for short_answer and numeric questions';
    if (keys.includes('case_sensitive')) return 'case_sensitive is allowed only for short_answer questions';
    if (keys.includes('option_feedback'))
      return 'option_feedback is allowed only for questions with options (multiple_choice, multiple_select, true_false)';
    return undefined;
  },
};

/** No two options alike (compared as options are); `at` is the options' path (absent: options). */
/** A type's refusal of fields it does not take: "Not taken by <what>: <keys> (<why>)". */
export const refuseFieldsNotTaken = (what: string, why: string) => ({
  error: (issue: z.core.$ZodRawIssue) =>
    issue.code === 'unrecognized_keys'
      ? `Not taken by ${what}: ${(issue.keys as string[]).join(', ')} (${why})`
      : undefined,
});

export function checkDistinct(options: string[], ctx: Ctx, ...at: Array<string | number>): void {
  const seen = new Map<string, number>();
  const path = at.length > 0 ? at : ['options'];
  options.forEach((o, i) => {
    const key = comparable(o);
    if (seen.has(key))
      ctx.addIssue({
        code: 'custom',
        path: [...path, i],
        message: `Duplicates option ${seen.get(key)! + 1} ("${o}")`,
      });
    else seen.set(key, i);
  });
}

/** HTML as stored: its TeX made MathML (TeX that cannot be read kept as written), then sanitized. */
const storedHtml = (html: string): string => sanitizeQuestionHtml(texToMathMl(html).html).html;

/** The text as stored: HTML sanitized (its TeX made MathML), plain text as sent (the schema trimmed it). */
export const storedText = (text: string, format: TextFormat | null | undefined): string =>
  format === 'html' ? storedHtml(text) : text;

/**
 * An option (a stem, a match, a gap's choice) as stored: in an html question, HTML as the text is
 * (an option that is only an image stays an image), its `|` written `&#124;` since `|` joins
 * options in an answer; otherwise as sent.
 */
export const storedOption = (text: string, format: TextFormat | null | undefined): string =>
  format === 'html' ? storedHtml(text).replaceAll(OPTION_SEPARATOR, '&#124;') : text;

export const storedOptions = (texts: readonly string[], format: TextFormat | null | undefined): string[] =>
  texts.map((text) => storedOption(text, format));

/**
 * Options (or stems) as they will be stored, checked: in an html question each shows something once
 * sanitized and fits MAX_OPTION_LENGTH as stored; none is twice (compared as stored: two images
 * with different sources differ). Returns them as stored, for the checks of the key.
 */
export function checkOptions(
  texts: readonly string[],
  format: TextFormat | null | undefined,
  ctx: Ctx,
  ...at: Array<string | number>
): string[] {
  const stored = storedOptions(texts, format);
  const path = at.length > 0 ? at : ['options'];
  checkShown(stored, format, ctx, path);
  checkDistinct(stored, ctx, ...path);
  return stored;
}

/** In an html question, each of these texts (as stored) shows something and fits MAX_OPTION_LENGTH. */
export function checkShown(
  stored: readonly string[],
  format: TextFormat | null | undefined,
  ctx: Ctx,
  path: Array<string | number>,
): void {
  if (format === 'html')
    stored.forEach((text, i) => {
      if (isBlankHtml(text))
        ctx.addIssue({
          code: 'custom',
          path: [...path, i],
          message: 'Shows nothing once sanitized (no text, image or sound is left)',
        });
      else if (text.length > MAX_OPTION_LENGTH)
        ctx.addIssue({
          code: 'custom',
          path: [...path, i],
          message: `At most ${MAX_OPTION_LENGTH} characters once sanitized (it has ${text.length})`,
        });
    });
}

type TextFields = {
  question_text: string;
  text_format?: TextFormat | null;
  feedback?: string | null;
  option_feedback?: string[] | null;
};

/** question_text, feedback and option_feedback checked as they will be stored: HTML once sanitized. */
export function checkTexts(q: TextFields, ctx: Ctx, optionCount?: number): void {
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

export function checkAlternatives(alternatives: Alternative[] | null | undefined, numeric: boolean, ctx: Ctx): void {
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

export const inOptions = (options: string[], value: string): boolean =>
  options.some((o) => comparable(o) === comparable(value));

/** The core fields every type stores alike: the text as stored, the marks, the difficulty, and no word limit. */
export const storedBase = (input: {
  question_text: string;
  text_format?: TextFormat | null;
  marks: number;
  difficulty: Difficulty;
}) => ({
  question_text: storedText(input.question_text, input.text_format),
  marks: input.marks,
  difficulty: input.difficulty,
  max_words: null,
});

/** Alternatives as stored: answer and credit, and a numeric one's own tolerance when it has one. */
export const storedAlternatives = (
  alternatives: Alternative[] | null | undefined,
  numeric: boolean,
): { alternatives?: StoredAlternative[] } =>
  alternatives?.length
    ? {
        alternatives: alternatives.map((a) => ({
          answer: a.answer,
          credit: a.credit,
          ...(numeric && a.tolerance ? { tolerance: a.tolerance } : {}),
        })),
      }
    : {};
