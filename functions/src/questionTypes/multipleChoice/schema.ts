import { z } from 'zod';
import {
  answer,
  checkOptions,
  checkTexts,
  choiceOptions,
  common,
  comparable,
  extras,
  inOptions,
  optionFeedback,
  refuseUnknownKeys,
  storedBase,
  storedOption,
  storedOptions,
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
    const options = checkOptions(q.options, q.text_format, ctx);
    if (!inOptions(options, storedOption(q.correct_answer, q.text_format)))
      ctx.addIssue({ code: 'custom', path: ['correct_answer'], message: 'Must be one of the options' });
  })
  .meta({ id: 'MultipleChoiceQuestionInput', description: 'One correct option' });

/** Stored with the key spelled as its option is (HTML options as stored). */
export function normalizeMultipleChoice(input: z.output<typeof MultipleChoiceInput>): TypedFields<'multiple_choice'> {
  const options = storedOptions(input.options, input.text_format);
  const key = storedOption(input.correct_answer, input.text_format);
  return {
    ...storedBase(input),
    question_type: input.question_type,
    options,
    correct_answer: options.find((o) => comparable(o) === comparable(key)) ?? key.trim(),
    tolerance: null,
  };
}
