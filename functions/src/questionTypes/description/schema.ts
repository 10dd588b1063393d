import { z } from 'zod';
import { checkTexts, common, extras, noOptions, refuseFieldsNotTaken, storedBase } from '../fields';
import type { TypedFields } from '../stored';

const refuseOthers = refuseFieldsNotTaken('a description', 'it has no answer and no key');

export const DescriptionInput = z
  .strictObject(
    {
      question_type: z.literal('description'),
      ...common,
      ...extras,
      // Absent or empty: a stored description's [] comes back through a PATCH.
      options: noOptions,
      marks: z.literal(0).optional().describe('A description has no marks (absent or 0)'),
      passage_id: z
        .string()
        .nullable()
        .optional()
        .refine((id) => id === null || id === undefined, 'A description is itself a passage: it cannot name one')
        .describe('A description names no passage (absent or null)'),
    },
    refuseOthers,
  )
  .superRefine((q, ctx) => checkTexts(q, ctx))
  .meta({
    id: 'DescriptionQuestionInput',
    description: 'Text and media with no answer and no marks: instructions, a reading passage (docs/question-types.md)',
  });

type DescriptionInput = z.output<typeof DescriptionInput>;

/** Stored with no options, no key and no marks. */
export const normalizeDescription = (input: DescriptionInput): TypedFields<'description'> => ({
  ...storedBase({ ...input, marks: 0 }),
  question_type: input.question_type,
  options: [],
  correct_answer: '',
  tolerance: null,
});
