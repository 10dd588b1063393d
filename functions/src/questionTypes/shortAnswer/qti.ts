import { qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { shortAnswer } from './module';

// A short answer in QTI: a text entry whose mapping scores the answer and each alternative
// (case-sensitive as the question is).

const { element, formatNumber, mappedScore, points, textElement } = qtiWriting;
type ItemParts = qtiWriting.ItemParts;

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

export const shortAnswerQti: QtiMapping = { type: shortAnswer.name, write: textEntryItem };
