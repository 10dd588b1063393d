import { isNumberText } from '../../fieldErrors';
import type { QuestionTypeDefinition } from '../module';
import { asStored, oneChoice } from '../answerText';

const DECIMAL_COMMA_KEY = /^\s*[+-]?\d+,\d+\s*$/;

/** A number, within an optional tolerance of the key. */
export const numeric: QuestionTypeDefinition = {
  type: 'numeric',
  label: 'Numeric',
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
  keyFieldLabels: { tolerance: 'Tolerance' },
  // The key is read as the service reads one: a point for decimals, never a comma.
  keyProblem: ({ correct_text: key }) =>
    isNumberText(key)
      ? null
      : DECIMAL_COMMA_KEY.test(key)
        ? `Write the decimals with a point: ${key.trim().replace(',', '.')}.`
        : 'Write a number, such as 3.14 or -2 (digits, a point for decimals).',
  bodyOf: (draft) => ({
    question_type: 'numeric',
    correct_answer: draft.correct_text,
    tolerance: draft.tolerance.trim() === '' ? null : Number(draft.tolerance),
  }),
  regradeKeyHint: 'A number',
  toleranceInKey: true,
  csvExample: {
    question_text: 'The square root of 2, to two decimals?',
    question_type: 'numeric',
    correct_answer: '1.41',
    marks: '1',
    difficulty: 'medium',
    tolerance: '0.01',
  },
};
