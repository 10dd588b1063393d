import { qtiReading, qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { gapFill } from './module';
import { GAP_NUMBER_ATTRIBUTE, gapFillPart, isGapInteraction } from './qtiGaps';

// A gap fill in QTI: each gap an interaction in the text (a text entry, an inline choice, or a gap
// of one gap match holding the text when any gap is a drag), numbered as the question numbers it
// (qtiGaps.ts reads them back). A graphic gap match, labels placed on an image, is one too.

const {
  PLACED_ON_IMAGE,
  Refusal,
  attr,
  collapse,
  correctValues,
  descendants,
  imageSource,
  kids,
  labelledImageDraft,
  numberOf,
  optionText,
  qtiName,
  textOf,
  zoneAt,
} = qtiReading;
type CompositeReader = qtiReading.CompositeReader;
type InteractionPart = qtiReading.InteractionPart;
type InteractionReader = qtiReading.InteractionReader;
type ItemReading = qtiReading.ItemReading;
type XmlElement = qtiReading.XmlElement;
type AlternativeAnswer = qtiWriting.AlternativeAnswer;
type ExportMedia = qtiWriting.ExportMedia;
type GapDraft = qtiWriting.GapDraft;
type ItemParts = qtiWriting.ItemParts;
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

// ---- Reading

/**
 * A graphic gap match: labels (gap images, or gap texts as QTI 3 allows) placed on the image's
 * associable hotspots, keyed label → hotspot; a gap fill as Moodle's drag and drop onto image is
 * (labelledImage.ts). One that places its labels in text gaps (`gap`) or has no associable hotspot is
 * malformed: reported so, never read as something else.
 */
function graphicGapMatchInteraction(item: ItemReading): InteractionPart {
  const inside = [...descendants(item.interaction)].map(qtiName);
  const hotspots = kids(item.interaction, 'associableHotspot');
  if (inside.includes('gap') || hotspots.length === 0)
    throw new Refusal(
      `A malformed graphic gap match: ${inside.includes('gap') ? 'it places its labels in text gaps (qti-gap), which belong to a gap match, and ' : ''}it has no associable hotspots on its image to place them on, as QTI requires`,
    );
  const labelled = kids(item.interaction).filter((k) => ['gapImg', 'gapText'].includes(qtiName(k)));
  if (labelled.length === 0) throw new Refusal('It has no labels to place (gap images)');
  const labels = new Map(labelled.map((l, i) => [attr(l, 'identifier') ?? '', labelOf(l, i, item.warnings)]));
  const image = imageSource(item);
  const key = new Map(
    correctValues(item.declaration).map((pair) => {
      const [label, hotspot] = pair.trim().split(/\s+/);
      return [hotspot, label] as const;
    }),
  );
  if (key.size === 0) throw new Refusal('The item has no correct response');
  const zones = hotspots.flatMap((h, i) => {
    const label = labels.get(key.get(attr(h, 'identifier') ?? '') ?? '');
    if (label === undefined) return [];
    const [x = 0, y = 0] = (attr(h, 'coords') ?? '').split(',').map((c) => Math.round(Number(c.trim())));
    const own = collapse(attr(h, 'hotspotLabel') ?? '');
    return [{ name: own ? `Box ${i + 1} (${own})` : zoneAt(i + 1, x, y), answer: label }];
  });
  const unkeyed = hotspots.length - zones.length;
  if (unkeyed > 0)
    item.warnings.add(
      `${unkeyed} hotspot${unkeyed === 1 ? '' : 's'} without a label in the key ${unkeyed === 1 ? 'is' : 'are'} left out`,
    );
  const reusable = labelled.some((l) => (numberOf(attr(l, 'matchMax')) ?? 1) !== 1);
  const { question_text: placed, ...draft } = labelledImageDraft('', image, zones, [...labels.values()], reusable);
  item.warnings.add(PLACED_ON_IMAGE);
  if (item.useMapping)
    item.warnings.add("The mapping's scores were not carried: each label placed right earns its share");
  return {
    draft: { question_type: gapFill.name, ...draft },
    marks: item.marks ?? 1,
    textAfter: placed,
    fallbackText: 'Place each label in its box on the image.',
  };
}

/** A label as text: a gap text's own, a gap image's `objectLabel` or its image's alt text (warned). */
function labelOf(label: XmlElement, index: number, warnings: Set<string>): string {
  if (qtiName(label) === 'gapText') return optionText(label, index, warnings);
  const image = [...descendants(label)].find((d) => ['img', 'object'].includes(qtiName(d)));
  const text = collapse(attr(label, 'objectLabel') ?? attr(image ?? label, 'alt') ?? textOf(image ?? label));
  if (text === '')
    throw new Refusal(`Label ${index + 1} is an image without alt text: a label here is a text`, 'unsupported');
  warnings.add(`The image labels are carried as their text (labels here are texts)`);
  return text;
}

/** A lone inline choice or gap match: the gaps of its text, one gap or a gap match's. */
const oneGapInteraction: InteractionReader = {
  read: (item) => gapFillPart(item.body, [item], item.ctx, item.marks),
  inText: true,
};

/** Several interactions that can each be a gap: the gaps of one text. */
const gapsOfText: CompositeReader = {
  holds: (root, interactions) => interactions.every((interaction) => isGapInteraction(root, interaction)),
  read: ({ body, interactions, reading, ctx, marks }) => gapFillPart(body, interactions.map(reading), ctx, marks),
};

// ---- Writing

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

export const gapFillQti: QtiMapping = {
  type: gapFill.name,
  readers: {
    inlineChoiceInteraction: oneGapInteraction,
    gapMatchInteraction: oneGapInteraction,
    graphicGapMatchInteraction: { read: graphicGapMatchInteraction },
  },
  composite: gapsOfText,
  write: gapFillItem,
};
