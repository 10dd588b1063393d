import { z } from 'zod';
import {
  checkOptions,
  checkTexts,
  choiceOptions,
  common,
  comparable,
  credit,
  type Ctx,
  extras,
  inOptions,
  MAX_OPTION_LENGTH,
  MAX_OPTIONS,
  OPTION_SEPARATOR,
  optionFeedback,
  refuseUnknownKeys,
  storedBase,
  storedOption,
  storedOptions,
} from '../fields';
import type { QuestionExtras, TypedFields } from '../stored';

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
    const options = checkOptions(q.options, q.text_format, ctx);
    const chosen = q.correct_answer.split(OPTION_SEPARATOR).map((a) => storedOption(a.trim(), q.text_format));
    const seen = new Set<string>();
    for (const a of chosen) {
      if (a.length === 0)
        ctx.addIssue({ code: 'custom', path: ['correct_answer'], message: 'Contains an empty choice' });
      else if (!inOptions(options, a))
        ctx.addIssue({ code: 'custom', path: ['correct_answer'], message: `"${a}" is not one of the options` });
      else if (seen.has(comparable(a)))
        ctx.addIssue({ code: 'custom', path: ['correct_answer'], message: `"${a}" is named twice` });
      seen.add(comparable(a));
    }
    checkCredits({ ...q, options, correct_answer: chosen.join(OPTION_SEPARATOR) }, ctx);
  })
  .meta({
    id: 'MultipleSelectQuestionInput',
    description: 'One or more correct options, joined by "|" in correct_answer',
  });

type MultipleSelectInput = z.output<typeof MultipleSelectInput>;

/** Stored with the key's options in the options' order, each spelled as its option is. */
export function normalizeMultipleSelect(input: MultipleSelectInput): TypedFields<'multiple_select'> {
  const options = storedOptions(input.options, input.text_format);
  const chosen = new Set(
    input.correct_answer.split(OPTION_SEPARATOR).map((a) => comparable(storedOption(a.trim(), input.text_format))),
  );
  return {
    ...storedBase(input),
    question_type: input.question_type,
    options,
    correct_answer: options.filter((o) => chosen.has(comparable(o))).join(OPTION_SEPARATOR),
    tolerance: null,
  };
}

export const multipleSelectExtras = (input: MultipleSelectInput): Pick<QuestionExtras, 'option_credits'> =>
  input.option_credits ? { option_credits: input.option_credits } : {};
