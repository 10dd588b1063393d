import { allOrNothing, characterLimit, numericCorrect } from '../answers';
import type { KeyedQuestion, Marking, PartOutcome, QuestionTypeModule, ShownQuestion } from '../module';
import { parseNumberAnswer } from '../../shared';
import { calculatedExtras, CalculatedInput, normalizeCalculated } from './schema';
import { decimalsOf, drawValues, evaluateFormula } from './formula';
import { choiceMark, choiceTexts, keyChoiceText, shownChoices, valueText } from './choices';

// A number from a formula. Its variables are drawn for each attempt from the attempt's seed (its
// id) and the question's id, so every read of the attempt shows the same values and its scoring
// meets them again without storing them. The right answer is the formula's value for those values;
// an answer within the tolerance of it (absolute, or relative: a share of it) earns the marks, as
// a numeric answer does (a decimal comma read as a point), anything else is wrong.

/** The values an attempt draws for the question. */
const valuesFor = (question: { id?: string; variables?: KeyedQuestion['variables'] }, seed: string) =>
  drawValues(question.variables ?? [], `calculated:${seed}:${question.id ?? ''}`);

/** The right answer for an attempt: the formula's value (NaN when it has none). */
const rightAnswer = (question: Pick<KeyedQuestion, 'id' | 'correct_answer' | 'variables'>, seed: string): number =>
  evaluateFormula(question.correct_answer, valuesFor(question, seed));

/** A value as the review shows it: twelve significant digits, no float noise. */
const shown = (value: number): string => valueText(value);

/** How far answers fall from the right one, as analytics counts them: the bands of the one part of a calculated question. */
const ERROR_BANDS = ['within the tolerance', 'within 1 %', 'within 10 %', 'further', 'not a number'];

/** The answer's error band for the attempt's right answer. */
function errorOutcome(question: KeyedQuestion, answer: string, seed: string): PartOutcome {
  const right = mark(question, answer, seed).share === 1;
  const given = parseNumberAnswer(answer);
  const expected = rightAnswer(question, seed);
  const relative = given === undefined ? Number.NaN : Math.abs(given - expected) / Math.max(Math.abs(expected), 1e-300);
  const choice = right ? 0 : Number.isNaN(relative) ? 4 : relative <= 0.01 ? 1 : relative <= 0.1 ? 2 : 3;
  return { answered: answer.trim().length > 0, earned: right ? 1 : 0, choice };
}

function mark(question: KeyedQuestion, answer: string, seed: string): Marking {
  if (question.choices?.length) return choiceMark(question.choices, valuesFor(question, seed), answer);
  const expected = rightAnswer(question, seed);
  if (Number.isNaN(expected)) return allOrNothing(false);
  const tolerance = Math.max(0, question.tolerance ?? 0);
  const allowed = question.tolerance_type === 'relative' ? Math.abs(expected) * tolerance : tolerance;
  return allOrNothing(numericCorrect(answer, String(expected), allowed));
}

/** The text with each `{name}` written as the attempt's value, with the variable's decimals. */
function textWithValues(question: ShownQuestion, seed: string): string {
  const values = valuesFor(question, seed);
  const decimals = new Map((question.variables ?? []).map((v) => [v.name, v.decimals]));
  return question.question_text.replace(/\{([A-Za-z]\w*)\}/g, (mark, name: string) =>
    name in values ? values[name].toFixed(decimalsOf(decimals.get(name) ?? 0)) : mark,
  );
}

export const calculated: QuestionTypeModule<'calculated', typeof CalculatedInput> = {
  name: 'calculated',
  input: CalculatedInput,
  options: 'none',
  extras: ['variables', 'choices', 'tolerance_type'],
  ownFields: ['tolerance'],
  numericKey: true,
  normalize: normalizeCalculated,
  normalizeExtras: calculatedExtras,
  derivesKey: true,
  inputWithKey: (input, key) => ({ ...input, formula: key }),
  marking: 'key',
  mark,
  answerProblem: characterLimit,
  answerParts: (answer) => [answer],
  partLabels: () => [{ label: 'Error', choices: [...ERROR_BANDS] }],
  partOutcomes: (question, answer, seed) => [errorOutcome(question, answer, seed)],
  // An attempt's review shows its own right answer; elsewhere (the bank) the formula.
  shownKey: (question, seed) =>
    seed === undefined
      ? question.correct_answer
      : question.choices?.length
        ? (keyChoiceText(question.choices, valuesFor(question, seed)) ?? '')
        : shown(rightAnswer(question, seed)),
  takerView: (question, seed) => ({
    options: question.choices?.length
      ? shownChoices(choiceTexts(question.choices, valuesFor(question, seed)), seed, question.id)
      : [],
    question_text: textWithValues(question, seed),
  }),
  htmlOptions: null,
  keyFields: ['correct_answer', 'tolerance', 'marks', 'tolerance_type', 'variables', 'choices'],
  regradeRefusal: null,
};
