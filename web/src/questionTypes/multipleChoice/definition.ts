import type { QuestionTypeDefinition } from '../module';
import { asStored, oneChoice } from '../answerText';

/** One correct option among those the author writes. */
export const multipleChoice: QuestionTypeDefinition = {
  type: 'multiple_choice',
  label: 'Multiple choice',
  hasOptions: true,
  maxOptions: 10,
  textInAnswer: false,
  fixedOptions: null,
  legendNote: null,
  takesAnswer: true,
  markedByPerson: false,
  chosenOptions: oneChoice,
  shownAnswer: asStored,
  keyDraftOf: (q) => ({ correct_choice: q.correct_answer ?? '' }),
  keyLabel: 'Correct option',
  keyFieldLabels: {},
  keyProblem: (draft, options) =>
    draft.correct_choice === ''
      ? 'Choose the correct option.'
      : !options.includes(draft.correct_choice)
        ? `“${draft.correct_choice}” is no longer an option: choose the correct option again.`
        : null,
  bodyOf: (draft, options) => ({ question_type: 'multiple_choice', options, correct_answer: draft.correct_choice }),
  regradeKeyHint: 'The right option’s text',
  toleranceInKey: false,
  csvExample: {
    question_text: 'What is the capital of France?',
    question_type: 'multiple_choice',
    options: 'Paris|Rome|Madrid',
    correct_answer: 'Paris',
    marks: '1',
    difficulty: 'easy',
    title: 'Capital of France',
    option_feedback: 'Right.|Rome is the capital of Italy.|Madrid is the capital of Spain.',
  },
};
