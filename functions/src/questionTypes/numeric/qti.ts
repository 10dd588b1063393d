import { qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { numeric } from './module';

// A numeric question in QTI: a float text entry whose response processing compares it with each
// answer (qti-equal, within its tolerance) and sets its points.

const { element, escapeText, float, formatNumber, points, setScore, textElement, variable } = qtiWriting;
type ItemParts = qtiWriting.ItemParts;

// ---- Writing

function numericItem(q: ExportQuestion): ItemParts {
  const equal = (answer: string, tolerance: number | null | undefined) =>
    element(
      'qti-equal',
      tolerance === null || tolerance === undefined
        ? { 'tolerance-mode': 'exact' }
        : { 'tolerance-mode': 'absolute', tolerance: `${formatNumber(tolerance)} ${formatNumber(tolerance)}` },
      variable('RESPONSE') + element('qti-base-value', { 'base-type': 'float' }, escapeText(answer.trim())),
    );
  const branches = [
    element('qti-response-else-if', {}, equal(q.correct_answer, q.tolerance) + setScore(variable('MAXSCORE'))),
    ...(q.alternatives ?? []).map((a) =>
      element('qti-response-else-if', {}, equal(a.answer, a.tolerance) + setScore(float(points(q, a.credit)))),
    ),
  ];
  return {
    declarations: element(
      'qti-response-declaration',
      { identifier: 'RESPONSE', cardinality: 'single', 'base-type': 'float' },
      element('qti-correct-response', {}, textElement('qti-value', q.correct_answer.trim())),
    ),
    interaction: element('p', {}, element('qti-text-entry-interaction', { 'response-identifier': 'RESPONSE' })),
    processing: element(
      'qti-response-condition',
      {},
      element('qti-response-if', {}, element('qti-is-null', {}, variable('RESPONSE')) + setScore(float(0))) +
        branches.join('') +
        element('qti-response-else', {}, setScore(float(0))),
    ),
  };
}

export const numericQti: QtiMapping = { type: numeric.name, write: numericItem };
