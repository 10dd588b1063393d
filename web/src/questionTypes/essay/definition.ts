import type { QuestionTypeDefinition } from '../module';
import { asStored, oneChoice } from '../answerText';
import { wordCount } from './wordCount';

/** The most an essay's "Max words" may be (the API's MAX_ESSAY_WORDS). */
export const MAX_ESSAY_WORDS = 10_000;

/** Whether an answer has more words than the essay allows (null: no limit). */
export const overWordLimit = (text: string, maxWords: number | null): boolean =>
  maxWords !== null && wordCount(text) > maxWords;

/** A free text marked by a person: no key. */
export const essay: QuestionTypeDefinition = {
  type: 'essay',
  label: 'Essay',
  hasOptions: false,
  maxOptions: 0,
  textInAnswer: false,
  fixedOptions: null,
  legendNote: null,
  takesAnswer: true,
  markedByPerson: true,
  chosenOptions: oneChoice,
  shownAnswer: asStored,
  keyDraftOf: () => ({}),
  keyLabel: 'Correct answer',
  keyFieldLabels: { max_words: 'Max words' },
  keyProblem: () => null,
  bodyOf: (draft) => ({
    question_type: 'essay',
    max_words: draft.max_words.trim() === '' ? null : Number(draft.max_words),
  }),
  regradeKeyHint: null,
  toleranceInKey: false,
  csvExample: {
    question_text: 'Explain how <b>photosynthesis</b> stores energy.',
    question_type: 'essay',
    marks: '5',
    difficulty: 'hard',
    max_words: '300',
    text_format: 'html',
  },
};
