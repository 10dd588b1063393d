import { parseNumberAnswer, parseNumberText } from '../shared';
import { comparable, exactComparable, OPTION_SEPARATOR } from './fields';
import type { KeyedQuestion, Marking, QuestionTypeModule, ShownQuestion, TakerView } from './module';

// Pure: how answers are compared with keys, shared by the types that read them
// alike (attempts/scoring.ts states the marking scheme these serve).

/**
 * Units in the last place allowed beyond the tolerance: each parsed decimal is off by at most half
 * an ulp, the tolerance by half of its own, the subtraction by one more; 4 covers them with room.
 */
const NUMERIC_ULPS = 4;

/** The choices an answer names, joined by "|": compared as options are, empty parts ignored, repeats counted once. */
export function choiceSet(text: string): Set<string> {
  return new Set(
    text
      .split(OPTION_SEPARATOR)
      .map(comparable)
      .filter((part) => part.length > 0),
  );
}

export function sameSet(a: Set<string>, b: Set<string>): boolean {
  if (a.size !== b.size) return false;
  for (const item of a) if (!b.has(item)) return false;
  return true;
}

/** Whether a numeric answer is within `tolerance` of the key, plus only the representation error of the parsed decimals. */
export function numericCorrect(answer: string, key: string, tolerance: number | null): boolean {
  const given = parseNumberAnswer(answer);
  const expected = parseNumberText(key);
  if (given === undefined || expected === undefined) return false;
  const allowed = Math.max(0, tolerance ?? 0);
  // Number.EPSILON × x is between one and two ulps of x, so this is 4 to 8 ulps of the largest figure.
  const slack = NUMERIC_ULPS * Number.EPSILON * Math.max(Math.abs(given), Math.abs(expected), allowed);
  return Math.abs(given - expected) <= allowed + slack;
}

/** Text compared as the question says: case for case with case_sensitive, else case folded. */
export const sameText = (question: Pick<KeyedQuestion, 'case_sensitive'>, a: string, b: string): boolean =>
  question.case_sensitive === true ? exactComparable(a) === exactComparable(b) : comparable(a) === comparable(b);

/** The highest credit among the alternatives the answer matches (0 when none), as a share of the marks. */
export function bestAlternative(
  question: KeyedQuestion,
  matches: (alternative: { answer: string; tolerance?: number }) => boolean,
): number {
  let best = 0;
  for (const alternative of question.alternatives ?? [])
    if (matches(alternative)) best = Math.max(best, alternative.credit);
  return Math.min(100, best) / 100;
}

/** A wrong answer: nothing earned, the whole of it wrong. */
export const WRONG: Marking = { share: 0, wrong: 1 };

/** The key's full marks, else the best alternative's share, else wrong: the marking of a type that takes alternatives. */
export function keyOrAlternative(correct: boolean, partial: () => number): Marking {
  if (correct) return { share: 1 };
  const share = partial();
  return share > 0 ? { share } : WRONG;
}

/** All or nothing: the marking of a type with no partial credit. */
export const allOrNothing = (correct: boolean): Marking => (correct ? { share: 1 } : WRONG);

/** The answer's length within the limit of every type whose answers are short. */
export const characterLimit = (
  answer: string,
  question: { question_type: string },
  maxLength: number,
): string | undefined =>
  answer.length > maxLength ? `At most ${maxLength} characters for a ${question.question_type} question` : undefined;

/** An answer as one choice: what analytics counts for a single-answer type. */
export const oneAnswer = (answer: string): string[] => [answer];

/** A type's key as replies show it: every keyed type shows it as stored. */
export const keyAsStored = (question: { correct_answer: string }): string => question.correct_answer;

/** The key of a type whose author writes it: correct_answer. */
export const keyAsCorrectAnswer = (input: Record<string, unknown>, key: string): Record<string, unknown> => ({
  ...input,
  correct_answer: key,
});

/** What a taker sees of most types: the options, in the attempt's order. */
export const optionsAsStored = (question: ShownQuestion): TakerView => ({ options: [...question.options] });

/** The parts a type scored against a short key has unless it says otherwise: no field of its own, answers up to the limit, its key shown as stored. */
export const SHORT_KEYED = {
  ownFields: [],
  numericKey: false,
  marking: 'key',
  answerProblem: characterLimit,
  answerParts: oneAnswer,
  partLabels: () => null,
  partOutcomes: () => null,
  shownKey: keyAsStored,
  takerView: optionsAsStored,
  derivesKey: false,
  inputWithKey: keyAsCorrectAnswer,
  regradeRefusal: null,
} as const satisfies Partial<QuestionTypeModule>;
