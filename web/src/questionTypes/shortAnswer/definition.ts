import type { QuestionTypeDefinition } from '../module';
import { asStored, oneChoice } from '../answerText';

/** A typed answer compared with the key (and any further accepted answers). */
export const shortAnswer: QuestionTypeDefinition = {
  type: 'short_answer',
  label: 'Short answer',
  hasOptions: false,
  maxOptions: 0,
  textInAnswer: false,
  fixedOptions: null,
  legendNote: null,
  takesAnswer: true,
  markedByPerson: false,
  chosenOptions: oneChoice,
  shownAnswer: asStored,
  keyDraftOf: (q) => ({ correct_text: q.correct_answer ?? '' }),
  keyLabel: 'Correct answer',
  keyFieldLabels: {},
  keyProblem: () => null,
  bodyOf: (draft) => ({ question_type: 'short_answer', correct_answer: draft.correct_text }),
  regradeKeyHint: 'The accepted answer',
  toleranceInKey: false,
  csvExample: {
    question_text: 'The chemical symbol of sodium?',
    question_type: 'short_answer',
    correct_answer: 'Na',
    marks: '1',
    difficulty: 'medium',
    alternatives: 'Sodium:50',
    case_sensitive: 'true',
  },
};
