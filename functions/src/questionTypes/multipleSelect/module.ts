import { allOrNothing, choiceSet, sameSet, SHORT_KEYED } from '../answers';
import { comparable, OPTION_SEPARATOR } from '../fields';
import type { KeyedQuestion, Marking, QuestionTypeModule } from '../module';
import { MultipleSelectInput, multipleSelectExtras, normalizeMultipleSelect } from './schema';

// One or more correct options, the answer the chosen options joined by "|"; each part is compared with
// `comparable`, empty parts are ignored and repeats count once.
// - ALL-OR-NOTHING without option_credits: correct only when the chosen set equals the key's set exactly;
//   any missing or extra option makes it wrong, and a wrong answer costs negative marks like any other.
//   (Partial credit together with negative marking would reward guessing every option.)
// - With option_credits (one per option, −100 to 100): the answer earns clamp(Σ credits of the options
//   chosen / 100 × marks, 0, marks), a choice matching no option adding 0. This replaces both
//   all-or-nothing and negative marking for the question: a negative credit lowers the sum, never the
//   score below 0.

const isCorrect = (question: KeyedQuestion, answer: string): boolean => {
  const given = choiceSet(answer);
  return given.size > 0 && sameSet(given, choiceSet(question.correct_answer));
};

/** Σ credits of the options chosen (each counted once; a choice matching no option adds 0), as a share clamped to 0..1. */
function creditShare(credits: number[], options: string[], answer: string): number {
  const chosen = choiceSet(answer);
  const sum = options.reduce(
    (total, option, i) => (chosen.has(comparable(option)) ? total + (credits[i] ?? 0) : total),
    0,
  );
  return Math.min(1, Math.max(0, sum / 100));
}

function mark(question: KeyedQuestion, answer: string): Marking {
  const credits = question.option_credits;
  if (credits && credits.length > 0) return { share: creditShare(credits, question.options, answer) };
  return allOrNothing(isCorrect(question, answer));
}

export const multipleSelect: QuestionTypeModule<'multiple_select', typeof MultipleSelectInput> = {
  name: 'multiple_select',
  input: MultipleSelectInput,
  ...SHORT_KEYED,
  options: 'authored',
  extras: ['option_feedback', 'option_credits'],
  normalize: normalizeMultipleSelect,
  normalizeExtras: multipleSelectExtras,
  mark,
  answerParts: (answer) => answer.split(OPTION_SEPARATOR),
  htmlOptions: 'several',
  keyFields: ['correct_answer', 'marks', 'option_credits'],
};
