import { parseNumberAnswer, shuffled } from '../../shared';
import { keyOrAlternative, WRONG } from '../answers';
import type { Marking } from '../module';
import type { StoredCalculatedChoice } from '../stored';
import { decimalsOf, evaluateFormula } from './formula';

// Pure: a calculated question with choices (Moodle's calculated multichoice). Each choice is a formula
// over the same variables, shown to the taker as its value for the attempt's draw, in an order of
// the attempt's own; the answer is the chosen value's text, and earns that choice's credit.

/** A value as a choice shows it: with its decimals, else twelve significant digits (no float noise). */
export const valueText = (value: number, decimals?: number): string =>
  decimals === undefined ? String(Number(value.toPrecision(12))) : value.toFixed(decimalsOf(decimals));

/** Each choice's text for these values, in the authored order ('' for one that has no value). */
export const choiceTexts = (
  choices: readonly StoredCalculatedChoice[],
  values: Readonly<Record<string, number>>,
): string[] =>
  choices.map((c) => {
    const value = evaluateFormula(c.formula, values);
    return Number.isNaN(value) ? '' : valueText(value, c.decimals);
  });

/** The choices' texts in the attempt's order: shuffled from the attempt's seed and the question's id. */
export const shownChoices = (texts: readonly string[], seed: string, questionId: string): string[] =>
  shuffled(texts, `calculated-choices:${seed}:${questionId}`);

/** The chosen choice's credit: by its text, else by its value (an answer written with other digits). */
export function choiceMark(
  choices: readonly StoredCalculatedChoice[],
  values: Readonly<Record<string, number>>,
  answer: string,
): Marking {
  const texts = choiceTexts(choices, values);
  let at = texts.indexOf(answer.trim());
  if (at < 0) {
    const given = parseNumberAnswer(answer);
    at = given === undefined ? -1 : texts.findIndex((t) => t !== '' && Number(t) === given);
  }
  if (at < 0) return WRONG;
  const credit = choices[at].credit;
  return keyOrAlternative(credit >= 100, () => Math.max(0, credit) / 100);
}

/** The text of the key's choice (the first with full credit) for these values. */
export function keyChoiceText(
  choices: readonly StoredCalculatedChoice[],
  values: Readonly<Record<string, number>>,
): string | undefined {
  const at = choices.findIndex((c) => c.credit >= 100);
  return at < 0 ? undefined : choiceTexts(choices, values)[at];
}
