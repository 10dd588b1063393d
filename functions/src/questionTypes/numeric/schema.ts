import { z } from 'zod';
import { parseNumberText } from '../../shared';
import {
  alternatives,
  checkAlternatives,
  checkTexts,
  common,
  extras,
  MAX_TOLERANCE,
  noOptions,
  refuseUnknownKeys,
  storedAlternatives,
  storedBase,
} from '../fields';
import type { QuestionExtras, TypedFields } from '../stored';

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

type NumericInput = z.output<typeof NumericInput>;

/** Stored with no options, the key trimmed and its tolerance (null: 0). */
export function normalizeNumeric(input: NumericInput): TypedFields<'numeric'> {
  return {
    ...storedBase(input),
    question_type: input.question_type,
    options: [],
    correct_answer: input.correct_answer.trim(),
    tolerance: input.tolerance ?? null,
  };
}

export const numericExtras = (input: NumericInput): Pick<QuestionExtras, 'alternatives'> =>
  storedAlternatives(input.alternatives, true);
