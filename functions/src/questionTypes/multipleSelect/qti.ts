import { qtiReading, qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { multipleSelect } from './module';

// A multiple select in QTI: a choice interaction of any number of choices (read by the multiple
// choice's reader of choice interactions), scored by the mapping of its credits when it has them.

const { Refusal, round5, withOptionFeedback } = qtiReading;
type ChoiceReading = qtiReading.ChoiceReading;
type InteractionPart = qtiReading.InteractionPart;
type ItemReading = qtiReading.ItemReading;
type Mapping = qtiReading.Mapping;
type QuestionDraft = qtiReading.QuestionDraft;
const { choiceIds, choiceParts, correctOptions } = qtiWriting;
type ExportMedia = qtiWriting.ExportMedia;

// ---- Reading

/** Several choices: a multiple select, scored by its mapping's credits when the item scores by one. */
export function selectedChoices(item: ItemReading, c: ChoiceReading): InteractionPart {
  const { maxChoices } = c;
  const correctIds = c.correct.length > 0 ? c.correct : c.positive.map((e) => e.key);
  if (correctIds.length === 0) throw new Refusal('The item has no correct response');
  const ordered = c.ids.filter((id) => correctIds.includes(id));
  const draft: Partial<QuestionDraft> = {
    question_type: multipleSelect.name,
    options: c.options,
    correct_answer: ordered.map((id) => c.options[c.ids.indexOf(id)]).join('|'),
    ...withOptionFeedback(c.feedback),
  };
  if (maxChoices > 1 && maxChoices < c.ids.length)
    item.warnings.add(`At most ${maxChoices} choices could be selected in QTI; the bank does not limit the selection`);
  if (!item.useMapping || !item.mapping) return { draft, marks: item.marks ?? 1, optionFeedback: c.feedback };
  const { credits, marks } = mappedCredits(item, item.mapping, c);
  return { draft: { ...draft, option_credits: credits }, marks, optionFeedback: c.feedback };
}

/** A multiple select's credits from its mapping: points as shares of the declared maximum when they fit, else of the positives' total. */
function mappedCredits(item: ItemReading, mapping: Mapping, c: ChoiceReading): { credits: number[]; marks: number } {
  const { warnings } = item;
  const declared = item.marks;
  const total = c.positive.reduce((sum, e) => sum + e.value, 0);
  if (total <= 0) throw new Refusal('The mapping gives no choice a positive score');
  const values = c.ids.map((id) => mapping.entries.find((e) => e.key === id)?.value ?? mapping.defaultValue);
  const byMarks =
    declared !== undefined &&
    (mapping.upperBound === undefined ? total <= declared : mapping.upperBound === declared) &&
    values.every((v) => Math.abs(v) <= declared + 1e-9);
  const scale = byMarks ? declared : total;
  const credits = values.map((value) => (value / scale) * 100);
  const kept = credits.map((credit) => round5(Math.max(-100, credit)));
  const marks = declared ?? (mapping.upperBound !== undefined ? Math.min(mapping.upperBound, total) : total);
  if (!byMarks && Math.abs(total - marks) > 1e-9)
    warnings.add(
      `The mapped scores (positive entries totalling ${total}) were scaled to credits of the ${marks} marks`,
    );
  if (credits.some((credit, i) => Math.abs(credit - kept[i]) > 1e-9))
    warnings.add('Option credits were rounded to 5 decimals or capped at −100');
  if (mapping.defaultValue !== 0)
    warnings.add(`The mapping's default value ${mapping.defaultValue} applies to every unmapped choice`);
  if (kept.some((credit) => credit < 0) && (mapping.lowerBound === undefined || mapping.lowerBound < 0))
    warnings.add('A total below 0 counts as 0 in the bank (the QTI mapping had no lower bound of 0)');
  return { credits: kept, marks };
}

// ---- Writing

/** Choices C1, C2…, the right ones its key, each scored by its credit when the question has credits. */
const choicesItem = (q: ExportQuestion, media: ExportMedia, notes: string[]) =>
  choiceParts(q, media, notes, { ids: choiceIds(q), correct: correctOptions(q), multiple: true });

export const multipleSelectQti: QtiMapping = {
  type: multipleSelect.name,
  write: choicesItem,
};
