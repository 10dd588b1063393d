import type { QuestionTypeDefinition } from '../module';

/** Text and media with no answer and no marks (instructions, a reading passage): nothing to key. */
export const description: QuestionTypeDefinition = {
  type: 'description',
  label: 'Description',
  hasOptions: false,
  maxOptions: 0,
  textInAnswer: false,
  fixedOptions: null,
  legendNote: null,
  takesAnswer: false,
  markedByPerson: false,
  chosenOptions: () => [],
  shownAnswer: () => '',
  keyDraftOf: () => ({}),
  keyLabel: 'Answer',
  keyFieldLabels: {},
  keyProblem: () => null,
  // Its marks are not sent: the service takes none (absent or 0).
  bodyOf: () => ({ question_type: 'description' }),
  regradeKeyHint: null,
  toleranceInKey: false,
  // A row with no options, no key and no marks.
  csvExample: {
    question_text: 'Read the passage below, then answer the questions that follow it.',
    question_type: 'description',
    difficulty: 'easy',
  },
};
