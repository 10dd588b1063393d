import { qtiReading, qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { trueFalse } from './module';

// A true/false in QTI: a choice interaction of one choice between True and False (read by the
// multiple choice's reader of choice interactions), written identified TRUE and FALSE.

const { withOptionFeedback } = qtiReading;
type ChoiceReading = qtiReading.ChoiceReading;
type InteractionPart = qtiReading.InteractionPart;
const { choiceParts } = qtiWriting;
type ExportMedia = qtiWriting.ExportMedia;

// ---- Reading

/** Whether a single choice is between True and False (in any case and order). */
export const isTrueFalse = (options: string[]) =>
  options.length === 2 &&
  [...options]
    .map((o) => o.toLowerCase())
    .sort()
    .join() === 'false,true';

/** A single choice between True and False: its key, and its options' feedback in True, False order. */
export function trueFalseChoice(c: ChoiceReading, correctText: string, marks: number): InteractionPart {
  const order = c.options.map((o) => o.toLowerCase());
  const feedback = ['true', 'false'].map((o) => c.feedback[order.indexOf(o)]);
  const correctAnswer = correctText.toLowerCase() === 'true' ? 'True' : 'False';
  const draft = {
    question_type: trueFalse.name,
    correct_answer: correctAnswer,
    ...withOptionFeedback(feedback),
  };
  return { draft, marks, optionFeedback: feedback };
}

// ---- Writing

const TRUE_FALSE_IDS = ['TRUE', 'FALSE'] as const;

/** Its choices True and False (identified TRUE and FALSE), the one right its key. */
const trueFalseItem = (q: ExportQuestion, media: ExportMedia, notes: string[]) =>
  choiceParts(q, media, notes, { ids: [...TRUE_FALSE_IDS], correct: new Set([q.correct_answer]), multiple: false });

export const trueFalseQti: QtiMapping = {
  type: trueFalse.name,
  write: trueFalseItem,
};
