import type { QuestionTypeDefinition } from '../module';
import { asStored, oneChoice } from '../answerText';
import { wordCount } from './wordCount';

/** The most an essay's "Max words" may be (the API's MAX_ESSAY_WORDS). */
export const MAX_ESSAY_WORDS = 10_000;
/** The most files an essay may take (the API's MAX_ESSAY_ATTACHMENTS). */
export const MAX_ESSAY_ATTACHMENTS = 5;

const countOrNull = (text: string): number | null => (text.trim() === '' ? null : Number(text));

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
  keyDraftOf: (q) => ({
    ...(q.attachments ? { attachments: String(q.attachments) } : {}),
    ...(q.attachments_required ? { attachments_required: String(q.attachments_required) } : {}),
  }),
  keyLabel: 'Correct answer',
  keyFieldLabels: {
    max_words: 'Max words',
    attachments: 'Files the student may attach',
    attachments_required: 'Files the student must attach',
  },
  keyProblem: () => null,
  // Files only when it takes some: an essay without them is as it always was.
  bodyOf: (draft) => ({
    question_type: 'essay',
    max_words: countOrNull(draft.max_words),
    ...(countOrNull(draft.attachments) ? { attachments: countOrNull(draft.attachments) } : {}),
    ...(countOrNull(draft.attachments_required)
      ? { attachments_required: countOrNull(draft.attachments_required) }
      : {}),
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
