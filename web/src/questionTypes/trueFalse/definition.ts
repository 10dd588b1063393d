import type { QuestionTypeDefinition } from '../module';
import { asStored, oneChoice } from '../answerText';

// Its two options are the type's, not the author's.
const TRUE_FALSE = ['True', 'False'];

/** True or False. */
export const trueFalse: QuestionTypeDefinition = {
  type: 'true_false',
  label: 'True/false',
  hasOptions: false,
  maxOptions: 0,
  textInAnswer: false,
  fixedOptions: TRUE_FALSE,
  legendNote: null,
  takesAnswer: true,
  markedByPerson: false,
  chosenOptions: oneChoice,
  shownAnswer: asStored,
  keyDraftOf: (q) => ({ truth: (q.correct_answer ?? '').toLowerCase() === 'false' ? 'False' : 'True' }),
  keyLabel: 'Correct answer',
  keyFieldLabels: {},
  keyProblem: () => null,
  bodyOf: (draft) => ({ question_type: 'true_false', options: [...TRUE_FALSE], correct_answer: draft.truth }),
  regradeKeyHint: 'True or False',
  toleranceInKey: false,
  csvExample: {
    question_text: 'Water boils at 100 °C at sea level.',
    question_type: 'true_false',
    correct_answer: 'True',
    marks: '1',
    difficulty: 'easy',
    feedback: 'At standard pressure, yes.',
  },
};
