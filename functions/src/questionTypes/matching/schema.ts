import { z } from 'zod';
import {
  checkOptions,
  checkShown,
  checkTexts,
  common,
  comparable,
  extras,
  refuseFieldsNotTaken,
  MAX_OPTION_LENGTH,
  option,
  storedBase,
  storedOption,
  storedOptions,
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
    const options = checkOptions(q.options, q.text_format, ctx);
    const storedStems = storedOptions(q.stems, q.text_format);
    checkShown(storedStems, q.text_format, ctx, ['stems']);
    const stems = new Map<string, number>();
    storedStems.forEach((stem, i) => {
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
    const known = new Set(options.map(comparable));
    q.matches.forEach((match, i) => {
      if (!known.has(comparable(storedOption(match, q.text_format))))
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

/** The matches spelled as the options are stored. */
const storedMatches = (input: MatchingInput): string[] => {
  const options = storedOptions(input.options, input.text_format);
  return input.matches.map((m) => asOption(options, storedOption(m, input.text_format)));
};

/** Stored with its matches spelled as the options are, and the key as their JSON array text. */
export function normalizeMatching(input: MatchingInput): TypedFields<'matching'> {
  return {
    ...storedBase(input),
    question_type: input.question_type,
    options: storedOptions(input.options, input.text_format),
    correct_answer: partsText(storedMatches(input)),
    tolerance: null,
  };
}

export const matchingExtras = (input: MatchingInput): Pick<QuestionExtras, 'stems' | 'matches'> => ({
  stems: storedOptions(input.stems, input.text_format),
  matches: storedMatches(input),
});
