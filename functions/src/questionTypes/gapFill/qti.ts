import { qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { gapFill } from './module';

// A gap fill in QTI: each gap an interaction in the text (a text entry, an inline choice, or a gap
// of one gap match holding the text when any gap is a drag), numbered as the question numbers it.

const {
  correctResponse,
  element,
  escapeText,
  float,
  formatNumber,
  inlineChoiceText,
  mappingElement,
  setScore,
  textBlock,
  variable,
} = qtiWriting;
type AlternativeAnswer = qtiWriting.AlternativeAnswer;
type ExportMedia = qtiWriting.ExportMedia;
type GapDraft = qtiWriting.GapDraft;
type ItemParts = qtiWriting.ItemParts;

// ---- Writing

/** On each gap of our export: its number in the question (`[[n]]`), which text order need not be. */
export const GAP_NUMBER_ATTRIBUTE = 'data-gap';

/** A gap's points: its weight's share of the marks, times an answer's credit. */
function gapPoints(q: ExportQuestion): (gap: GapDraft, credit: number) => number {
  const total = (q.gaps ?? []).reduce((sum, g) => sum + (g.weight ?? 1), 0);
  return (gap, credit) => (total > 0 ? (q.marks * (gap.weight ?? 1) * credit) / total / 100 : 0);
}

const gapResponse = (n: number) => `RESPONSE_${n}`;
const DRAG_RESPONSE = 'RESPONSE';

/** SCORE plus a response's mapped points, when it was answered. */
const addMapped = (response: string) =>
  element(
    'qti-response-condition',
    {},
    element(
      'qti-response-if',
      {},
      element('qti-not', {}, element('qti-is-null', {}, variable(response))) +
        setScore(element('qti-sum', {}, variable('SCORE') + element('qti-map-response', { identifier: response }))),
    ),
  );

/** SCORE plus a numeric gap's points for the first of its answers (best first) the response equals within tolerance. */
function addNumeric(response: string, answers: AlternativeAnswer[], points: (credit: number) => number): string {
  const branches = [...answers]
    .sort((a, b) => b.credit - a.credit)
    .map((a, i) =>
      element(
        i === 0 ? 'qti-response-if' : 'qti-response-else-if',
        {},
        element(
          'qti-equal',
          a.tolerance
            ? { 'tolerance-mode': 'absolute', tolerance: `${formatNumber(a.tolerance)} ${formatNumber(a.tolerance)}` }
            : { 'tolerance-mode': 'exact' },
          variable(response) + element('qti-base-value', { 'base-type': 'float' }, escapeText(a.answer.trim())),
        ) + setScore(element('qti-sum', {}, variable('SCORE') + float(points(a.credit)))),
      ),
    );
  return element('qti-response-condition', {}, branches.join(''));
}

/** One typed or drop-down gap: its declaration, its interaction, its scoring. */
function gapParts(q: ExportQuestion, gap: GapDraft, n: number, notes: string[]): ItemParts {
  const response = gapResponse(n);
  const points = (credit: number) => gapPoints(q)(gap, credit);
  const first = gap.answers.find((a) => a.credit === 100) ?? gap.answers[0];
  if (gap.kind === 'numeric')
    return {
      declarations: element(
        'qti-response-declaration',
        { identifier: response, cardinality: 'single', 'base-type': 'float' },
        correctResponse([first.answer.trim()]),
      ),
      interaction: element('qti-text-entry-interaction', {
        'response-identifier': response,
        [GAP_NUMBER_ATTRIBUTE]: String(n),
      }),
      processing: addNumeric(response, gap.answers, points),
    };
  if (gap.kind === 'select') {
    const options = gap.options ?? [];
    const id = (text: string) => `G${n}_C${options.indexOf(text) + 1}`;
    return {
      declarations: element(
        'qti-response-declaration',
        { identifier: response, cardinality: 'single', 'base-type': 'identifier' },
        correctResponse([id(first.answer)]) +
          mappingElement(
            q,
            gap.answers.map((a) => [id(a.answer), points(a.credit)]),
          ),
      ),
      interaction: element(
        'qti-inline-choice-interaction',
        { 'response-identifier': response, shuffle: 'false', [GAP_NUMBER_ATTRIBUTE]: String(n) },
        options.map((o) => element('qti-inline-choice', { identifier: id(o) }, inlineChoiceText(q, o, notes))).join(''),
      ),
      processing: addMapped(response),
    };
  }
  return {
    declarations: element(
      'qti-response-declaration',
      { identifier: response, cardinality: 'single', 'base-type': 'string' },
      correctResponse([first.answer]) +
        mappingElement(
          q,
          gap.answers.map((a) => [a.answer, points(a.credit)]),
          gap.case_sensitive === true,
        ),
    ),
    interaction: element('qti-text-entry-interaction', {
      'response-identifier': response,
      [GAP_NUMBER_ATTRIBUTE]: String(n),
    }),
    processing: addMapped(response),
  };
}

/** The drag gaps as one gap match: chips T1…, gaps G1… by their number; a chip in a gap earns that answer's points. */
function dragParts(q: ExportQuestion, notes: string[]): Omit<ItemParts, 'interaction'> & { chips: string } {
  const chips = q.drag_options ?? [];
  const points = gapPoints(q);
  const pairs = (q.gaps ?? []).flatMap((gap, i) =>
    gap.kind === 'drag'
      ? gap.answers.map((a): [string, number] => [`T${chips.indexOf(a.answer) + 1} G${i + 1}`, points(gap, a.credit)])
      : [],
  );
  const correct = (q.gaps ?? []).flatMap((gap, i) => {
    const first = gap.answers.find((a) => a.credit === 100) ?? gap.answers[0];
    return gap.kind === 'drag' && first ? [`T${chips.indexOf(first.answer) + 1} G${i + 1}`] : [];
  });
  const matchMax = q.drag_reusable ? '0' : '1';
  return {
    declarations: element(
      'qti-response-declaration',
      { identifier: DRAG_RESPONSE, cardinality: 'multiple', 'base-type': 'directedPair' },
      correctResponse(correct) + mappingElement(q, pairs),
    ),
    processing: addMapped(DRAG_RESPONSE),
    chips: chips
      .map((c, i) =>
        element('qti-gap-text', { identifier: `T${i + 1}`, 'match-max': matchMax }, inlineChoiceText(q, c, notes)),
      )
      .join(''),
  };
}

/** A gap number `[[n]]` in the text. */
const GAP_MARK = /\[\[(\d+)\]\]/g;

/**
 * Gap fill: each `[[n]]` of the text its interaction (a text entry, an inline
 * choice, a gap of one gap match holding the text when any gap is a drag),
 * SCORE the sum of each gap's points (its weight's share of the marks × the
 * answer's credit).
 */
function gapFillItem(
  q: ExportQuestion,
  media: ExportMedia,
  notes: string[],
  wrapper: Record<string, string>,
): ItemParts {
  const gaps = q.gaps ?? [];
  const typed = gaps.map((gap, i) => (gap.kind === 'drag' ? undefined : gapParts(q, gap, i + 1, notes)));
  const hasDrag = gaps.some((g) => g.kind === 'drag');
  const drag = hasDrag ? dragParts(q, notes) : undefined;
  if (hasDrag && typed.some(Boolean))
    notes.push(
      'text entries and drop-downs stand inside the gap match with its gaps, which the QTI schema does not allow',
    );
  const fill = (xml: string) =>
    xml.replace(GAP_MARK, (whole, n: string) => {
      const gap = gaps[Number(n) - 1];
      if (!gap) return whole;
      return gap.kind === 'drag'
        ? element('qti-gap', { identifier: `G${n}`, [GAP_NUMBER_ATTRIBUTE]: n })
        : typed[Number(n) - 1]!.interaction;
    });
  const text = textBlock(q, q.question_text, media, notes, 'div', wrapper, fill);
  const parts = typed.filter((p): p is ItemParts => p !== undefined);
  return {
    declarations: parts.map((p) => p.declarations).join('') + (drag?.declarations ?? ''),
    interaction: drag
      ? element(
          'qti-gap-match-interaction',
          { 'response-identifier': DRAG_RESPONSE, shuffle: 'false' },
          drag.chips + text,
        )
      : text,
    processing: setScore(float(0)) + parts.map((p) => p.processing).join('') + (drag?.processing ?? ''),
    holdsText: true,
  };
}

export const gapFillQti: QtiMapping = { type: gapFill.name, write: gapFillItem };
