import { z } from 'zod';
import {
  checkOptions,
  checkTexts,
  common,
  extras,
  refuseFieldsNotTaken,
  option,
  storedBase,
  storedOptions,
} from '../fields';
import { partsText } from '../parts';
import type { QuestionExtras, TypedFields } from '../stored';

export const MAX_ORDERING_ITEMS = 20;
export const ORDERING_SCORES = ['all_or_nothing', 'partial'] as const;

const refuseOthers = refuseFieldsNotTaken('an ordering question', 'its key is the order of its options');

export const OrderingInput = z
  .strictObject(
    {
      question_type: z.literal('ordering'),
      ...common,
      ...extras,
      options: z
        .array(option)
        .min(2)
        .max(MAX_ORDERING_ITEMS)
        .describe(
          `2 to ${MAX_ORDERING_ITEMS} distinct items without "|", in the right order (takers see them shuffled)`,
        ),
      ordering_score: z
        .enum(ORDERING_SCORES)
        .nullable()
        .optional()
        .describe(
          'all_or_nothing (the default): the whole order or nothing. partial: the longest run of items in the right relative order ÷ items (Moodle’s longest ordered subset)',
        ),
    },
    refuseOthers,
  )
  .superRefine((q, ctx) => {
    checkTexts(q, ctx);
    checkOptions(q.options, q.text_format, ctx);
  })
  .meta({ id: 'OrderingQuestionInput', description: 'Items to put in order (docs/question-types.md)' });

type OrderingInput = z.output<typeof OrderingInput>;

/** Stored with its items in the right order, and the key as their JSON array text. */
export function normalizeOrdering(input: OrderingInput): TypedFields<'ordering'> {
  const options = storedOptions(input.options, input.text_format);
  return {
    ...storedBase(input),
    question_type: input.question_type,
    options,
    correct_answer: partsText(options),
    tolerance: null,
  };
}

export const orderingExtras = (input: OrderingInput): Pick<QuestionExtras, 'ordering_score'> =>
  input.ordering_score === 'partial' ? { ordering_score: 'partial' } : {};
