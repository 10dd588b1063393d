import { z } from 'zod';
import { parseNumberText } from '../../shared';
import {
  Alternative,
  checkOptions,
  checkTexts,
  common,
  comparable,
  type Ctx,
  extras,
  refuseFieldsNotTaken,
  MAX_ALTERNATIVES,
  MAX_MARKS,
  option,
  storedText,
  storedBase,
  storedOption,
  storedOptions,
  type TextFormat,
} from '../fields';
import { partsText } from '../parts';
import { GAP_KINDS, type QuestionExtras, type StoredGap, type TypedFields } from '../stored';

export const MAX_GAPS = 50;
export const MAX_GAP_OPTIONS = 20;
export const MAX_DRAG_OPTIONS = 30;

/** A gap in the text: `[[n]]`, n from 1. */
const GAP_MARK = /\[\[(\d{1,3})\]\]/g;

const Gap = z
  .strictObject({
    kind: z
      .enum(GAP_KINDS)
      .describe('text, numeric, select (a drop-down of its options) or drag (a chip of drag_options)'),
    answers: z
      .array(Alternative)
      .min(1)
      .max(MAX_ALTERNATIVES)
      .describe('Accepted answers with their credit (at least one 100); tolerance for numeric gaps only'),
    options: z
      .array(option)
      .min(2)
      .max(MAX_GAP_OPTIONS)
      .optional()
      .describe(`select only: 2 to ${MAX_GAP_OPTIONS} distinct choices, every accepted answer among them`),
    case_sensitive: z.boolean().optional().describe('text only: compared case for case'),
    weight: z.number().positive().max(MAX_MARKS).optional().describe('Its share of the marks (absent: 1)'),
  })
  .meta({ id: 'Gap' });
type Gap = z.output<typeof Gap>;

const refuseOthers = refuseFieldsNotTaken('a gap_fill question', 'its key is in gaps');

export const GapFillInput = z
  .strictObject(
    {
      question_type: z.literal('gap_fill'),
      ...common,
      ...extras,
      gaps: z
        .array(Gap)
        .min(1)
        .max(MAX_GAPS)
        .describe('Gap n, written [[n]] in question_text (each number exactly once), at index n − 1'),
      drag_options: z
        .array(option)
        .min(1)
        .max(MAX_DRAG_OPTIONS)
        .optional()
        .describe(
          'The chips of the drag gaps (1 or more): required with one, distinct, every drag gap’s answers among them',
        ),
      drag_reusable: z.boolean().optional().describe('true: a chip may fill several gaps (default: each chip once)'),
    },
    refuseOthers,
  )
  .superRefine((q, ctx) => {
    checkTexts(q, ctx);
    checkGapMarks(storedText(q.question_text, q.text_format), q.gaps.length, ctx);
    const dragOptions = q.drag_options && checkOptions(q.drag_options, q.text_format, ctx, 'drag_options');
    q.gaps.forEach((gap, i) => checkGap(gap, i, dragOptions, q.text_format, ctx));
    const drags = q.gaps.some((gap) => gap.kind === 'drag');
    if (drags && !q.drag_options)
      ctx.addIssue({ code: 'custom', path: ['drag_options'], message: 'Required when a gap is a drag gap' });
    if (!drags && (q.drag_options || q.drag_reusable))
      ctx.addIssue({
        code: 'custom',
        path: [q.drag_options ? 'drag_options' : 'drag_reusable'],
        message: 'Allowed only when a gap is a drag gap',
      });
  })
  .meta({
    id: 'GapFillQuestionInput',
    description: 'A text with numbered gaps [[1]], [[2]]… (docs/question-types.md)',
  });

type GapFillInput = z.output<typeof GapFillInput>;

/** Every gap written once in the text, numbered 1 to count. */
function checkGapMarks(text: string, count: number, ctx: Ctx): void {
  const found = [...text.matchAll(GAP_MARK)].map((m) => Number(m[1]));
  const seen = new Set<number>();
  for (const n of found) {
    if (n < 1 || n > count)
      ctx.addIssue({
        code: 'custom',
        path: ['question_text'],
        message: `[[${n}]] names no gap: gaps are numbered 1 to ${count}`,
      });
    else if (seen.has(n))
      ctx.addIssue({ code: 'custom', path: ['question_text'], message: `[[${n}]] is written more than once` });
    seen.add(n);
  }
  for (let n = 1; n <= count; n++)
    if (!seen.has(n))
      ctx.addIssue({ code: 'custom', path: ['question_text'], message: `Gap ${n} is not in the text: write [[${n}]]` });
}

