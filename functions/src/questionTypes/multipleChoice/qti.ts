import { qtiReading, qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { multipleChoice } from './module';
import { selectedChoices } from '../multipleSelect/qti';
import { isTrueFalse, trueFalseChoice } from '../trueFalse/qti';

// A multiple choice in QTI: a choice interaction of one choice. The choice interaction is read here
// whatever it is: a true/false when its options are True and False, a multiple select when several
// may be chosen.

const { Refusal, readChoices, withOptionFeedback } = qtiReading;
type ChoiceReading = qtiReading.ChoiceReading;
type InteractionPart = qtiReading.InteractionPart;
type ItemReading = qtiReading.ItemReading;
const { choiceIds, choiceParts } = qtiWriting;
type ExportMedia = qtiWriting.ExportMedia;

// ---- Reading

/** A choice interaction: one choice (a multiple choice, or a true/false) or several (a multiple select). */
function choiceInteraction(item: ItemReading): InteractionPart {
  const reading = readChoices(item);
  const part = reading.maxChoices === 1 ? singleChoice(item, reading) : selectedChoices(item, reading);
  return { ...part, carried: reading.carried };
}

/** One choice: a true/false question when the options are True and False, else multiple choice. */
function singleChoice(item: ItemReading, c: ChoiceReading): InteractionPart {
  let correctId = c.correct[0];
  if (!correctId && c.positive.length > 0) correctId = [...c.positive].sort((a, b) => b.value - a.value)[0].key;
  if (!correctId) throw new Refusal('The item has no correct response');
  if (c.correct.length > 1) item.warnings.add('More than one correct response for a single choice: the first was used');
  const top = c.positive.find((e) => e.key === correctId)?.value;
  if (c.positive.some((e) => e.key !== correctId))
    item.warnings.add('Partial credit for other choices was not carried: a single choice is right or wrong');
  const marks = item.marks ?? top ?? 1;
  const correctText = c.options[c.ids.indexOf(correctId)];
  if (isTrueFalse(c.options)) return trueFalseChoice(c, correctText, marks);
  const draft = { question_type: multipleChoice.name, options: c.options, correct_answer: correctText };
  return { draft: { ...draft, ...withOptionFeedback(c.feedback) }, marks, optionFeedback: c.feedback };
}

// ---- Writing

/** Choices C1, C2…, the one right choice its key. */
const choiceItem = (q: ExportQuestion, media: ExportMedia, notes: string[]) =>
  choiceParts(q, media, notes, { ids: choiceIds(q), correct: new Set([q.correct_answer]), multiple: false });

export const multipleChoiceQti: QtiMapping = {
  type: multipleChoice.name,
  readers: { choiceInteraction: { read: choiceInteraction } },
  write: choiceItem,
};
