import { qtiReading, qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { numeric } from './module';

// A numeric question in QTI: a float text entry (read by the short answer's reader of text
// entries), its response processing comparing it with each answer (qti-equal, within its
// tolerance) and setting its points.

const { Refusal, numberOf, numericBranches, round5, toleranceOf } = qtiReading;
type AlternativeAnswer = qtiReading.AlternativeAnswer;
type InteractionPart = qtiReading.InteractionPart;
type ItemReading = qtiReading.ItemReading;
type NumericBranch = qtiReading.NumericBranch;
type QuestionDraft = qtiReading.QuestionDraft;
type TextEntry = qtiReading.TextEntry;
const { element, escapeText, float, formatNumber, points, setScore, textElement, variable } = qtiWriting;
type ItemParts = qtiWriting.ItemParts;

// ---- Reading

/** A numeric answer, with its tolerance and the further answers our export's branches score. */
export function numericEntry(item: ItemReading, e: TextEntry): InteractionPart {
  if (numberOf(e.answer) === undefined) throw new Refusal(`The correct response "${e.answer}" is not a number`);
  const badAlt = e.alternatives.find((a) => numberOf(a.answer) === undefined);
  if (badAlt) throw new Refusal(`The mapped answer "${badAlt.answer}" is not a number`);
  // Answers scored by branches comparing with `equal` (our export's): the key's and the others' with their tolerance.
  const branches = e.entries.length === 0 ? numericBranches(item.root) : undefined;
  const keyAt = branches?.findIndex((b) => b.score === 'max' && numberOf(b.answer) === numberOf(e.answer)) ?? -1;
  const equal = branches && keyAt >= 0 ? branches[keyAt].equal : item.rules.equal;
  const tolerance = toleranceOf(equal, numberOf(e.answer)!, item.warnings);
  const scored = branches && keyAt >= 0 ? branchAnswers(branches, keyAt, e.marks, item.warnings) : [];
  const alternatives = [...e.alternatives, ...scored];
  const draft: Partial<QuestionDraft> = {
    question_type: numeric.name,
    correct_answer: e.answer,
    ...(tolerance !== undefined ? { tolerance } : {}),
    ...(alternatives.length > 0 ? { alternatives } : {}),
  };
  return { draft, marks: e.marks };
}

/** The further answers a numeric item's branches score (all but the key's), each with its own tolerance. */
function branchAnswers(
  branches: NumericBranch[],
  keyAt: number,
  marks: number,
  warnings: Set<string>,
): AlternativeAnswer[] {
  const answers: AlternativeAnswer[] = [];
  for (const [i, b] of branches.entries()) {
    const value = numberOf(b.answer);
    if (i === keyAt || value === undefined) continue;
    const points = b.score === 'max' ? marks : b.score;
    if (points < 0 || points > marks)
      throw new Refusal(`The answer ${b.answer} scores ${points}, outside 0 to ${marks}`);
    const credit = round5((points / marks) * 100);
    const own = toleranceOf(b.equal, value, warnings);
    answers.push({ answer: b.answer, credit, ...(own !== undefined ? { tolerance: own } : {}) });
  }
  return answers;
}

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

export const numericQti: QtiMapping = {
  type: numeric.name,
  write: numericItem,
};
