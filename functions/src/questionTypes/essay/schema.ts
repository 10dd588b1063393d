import { z } from 'zod';
import { checkTexts, common, extras, noOptions, refuseUnknownKeys, storedBase } from '../fields';
import type { TypedFields } from '../stored';

/** The most an essay's max_words may be. */
export const MAX_ESSAY_WORDS = 10_000;

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

/** Stored with an empty key (every stored question has a string key; replies say null) and its word limit. */
export function normalizeEssay(input: z.output<typeof EssayInput>): TypedFields<'essay'> {
  return {
    ...storedBase(input),
    question_type: input.question_type,
    options: [],
    correct_answer: '',
    tolerance: null,
    max_words: input.max_words ?? null,
  };
}
