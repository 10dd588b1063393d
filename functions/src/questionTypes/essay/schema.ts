import { z } from 'zod';
import { checkTexts, common, extras, noOptions, refuseUnknownKeys, storedBase } from '../fields';
import type { QuestionExtras, TypedFields } from '../stored';

/** The most an essay's max_words may be. */
export const MAX_ESSAY_WORDS = 10_000;
/** The most files an essay may take beside its text. */
export const MAX_ESSAY_ATTACHMENTS = 5;

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
      attachments: z
        .number()
        .int()
        .min(0)
        .max(MAX_ESSAY_ATTACHMENTS)
        .nullable()
        .optional()
        .describe(
          `The most files (PDF, PNG or JPEG, 10 MB each) a taker may attach to the answer, 0 to ${MAX_ESSAY_ATTACHMENTS} (absent, null or 0: none)`,
        ),
      attachments_required: z
        .number()
        .int()
        .min(0)
        .max(MAX_ESSAY_ATTACHMENTS)
        .nullable()
        .optional()
        .describe('The fewest files the taker is asked to attach, 0 to attachments (absent, null or 0: none required)'),
    },
    refuseUnknownKeys,
  )
  .superRefine((q, ctx) => {
    checkTexts(q, ctx);
    const most = q.attachments ?? 0;
    // A count refused on its own is named once, there.
    const mostIsValid = Number.isInteger(most) && most >= 0 && most <= MAX_ESSAY_ATTACHMENTS;
    if (mostIsValid && (q.attachments_required ?? 0) > most)
      ctx.addIssue({
        code: 'custom',
        path: ['attachments_required'],
        message: `At most attachments (${most}): a taker cannot be asked for more files than it may attach`,
      });
  })
  .meta({
    id: 'EssayQuestionInput',
    description:
      'A free-text answer (up to 10,000 characters) graded by a person, with up to 5 attached files when it takes them: no options, no correct_answer',
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

/** Its attachments as stored: only when it takes some (none is the old behaviour, stored as nothing). */
export function essayExtras(
  input: z.output<typeof EssayInput>,
): Pick<QuestionExtras, 'attachments' | 'attachments_required'> {
  const most = input.attachments ?? 0;
  const fewest = input.attachments_required ?? 0;
  if (most === 0) return {};
  return fewest > 0 ? { attachments: most, attachments_required: fewest } : { attachments: most };
}
