import type { QuestionTypeDefinition } from '../module';

// An answer and a key hold the chosen options joined by "|" (no option may contain one).
const SEPARATOR = '|';

/** The options an answer or a key holds. */
export const choicesOf = (answer: string): string[] => (answer ? answer.split(SEPARATOR) : []);

/** An answer or a key holding the chosen options, in the options' order. */
export const joinChoices = (options: string[], chosen: (option: string) => boolean): string =>
  options.filter(chosen).join(SEPARATOR);

/** One or more correct options among those the author writes. */
export const multipleSelect: QuestionTypeDefinition = {
  type: 'multiple_select',
  label: 'Multiple select',
  hasOptions: true,
  maxOptions: 10,
  textInAnswer: false,
  fixedOptions: null,
  legendNote: 'Select all that apply.',
  takesAnswer: true,
  markedByPerson: false,
  chosenOptions: choicesOf,
  // A list ("Python, Rust"), not the "|" the service stores.
  shownAnswer: (answer) =>
    answer
      .split(SEPARATOR)
      .filter((part) => part.trim() !== '')
      .join(', '),
  keyDraftOf: (q) => ({ correct_choices: (q.correct_answer ?? '').split(SEPARATOR).filter(Boolean) }),
  keyLabel: 'Correct options',
  keyFieldLabels: {},
  keyProblem: (draft, options) =>
    options.some((o) => draft.correct_choices.includes(o)) ? null : 'Tick at least one correct option.',
  bodyOf: (draft, options) => ({
    question_type: 'multiple_select',
    options,
    correct_answer: joinChoices(options, (o) => draft.correct_choices.includes(o)),
  }),
  regradeKeyHint: 'The right options’ texts joined by "|"',
  toleranceInKey: false,
  csvExample: {
    question_text: 'Which numbers are prime?',
    question_type: 'multiple_select',
    options: '2|3|4|6',
    correct_answer: '2|3',
    marks: '2',
    difficulty: 'medium',
    option_credits: '50|50|-50|-50',
  },
};
