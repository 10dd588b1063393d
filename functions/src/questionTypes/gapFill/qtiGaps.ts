import { qtiReading } from '../../interchange';
import { associateInteraction, matchInteraction } from '../matching/qti';
import { gapFill } from './module';

// The gaps of a text in QTI: an item body whose interactions are gaps in its text (text entries,
// inline choices, a gap match's gaps, a single choice, a match or an association among them) as
// one gap_fill question: each gap `[[n]]` in text order, its key from the correct response or the
// mapping (a mapped value a share of the best). A match among other gaps is a drop-down gap per stem.

const {
  Refusal,
  attr,
  correctValues,
  descendants,
  distinctTexts,
  escapeText,
  gapBranches,
  kids,
  localName,
  numberOf,
  promptBlock,
  qtiName,
  round5,
  toleranceOf,
} = qtiReading;
type AlternativeAnswer = qtiReading.AlternativeAnswer;
type GapDraft = qtiReading.GapDraft;
type HtmlContext = qtiReading.HtmlContext;
type InteractionPart = qtiReading.InteractionPart;
type ItemReading = qtiReading.ItemReading;
type MapEntry = qtiReading.MapEntry;
type QuestionDraft = qtiReading.QuestionDraft;
type XmlElement = qtiReading.XmlElement;

/** On each gap of our export: its number in the question (`[[n]]`), which text order need not be. */
export const GAP_NUMBER_ATTRIBUTE = 'data-gap';

/** The interactions that can be gaps of a gap_fill (a match or an association beside others, a gap per stem). */
const GAP_INTERACTIONS = new Set([
  'textEntryInteraction',
  'inlineChoiceInteraction',
  'gapMatchInteraction',
  'choiceInteraction',
  'matchInteraction',
  'associateInteraction',
]);

/** A choice's one correct value, when its key is one choice (whatever it lets the taker tick). */
const oneCorrectChoice = (root: XmlElement, interaction: XmlElement): boolean => {
  const id = attr(interaction, 'responseIdentifier');
  const declaration = kids(root, 'responseDeclaration').find((d) => attr(d, 'identifier') === id);
  return correctValues(declaration).length === 1;
};

/** Whether the interaction can be a gap: a choice only when one is chosen, or its key is one choice. */
export const isGapInteraction = (root: XmlElement, interaction: XmlElement): boolean =>
  GAP_INTERACTIONS.has(qtiName(interaction)) &&
  (qtiName(interaction) !== 'choiceInteraction' ||
    (numberOf(attr(interaction, 'maxChoices')) ?? 1) === 1 ||
    oneCorrectChoice(root, interaction));

/** A gap that one element stands for among several (a match's stem), with the text it answers. */
interface StemGap {
  stem: string;
  gap: GapDraft;
}

/** The gaps one interaction gives, by the element that stands for each in the text. */
interface InteractionGaps {
  gaps: Map<XmlElement, GapDraft>;
  /** The gaps an element stands for when it stands for several: a match's stems, in order. */
  stemGaps?: Map<XmlElement, StemGap[]>;
  /** Each gap's best score, where a mapping or branches give one (its weight, read back). */
  tops?: Map<XmlElement, number>;
  dragOptions?: string[];
  reusable?: boolean;
}

const positiveEntries = (item: ItemReading): MapEntry[] =>
  item.useMapping || correctValues(item.declaration).length === 0
    ? (item.mapping?.entries ?? []).filter((e) => e.value > 0)
    : [];

const topOf = (entries: MapEntry[]): number => entries.reduce((max, e) => Math.max(max, e.value), 0);

/** Accepted answers: the correct keys at full credit, then the mapping's others as a share of the best. */
function keyedAnswers(
  correct: string[],
  entries: MapEntry[],
  answerOf: (key: string) => string | undefined,
  what: string,
): AlternativeAnswer[] {
  const top = topOf(entries);
  const keys = correct.length > 0 ? correct : entries.filter((e) => e.value === top).map((e) => e.key);
  const answers: AlternativeAnswer[] = [];
  const add = (key: string, credit: number) => {
    const answer = answerOf(key);
    if (answer === undefined) throw new Refusal(`${what}: the key names "${key}", which is not one of its choices`);
    if (!answers.some((a) => a.answer === answer)) answers.push({ answer, credit });
  };
  keys.forEach((k) => add(k, 100));
  for (const e of entries) if (!keys.includes(e.key)) add(e.key, round5((e.value / top) * 100));
  if (answers.length === 0) throw new Refusal(`${what} has no correct response`);
  return answers;
}

const named = (item: ItemReading) =>
  `The ${localName(item.interaction)} "${attr(item.interaction, 'responseIdentifier') ?? ''}"`;

