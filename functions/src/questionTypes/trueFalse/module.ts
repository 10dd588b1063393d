import { allOrNothing, SHORT_KEYED } from '../answers';
import { comparable } from '../fields';
import type { KeyedQuestion, QuestionTypeModule } from '../module';
import { normalizeTrueFalse, TrueFalseInput } from './schema';

// True or false: "true"/"false" in any case and spacing, equal to the key.

const isCorrect = (question: KeyedQuestion, answer: string): boolean => {
  const given = comparable(answer);
  return (given === 'true' || given === 'false') && given === comparable(question.correct_answer);
};

export const trueFalse: QuestionTypeModule<'true_false', typeof TrueFalseInput> = {
  name: 'true_false',
  input: TrueFalseInput,
  ...SHORT_KEYED,
  options: 'fixed',
  extras: ['option_feedback'],
  normalize: normalizeTrueFalse,
  normalizeExtras: () => ({}),
  mark: (question, answer) => allOrNothing(isCorrect(question, answer)),
  htmlOptions: null,
  keyFields: ['correct_answer', 'marks'],
};
