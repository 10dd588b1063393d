import { qtiReading, qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { shortAnswer } from './module';
import { numericEntry } from '../numeric/qti';

// A short answer in QTI: a text entry whose mapping scores the answer and each alternative
// (case-sensitive as the question is). Text entries are read here: a float or integer one is a
// numeric question.

const { Refusal, attr, readTextEntry } = qtiReading;
type InteractionPart = qtiReading.InteractionPart;
type ItemReading = qtiReading.ItemReading;
type QuestionDraft = qtiReading.QuestionDraft;
type TextEntry = qtiReading.TextEntry;
const { element, formatNumber, mappedScore, points, textElement } = qtiWriting;
type ItemParts = qtiWriting.ItemParts;

// ---- Reading

/** A text entry: a numeric answer (float or integer) or a short answer (string). */
function textEntryInteraction(item: ItemReading): InteractionPart {
  const { warnings } = item;
  const baseType = attr(item.declaration!, 'baseType') ?? 'string';
  const numeric = baseType === 'float' || baseType === 'integer';
  if (!numeric && baseType !== 'string')
    throw new Refusal(`A text entry with base type "${baseType}" is not a question type the bank supports`);
  const entry = readTextEntry(item, numeric);
  const part = numeric ? numericEntry(item, entry) : shortAnswerEntry(item, entry);
  if (attr(item.interaction, 'patternMask')) warnings.add('The answer pattern (patternMask) was not carried');
  return part;
}

/** A short answer, case-sensitive as its mapping (or `match`) compares. */
function shortAnswerEntry(item: ItemReading, e: TextEntry): InteractionPart {
  const flags = new Set(e.entries.map((entry) => entry.caseSensitive));
  if (flags.size > 1)
    item.warnings.add(
      `Map entries differ in case sensitivity; the question is case-${e.caseSensitive ? 'sensitive' : 'insensitive'} throughout`,
    );
  const draft: Partial<QuestionDraft> = {
    question_type: shortAnswer.name,
    correct_answer: e.answer,
    case_sensitive: e.caseSensitive,
    ...(e.alternatives.length > 0 ? { alternatives: e.alternatives } : {}),
  };
  return { draft, marks: e.marks };
}

// ---- Writing

function textEntryItem(q: ExportQuestion): ItemParts {
  const caseSensitive = q.case_sensitive ? 'true' : 'false';
  const entries = [{ answer: q.correct_answer, credit: 100 }, ...(q.alternatives ?? [])]
    .map((a) =>
      element('qti-map-entry', {
        'map-key': a.answer,
        'mapped-value': formatNumber(points(q, a.credit)),
        'case-sensitive': caseSensitive,
      }),
    )
    .join('');
  return {
    declarations: element(
      'qti-response-declaration',
      { identifier: 'RESPONSE', cardinality: 'single', 'base-type': 'string' },
      element('qti-correct-response', {}, textElement('qti-value', q.correct_answer)) +
        element(
          'qti-mapping',
          { 'default-value': '0', 'lower-bound': '0', 'upper-bound': formatNumber(q.marks) },
          entries,
        ),
    ),
    interaction: element('p', {}, element('qti-text-entry-interaction', { 'response-identifier': 'RESPONSE' })),
    processing: mappedScore(),
  };
}

export const shortAnswerQti: QtiMapping = {
  type: shortAnswer.name,
  readers: { textEntryInteraction: { read: textEntryInteraction } },
  write: textEntryItem,
};