/** A text entry: a typed text (case-sensitive as its mapping or `match` compares) or a number. */
function textEntryGap(item: ItemReading): InteractionGaps {
  const baseType = (item.declaration && attr(item.declaration, 'baseType')) ?? 'string';
  const numeric = baseType === 'float' || baseType === 'integer';
  if (!numeric && baseType !== 'string')
    throw new Refusal(`${named(item)} has base type "${baseType}", which no gap takes`);
  const entries = positiveEntries(item).filter((e) => e.key.trim() !== '');
  const answers = keyedAnswers(correctValues(item.declaration), entries, (k) => k, named(item));
  if (numeric) return numericGap(item, answers);
  const caseSensitive =
    entries.find((e) => e.key === answers[0].answer)?.caseSensitive ?? entries[0]?.caseSensitive ?? true;
  if (attr(item.interaction, 'patternMask')) item.warnings.add('The answer pattern (patternMask) was not carried');
  return {
    gaps: new Map([[item.interaction, { kind: 'text', answers, case_sensitive: caseSensitive }]]),
    tops: new Map([[item.interaction, topOf(entries)]]),
  };
}

/** A number: its answers, with their credits and tolerances where branches score them (our export's), else the key. */
function numericGap(item: ItemReading, keyed: AlternativeAnswer[]): InteractionGaps {
  const branches = gapBranches(item.root, attr(item.interaction, 'responseIdentifier') ?? '');
  const top = branches.reduce((max, b) => Math.max(max, b.points), 0);
  const answers =
    top > 0
      ? branches.map((b): AlternativeAnswer => {
          const tolerance = toleranceOf(b.equal, numberOf(b.answer) ?? 0, item.warnings);
          return { answer: b.answer, credit: round5((b.points / top) * 100), ...(tolerance ? { tolerance } : {}) };
        })
      : keyed;
  const bad = answers.find((a) => numberOf(a.answer) === undefined);
  if (bad) throw new Refusal(`${named(item)}: its answer "${bad.answer}" is not a number`);
  const gap: GapDraft = { kind: 'numeric', answers };
  return { gaps: new Map([[item.interaction, gap]]), tops: new Map([[item.interaction, top]]) };
}

/** Choices offered in a drop-down: an inline choice, or a single choice among gaps. */
function selectGap(item: ItemReading, choiceName: string): InteractionGaps {
  const choices = kids(item.interaction, choiceName);
  const ids = choices.map((c) => attr(c, 'identifier') ?? '');
  const options = distinctTexts(choices, item.warnings, item.ctx);
  const entries = positiveEntries(item);
  const answers = keyedAnswers(
    correctValues(item.declaration),
    entries,
    (key) => options[ids.indexOf(key)],
    named(item),
  );
  return {
    gaps: new Map([[item.interaction, { kind: 'select', answers, options }]]),
    tops: new Map([[item.interaction, topOf(entries)]]),
  };
}

const inlineChoiceGap = (item: ItemReading) => selectGap(item, 'inlineChoice');

function choiceGap(item: ItemReading): InteractionGaps {
  item.warnings.add(`${named(item)} became a drop-down gap of the text`);
  if ((numberOf(attr(item.interaction, 'maxChoices')) ?? 1) !== 1)
    item.warnings.add(
      `${named(item)} let the taker tick several choices; its key is one, which the drop-down asks for`,
    );
  return selectGap(item, 'simpleChoice');
}

/** A gap match: each gap a drag gap, its answers the texts the key pairs with it. */
function gapMatchGaps(item: ItemReading): InteractionGaps {
  const chips = kids(item.interaction, 'gapText');
  if (kids(item.interaction, 'gapImg').length > 0)
    throw new Refusal(`${named(item)} drags images, which a gap cannot hold`, 'unsupported');
  const chipIds = chips.map((c) => attr(c, 'identifier') ?? '');
  const dragOptions = distinctTexts(chips, item.warnings, item.ctx);
  const gapElements = [...descendants(item.interaction)].filter((d) => qtiName(d) === 'gap');
  if (gapElements.length === 0) throw new Refusal(`${named(item)} has no gap`);
  const given = correctValues(item.declaration).map((v) => v.trim().split(/\s+/));
  const entries = positiveEntries(item).map((e) => ({ ...e, pair: e.key.trim().split(/\s+/) }));
  const gaps = new Map<XmlElement, GapDraft>();
  const tops = new Map<XmlElement, number>();
  for (const gap of gapElements) {
    const gapId = attr(gap, 'identifier') ?? '';
    const forGap = (pair: string[]) => pair.length === 2 && pair[1] === gapId;
    const own = entries.filter((e) => forGap(e.pair)).map((e) => ({ ...e, key: e.pair[0] }));
    const answers = keyedAnswers(
      given.filter(forGap).map((p) => p[0]),
      own,
      (key) => dragOptions[chipIds.indexOf(key)],
      `${named(item)}, gap "${gapId}"`,
    );
    gaps.set(gap, { kind: 'drag', answers });
    tops.set(gap, topOf(own));
  }
  // matchMax 1 is once; 0 (unlimited) or more, several times.
  const reusable = chips.map((c) => (numberOf(attr(c, 'matchMax')) ?? 1) !== 1);
  if (reusable.some(Boolean) && !reusable.every(Boolean))
    item.warnings.add('Some chips could be used several times and others once; in the bank every chip may be reused');
  return { gaps, tops, dragOptions, reusable: reusable.some(Boolean) };
}

