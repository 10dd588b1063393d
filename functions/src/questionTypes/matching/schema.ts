import { z } from 'zod';
import {
  checkDistinct,
  checkTexts,
  common,
  comparable,
  extras,
  refuseFieldsNotTaken,
  MAX_OPTION_LENGTH,
  option,
  storedBase,
} from '../fields';
import { partsText } from '../parts';
import type { QuestionExtras, TypedFields } from '../stored';

export const MIN_STEMS = 2;
export const MAX_STEMS = 20;
export const MAX_MATCHING_OPTIONS = 30;

const refuseOthers = refuseFieldsNotTaken('a matching question', 'its key is matches: one option per stem');

export const MatchingInput = z
  .strictObject(
    {
      question_type: z.literal('matching'),
      ...common,
      ...extras,
      stems: z
        .array(z.string().trim().min(1, 'A stem cannot be empty').max(MAX_OPTION_LENGTH))
        .min(MIN_STEMS)
        .max(MAX_STEMS)
        .describe(`${MIN_STEMS} to ${MAX_STEMS} distinct texts to match, each 1 to ${MAX_OPTION_LENGTH} characters`),
      options: z
        .array(option)
        .min(2)
        .max(MAX_MATCHING_OPTIONS)
        .describe(
          `2 to ${MAX_MATCHING_OPTIONS} distinct options without "|": every match and any distractors, shown in this order`,
        ),
      matches: z
        .array(z.string().trim().min(1).max(MAX_OPTION_LENGTH))
        .describe('One per stem, in the stems’ order: the option that matches it (an option may match several stems)'),
    },
    refuseOthers,
  )
  .superRefine((q, ctx) => {
    checkTexts(q, ctx);
    checkDistinct(q.options, ctx);
    const stems = new Map<string, number>();
    q.stems.forEach((stem, i) => {
      const seen = stems.get(comparable(stem));
      if (seen !== undefined)
        ctx.addIssue({ code: 'custom', path: ['stems', i], message: `Duplicates stem ${seen + 1} ("${stem}")` });
      else stems.set(comparable(stem), i);
    });
    if (q.matches.length !== q.stems.length)
      ctx.addIssue({
        code: 'custom',
        path: ['matches'],
        message: `Must have one match per stem (${q.stems.length}); it has ${q.matches.length}`,
      });
    const options = new Set(q.options.map(comparable));
    q.matches.forEach((match, i) => {
      if (!options.has(comparable(match)))
        ctx.addIssue({ code: 'custom', path: ['matches', i], message: `"${match}" is not one of the options` });
    });
  })
  .meta({
    id: 'MatchingQuestionInput',
    description: 'Stems matched to options (docs/question-types.md); scored per stem: marks × right stems ÷ stems',
  });

type MatchingInput = z.output<typeof MatchingInput>;

/** A match spelled as its option is. */
const asOption = (options: string[], match: string): string =>
  options.find((o) => comparable(o) === comparable(match)) ?? match;

/** Stored with its matches spelled as the options are, and the key as their JSON array text. */
export function normalizeMatching(input: MatchingInput): TypedFields<'matching'> {
  return {
    ...storedBase(input),
    question_type: input.question_type,
    options: input.options,
    correct_answer: partsText(input.matches.map((m) => asOption(input.options, m))),
    tolerance: null,
  };
}

export const matchingExtras = (input: MatchingInput): Pick<QuestionExtras, 'stems' | 'matches'> => ({
  stems: input.stems,
  matches: input.matches.map((m) => asOption(input.options, m)),
});