/** A gap checked; `dragOptions` as stored. */
function checkGap(
  gap: Gap,
  i: number,
  dragOptions: string[] | undefined,
  format: TextFormat | null | undefined,
  ctx: Ctx,
): void {
  const at = (...path: Array<string | number>) => ['gaps', i, ...path];
  const issue = (path: Array<string | number>, message: string) => ctx.addIssue({ code: 'custom', path, message });
  if (!gap.answers.some((a) => a.credit === 100)) issue(at('answers'), 'At least one answer must have credit 100');
  if (gap.kind === 'select' && !gap.options) issue(at('options'), 'Required for a select gap');
  if (gap.kind !== 'select' && gap.options) issue(at('options'), 'Allowed only for a select gap');
  if (gap.kind !== 'text' && gap.case_sensitive !== undefined)
    issue(at('case_sensitive'), 'Allowed only for a text gap');
  const options = gap.options && checkOptions(gap.options, format, ctx, ...at('options'));
  const choices = gap.kind === 'select' ? options : gap.kind === 'drag' ? dragOptions : undefined;
  const known = choices && new Set(choices.map(comparable));
  gap.answers.forEach((a, j) => {
    if (gap.kind === 'numeric' && parseNumberText(a.answer) === undefined)
      issue(at('answers', j, 'answer'), 'Must be a finite number, e.g. "3.14"');
    if (gap.kind !== 'numeric' && a.tolerance !== undefined)
      issue(at('answers', j, 'tolerance'), 'Allowed only for a numeric gap');
    if (known && !known.has(comparable(storedOption(a.answer, format))))
      issue(
        at('answers', j, 'answer'),
        `"${a.answer}" is not one of the ${gap.kind === 'select' ? 'gap’s options' : 'drag_options'}`,
      );
  });
}

/** An answer spelled as its choice is (select and drag gaps), else as written. */
const spelled = (choices: string[] | undefined, answer: string): string =>
  choices?.find((c) => comparable(c) === comparable(answer)) ?? answer;

/** A gap as stored: only the fields its kind takes, answers spelled as its choices (as stored), its weight always. */
function storedGap(gap: Gap, input: GapFillInput): StoredGap {
  const format = input.text_format;
  const options = gap.options && storedOptions(gap.options, format);
  const dragOptions = input.drag_options && storedOptions(input.drag_options, format);
  const choices = gap.kind === 'select' ? options : gap.kind === 'drag' ? dragOptions : undefined;
  return {
    kind: gap.kind,
    answers: gap.answers.map((a) => ({
      answer: choices ? spelled(choices, storedOption(a.answer, format)) : a.answer,
      credit: a.credit,
      ...(gap.kind === 'numeric' && a.tolerance !== undefined ? { tolerance: a.tolerance } : {}),
    })),
    ...(gap.kind === 'select' ? { options } : {}),
    ...(gap.kind === 'text' && gap.case_sensitive === true ? { case_sensitive: true } : {}),
    weight: gap.weight ?? 1,
  };
}

/** Each gap's first full-credit answer: the key as replies show it. */
const gapKey = (gaps: readonly StoredGap[]): string =>
  partsText(gaps.map((gap) => gap.answers.find((a) => a.credit === 100)?.answer ?? ''));

export function normalizeGapFill(input: GapFillInput): TypedFields<'gap_fill'> {
  return {
    ...storedBase(input),
    question_type: input.question_type,
    options: [],
    correct_answer: gapKey(input.gaps.map((gap) => storedGap(gap, input))),
    tolerance: null,
  };
}

export const gapFillExtras = (
  input: GapFillInput,
): Pick<QuestionExtras, 'gaps' | 'drag_options' | 'drag_reusable'> => ({
  gaps: input.gaps.map((gap) => storedGap(gap, input)),
  ...(input.drag_options ? { drag_options: storedOptions(input.drag_options, input.text_format) } : {}),
  ...(input.drag_reusable === true ? { drag_reusable: true } : {}),
});
