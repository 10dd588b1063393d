import { z } from 'zod';
import {
  answer,
  checkTexts,
  common,
  comparable,
  extras,
  MAX_OPTION_LENGTH,
  optionFeedback,
  refuseUnknownKeys,
  storedBase,
} from '../fields';
import type { TypedFields } from '../stored';

/** A true/false question's options, always these. */
export const TRUE_FALSE_OPTIONS = ['True', 'False'] as const;

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

/** Stored with its own options and the key spelled as one of them. */
export function normalizeTrueFalse(input: z.output<typeof TrueFalseInput>): TypedFields<'true_false'> {
  return {
    ...storedBase(input),
    question_type: input.question_type,
    options: [...TRUE_FALSE_OPTIONS],
    correct_answer: comparable(input.correct_answer) === 'true' ? 'True' : 'False',
    tolerance: null,
  };
}