/** A match or an association beside other gaps, read as a matching is: each stem a drop-down of the options, its match the answer. */
function stemGaps(item: ItemReading, readMatching: (item: ItemReading) => InteractionPart): InteractionGaps {
  const { draft } = readMatching(item);
  const options = draft.options ?? [];
  item.warnings.add(`${named(item)} became a drop-down gap for each of its stems`);
  const stems = (draft.stems ?? []).map((stem, i): StemGap => ({
    stem,
    gap: { kind: 'select', options, answers: [{ answer: draft.matches![i], credit: 100 }] },
  }));
  return { gaps: new Map(), stemGaps: new Map([[item.interaction, stems]]) };
}

const GAP_READERS: Record<string, (item: ItemReading) => InteractionGaps> = {
  textEntryInteraction: textEntryGap,
  inlineChoiceInteraction: inlineChoiceGap,
  gapMatchInteraction: gapMatchGaps,
  choiceInteraction: choiceGap,
  matchInteraction: (item) => stemGaps(item, matchInteraction),
  associateInteraction: (item) => stemGaps(item, associateInteraction),
};

/** A gap in the question's order: the element that stands for it, its best score where one is given, its stem. */
interface Slot {
  gap: GapDraft;
  top: number;
  stem?: string;
}

/**
 * What stands in the text for the gaps from n on: a marker; a choice's prompt then its marker; a
 * match's prompt then each stem with its marker (blocks of their own).
 */
function gapMark(element: XmlElement, slots: Slot[], n: number, ctx: HtmlContext): { html: string; text: string } {
  const markers = slots.map((_, i) => `[[${n + i}]]`);
  const prompt = () => promptBlock(kids(element, 'prompt')[0], ctx);
  if (slots.some((slot) => slot.stem !== undefined)) {
    const items = slots.map((slot, i) => `<li>${escapeText(slot.stem ?? '')} ${markers[i]}</li>`);
    return { html: `${prompt()}<ul>${items.join('')}</ul>`, text: markers.join(' ') };
  }
  if (qtiName(element) !== 'choiceInteraction') return { html: escapeText(markers[0]), text: markers[0] };
  return { html: `${prompt()}<p>${markers[0]}</p>`, text: markers[0] };
}

/** The gaps by their numbers: our export's when each element stands for one gap and has one of 1…n, else in text order. */
function numbered(inText: XmlElement[], slots: Map<XmlElement, Slot[]>): XmlElement[] {
  if (inText.some((element) => slots.get(element)!.length !== 1)) return inText;
  const numbers = inText.map((element) => Number(element.attrs[GAP_NUMBER_ATTRIBUTE]));
  const sorted = [...numbers].sort((a, b) => a - b);
  if (!sorted.every((n, i) => n === i + 1)) return inText;
  return inText
    .map((element, i) => ({ element, n: numbers[i] }))
    .sort((a, b) => a.n - b.n)
    .map((g) => g.element);
}

/** The gaps in order, weighted as their best scores stand to the least when every gap has one and they differ. */
function weighted(slots: Slot[]): GapDraft[] {
  const least = Math.min(...slots.map((slot) => slot.top));
  if (least <= 0 || slots.every((slot) => Math.abs(slot.top - least) < 1e-9)) return slots.map((slot) => slot.gap);
  return slots.map(({ gap, top }) => {
    const weight = round5(top / least);
    return weight === 1 ? gap : { ...gap, weight };
  });
}

/** The body's gap interactions as one gap_fill: gaps numbered in text order, marked in the text. */
export function gapFillPart(
  body: XmlElement,
  readings: ItemReading[],
  ctx: HtmlContext,
  marks?: number,
): InteractionPart {
  const slots = new Map<XmlElement, Slot[]>();
  const drags: InteractionGaps[] = [];
  for (const reading of readings) {
    const read = GAP_READERS[qtiName(reading.interaction)](reading);
    for (const [element, gap] of read.gaps) slots.set(element, [{ gap, top: read.tops?.get(element) ?? 0 }]);
    for (const [element, stems] of read.stemGaps ?? [])
      slots.set(
        element,
        stems.map(({ stem, gap }) => ({ gap, top: 0, stem })),
      );
    if (read.dragOptions) drags.push(read);
  }
  if (drags.length > 1) throw new Refusal('The item has two gap matches: a question has one set of chips');
  const ordered = numbered(
    [...descendants(body)].filter((d) => slots.has(d)),
    slots,
  );
  let next = 1;
  for (const element of ordered) {
    const own = slots.get(element)!;
    ctx.marked?.set(element, gapMark(element, own, next, ctx));
    next += own.length;
  }
  const draft: Partial<QuestionDraft> = {
    question_type: gapFill.name,
    gaps: weighted(ordered.flatMap((element) => slots.get(element)!)),
    ...(drags[0] ? { drag_options: drags[0].dragOptions, drag_reusable: drags[0].reusable } : {}),
  };
  return { draft, marks: marks ?? readings.length };
}
