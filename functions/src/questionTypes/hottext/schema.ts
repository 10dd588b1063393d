import { z } from 'zod';
import {
  checkTexts,
  common,
  comparable,
  type Ctx,
  extras,
  refuseFieldsNotTaken,
  MAX_OPTION_LENGTH,
  OPTION_SEPARATOR,
  storedBase,
  storedText,
} from '../fields';
import type { QuestionExtras, TypedFields } from '../stored';

export const MAX_HOTTEXTS = 50;

/** A phrase a taker may choose: `[[phrase]]` in the text. */
const PHRASE_MARK = /\[\[([^[\]]+)\]\]/g;

/** The phrases marked in a text, in its order, trimmed. */
export const phrasesOf = (text: string): string[] => [...text.matchAll(PHRASE_MARK)].map((m) => m[1].trim());

const refuseOthers = refuseFieldsNotTaken(
  'a hottext question',
  'its phrases are marked [[like this]] in question_text',
);

export const HottextInput = z
  .strictObject(
    {
      question_type: z.literal('hottext'),
      ...common,
      ...extras,
      correct_answer: z
        .string()
        .trim()
        .min(1)
        .max(MAX_HOTTEXTS * (MAX_OPTION_LENGTH + 1))
        .describe('The right phrases, as marked in the text, joined by "|" (one or more)'),
      max_choices: z
        .number()
        .int()
        .min(1)
        .max(MAX_HOTTEXTS)
        .nullable()
        .optional()
        .describe('The most phrases a taker may choose (absent or null: no limit); at least the right phrases’ count'),
    },
    refuseOthers,
  )
  .superRefine((q, ctx) => {
    checkTexts(q, ctx);
    checkPhrases(q, phrasesOf(storedText(q.question_text, q.text_format)), ctx);
  })
  .meta({
    id: 'HottextQuestionInput',
    description: 'Choose phrases marked [[like this]] in the text (docs/question-types.md)',
  });

type HottextInput = z.output<typeof HottextInput>;

function checkPhrases(q: HottextInput, phrases: string[], ctx: Ctx): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (phrases.length < 2) issue('question_text', 'Mark at least 2 phrases a taker may choose, [[like this]]');
  if (phrases.length > MAX_HOTTEXTS) issue('question_text', `At most ${MAX_HOTTEXTS} phrases may be marked`);
  const seen = new Set<string>();
  for (const phrase of phrases) {
    if (phrase.length > MAX_OPTION_LENGTH || phrase.includes(OPTION_SEPARATOR))
      issue(
        'question_text',
        `A phrase is at most ${MAX_OPTION_LENGTH} characters, without "|": "${phrase.slice(0, 40)}"`,
      );
    if (seen.has(comparable(phrase))) issue('question_text', `"${phrase}" is marked twice: phrases must differ`);
    seen.add(comparable(phrase));
  }
  const chosen = q.correct_answer.split(OPTION_SEPARATOR).map((a) => a.trim());
  const named = new Set<string>();
  for (const a of chosen) {
    if (!seen.has(comparable(a))) issue('correct_answer', `"${a}" is not a phrase marked in the text`);
    else if (named.has(comparable(a))) issue('correct_answer', `"${a}" is named twice`);
    named.add(comparable(a));
  }
  if (q.max_choices != null && q.max_choices < named.size)
    issue('max_choices', `Must allow at least the ${named.size} right phrases`);
}

/** Stored with its phrases as options (in the text's order) and the key's phrases in that order, spelled as marked. */
export function normalizeHottext(input: HottextInput): TypedFields<'hottext'> {
  const phrases = phrasesOf(storedText(input.question_text, input.text_format));
  const chosen = new Set(input.correct_answer.split(OPTION_SEPARATOR).map(comparable));
  return {
    ...storedBase(input),
    question_type: input.question_type,
    options: phrases,
    correct_answer: phrases.filter((p) => chosen.has(comparable(p))).join(OPTION_SEPARATOR),
    tolerance: null,
  };
}

export const hottextExtras = (input: HottextInput): Pick<QuestionExtras, 'max_choices'> =>
  input.max_choices != null ? { max_choices: input.max_choices } : {};
