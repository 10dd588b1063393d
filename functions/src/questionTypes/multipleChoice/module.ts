import { allOrNothing, SHORT_KEYED } from '../answers';
import { comparable } from '../fields';
import type { KeyedQuestion, QuestionTypeModule } from '../module';
import { MultipleChoiceInput, normalizeMultipleChoice } from './schema';

// One correct option among the author's: the chosen option equals the key compared with `comparable`
// (NFKC, trimmed, inner spacing collapsed, case folded).

const isCorrect = (question: KeyedQuestion, answer: string): boolean =>
  comparable(answer) === comparable(question.correct_answer);

export const multipleChoice: QuestionTypeModule<'multiple_choice', typeof MultipleChoiceInput> = {
  name: 'multiple_choice',
  input: MultipleChoiceInput,
  ...SHORT_KEYED,
  options: 'authored',
  extras: ['option_feedback'],
  normalize: normalizeMultipleChoice,
  normalizeExtras: () => ({}),
  mark: (question, answer) => allOrNothing(isCorrect(question, answer)),
  htmlOptions: 'one',
  keyFields: ['correct_answer', 'marks'],
};
