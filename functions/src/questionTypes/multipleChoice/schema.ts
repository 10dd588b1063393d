import { z } from 'zod';
import {
  answer,
  checkDistinct,
  checkTexts,
  choiceOptions,
  common,
  comparable,
  extras,
  inOptions,
  optionFeedback,
  refuseUnknownKeys,
  storedBase,
} from '../fields';
import type { TypedFields } from '../stored';

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

/** Stored with the key spelled as its option is. */
export function normalizeMultipleChoice(input: z.output<typeof MultipleChoiceInput>): TypedFields<'multiple_choice'> {
  return {
    ...storedBase(input),
    question_type: input.question_type,
    options: input.options,
    correct_answer:
      input.options.find((o) => comparable(o) === comparable(input.correct_answer)) ?? input.correct_answer.trim(),
    tolerance: null,
  };
}
