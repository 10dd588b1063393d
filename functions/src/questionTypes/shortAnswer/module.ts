import { bestAlternative, keyOrAlternative, sameText, SHORT_KEYED } from '../answers';
import type { KeyedQuestion, QuestionTypeModule } from '../module';
import { normalizeShortAnswer, ShortAnswerInput, shortAnswerExtras } from './schema';

// Free text: equal to the key compared with `comparable` (trimmed, case- and space-insensitive: casing or
// spacing never makes an answer wrong). With case_sensitive, compared with `exactComparable` instead (NFKC,
// trimmed, spacing collapsed, case kept), for the key and the alternatives. With `alternatives`: an answer
// matching the key earns the marks; otherwise the alternative it matches with the highest credit earns
// credit / 100 × marks. Matching only alternatives of credit 0, or none, is a wrong answer.

const isCorrect = (question: KeyedQuestion, answer: string): boolean =>
  sameText(question, answer, question.correct_answer);

export const shortAnswer: QuestionTypeModule<'short_answer', typeof ShortAnswerInput> = {
  name: 'short_answer',
  input: ShortAnswerInput,
  ...SHORT_KEYED,
  options: 'none',
  extras: ['alternatives', 'case_sensitive'],
  normalize: normalizeShortAnswer,
  normalizeExtras: shortAnswerExtras,
  mark: (question, answer) =>
    keyOrAlternative(isCorrect(question, answer), () =>
      bestAlternative(question, (alternative) => sameText(question, answer, alternative.answer)),
    ),
  htmlOptions: null,
  keyFields: ['correct_answer', 'marks', 'alternatives', 'case_sensitive'],
};
