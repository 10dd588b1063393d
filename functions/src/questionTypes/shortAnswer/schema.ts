import { z } from 'zod';
import {
  alternatives,
  answer,
  checkAlternatives,
  checkTexts,
  common,
  extras,
  noOptions,
  refuseUnknownKeys,
  storedAlternatives,
  storedBase,
} from '../fields';
import type { QuestionExtras, TypedFields } from '../stored';

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

type ShortAnswerInput = z.output<typeof ShortAnswerInput>;

/** Stored with no options and the key as written. */
export function normalizeShortAnswer(input: ShortAnswerInput): TypedFields<'short_answer'> {
  return {
    ...storedBase(input),
    question_type: input.question_type,
    options: [],
    correct_answer: input.correct_answer,
    tolerance: null,
  };
}

export const shortAnswerExtras = (
  input: ShortAnswerInput,
): Pick<QuestionExtras, 'alternatives' | 'case_sensitive'> => ({
  ...storedAlternatives(input.alternatives, false),
  ...(input.case_sensitive === true ? { case_sensitive: true } : {}),
});
