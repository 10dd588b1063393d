import { qtiReading, qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { matching } from './module';

// A matching in QTI: a match interaction of its stems against its options, each right pair
// scored by the mapping. An association is read as one, its pairs directed.

const { Refusal, attr, correctValues, distinctTexts, kids } = qtiReading;
type InteractionPart = qtiReading.InteractionPart;
type ItemReading = qtiReading.ItemReading;
type QuestionDraft = qtiReading.QuestionDraft;
const { choiceContent, correctResponse, element, mappedScore, mappingElement } = qtiWriting;
type ExportMedia = qtiWriting.ExportMedia;
type ItemParts = qtiWriting.ItemParts;

// ---- Reading

/** The key's pairs (`A G1`), from the correct response, else the mapping's positive entries. */
function keyPairs(item: ItemReading): Array<[string, string]> {
  const given = correctValues(item.declaration);
  const keys = given.length > 0 ? given : (item.mapping?.entries ?? []).filter((e) => e.value > 0).map((e) => e.key);
  const pairs = keys.map((k) => k.trim().split(/\s+/));
  const bad = keys.filter((_, i) => pairs[i].length !== 2);
  if (bad.length > 0) throw new Refusal(`The correct response "${bad[0]}" is not a pair of identifiers`);
  if (pairs.length === 0) throw new Refusal('The item has no correct response');
  return pairs as Array<[string, string]>;
}

const samePair = (a: string, [x, y]: [string, string], directed: boolean) => {
  const [p, q] = a.trim().split(/\s+/);
  return (p === x && q === y) || (!directed && p === y && q === x);
};

/** Warnings for what a mapping scored that a matching (each stem alike) cannot: other pairs' credit, unequal values. */
function mappingLosses(item: ItemReading, pairs: Array<[string, string]>, directed: boolean): void {
  if (!item.useMapping || !item.mapping) return;
  const others = item.mapping.entries.filter((e) => e.value > 0 && !pairs.some((p) => samePair(e.key, p, directed)));
  if (others.length > 0)
    item.warnings.add(
      `The mapping gives credit to pairs that are not in the key (${others.map((e) => e.key).join(', ')}); in the bank a stem scores only with its match`,
    );
  const values = new Set(
    pairs.map(
      (p) => item.mapping!.entries.find((e) => samePair(e.key, p, directed))?.value ?? item.mapping!.defaultValue,
    ),
  );
  if (values.size > 1)
    item.warnings.add("The key's pairs scored unequally in QTI; in the bank every stem counts alike");
}

/** The marks: declared, else what the mapping gives the key, else 1. */
function pairMarks(item: ItemReading, pairs: Array<[string, string]>, directed: boolean): number {
  if (item.marks !== undefined) return item.marks;
  if (!item.useMapping || !item.mapping) return 1;
  const mapping = item.mapping;
  const total = pairs.reduce(
    (sum, p) => sum + Math.max(0, mapping.entries.find((e) => samePair(e.key, p, directed))?.value ?? 0),
    0,
  );
  const bounded = mapping.upperBound !== undefined ? Math.min(mapping.upperBound, total) : total;
  return bounded > 0 ? bounded : 1;
}

/** Each stem's match (by identifiers), the first pair of a stem kept. */
function matchesOf(pairs: Array<[string, string]>, warnings: Set<string>): Map<string, string> {
  const matches = new Map<string, string>();
  for (const [stem, option] of pairs) {
    if (matches.has(stem)) warnings.add(`"${stem}" is paired with several choices in the key; its first pair was kept`);
    else matches.set(stem, option);
  }
  return matches;
}

function scoredPerStem(item: ItemReading): void {
  if (item.rules.scoring === 'match_correct')
    item.warnings.add('QTI scored the whole match (all pairs right or nothing); the bank scores each stem on its own');
}

/** A match interaction: the first set's choices are the stems, the second's the options. */
export function matchInteraction(item: ItemReading): InteractionPart {
  const [first, second] = kids(item.interaction, 'simpleMatchSet');
  if (!first || !second) throw new Refusal('A match interaction needs two sets of choices');
  const stemChoices = kids(first, 'simpleAssociableChoice');
  const optionChoices = kids(second, 'simpleAssociableChoice');
  const stemIds = stemChoices.map((c) => attr(c, 'identifier') ?? '');
  const optionIds = optionChoices.map((c) => attr(c, 'identifier') ?? '');
  const stemTexts = distinctTexts(stemChoices, item.warnings, item.ctx);
  const options = distinctTexts(optionChoices, item.warnings, item.ctx);
  const pairs = keyPairs(item);
  const stray = pairs.find(([s, o]) => !stemIds.includes(s) || !optionIds.includes(o));
  if (stray)
    throw new Refusal(
      `The key pairs "${stray.join(' ')}", which is not a choice of the first set with one of the second`,
    );
  const matches = matchesOf(pairs, item.warnings);
  const kept = stemIds.filter((id) => matches.has(id));
  const unpaired = stemIds.filter((id) => !matches.has(id)).map((id) => `"${stemTexts[stemIds.indexOf(id)]}"`);
  if (unpaired.length > 0)
    item.warnings.add(`${unpaired.join(', ')} has no pair in the key and was left out: every stem has a match`);
  mappingLosses(item, pairs, true);
  scoredPerStem(item);
  const draft: Partial<QuestionDraft> = {
    question_type: matching.name,
    stems: kept.map((id) => stemTexts[stemIds.indexOf(id)]),
    options,
    matches: kept.map((id) => options[optionIds.indexOf(matches.get(id)!)]),
  };
  return { draft, marks: pairMarks(item, pairs, true) };
}

/** An association: each correct pair's first choice a stem, its second the match; the other choices options to choose from. */
export function associateInteraction(item: ItemReading): InteractionPart {
  const choices = kids(item.interaction, 'simpleAssociableChoice');
  const ids = choices.map((c) => attr(c, 'identifier') ?? '');
  const texts = distinctTexts(choices, item.warnings, item.ctx);
  const pairs = keyPairs(item);
  const stray = pairs.flat().find((id) => !ids.includes(id));
  if (stray) throw new Refusal(`The key names "${stray}", which is not a choice`);
  const matches = matchesOf(pairs, item.warnings);
  const stems = [...matches.keys()];
  const matched = new Set(matches.values());
  const optionIds = ids.filter((id) => matched.has(id) || !stems.includes(id));
  item.warnings.add(
    'An association was read as directed pairs: the first choice of each correct pair is a stem, the second its match',
  );
  mappingLosses(item, pairs, false);
  scoredPerStem(item);
  const text = (id: string) => texts[ids.indexOf(id)];
  const draft: Partial<QuestionDraft> = {
    question_type: matching.name,
    stems: stems.map(text),
    options: optionIds.map(text),
    matches: stems.map((id) => text(matches.get(id)!)),
  };
  return { draft, marks: pairMarks(item, pairs, false) };
}

// ---- Writing

/** Matching: stems S1… against options O1…; each right pair earns its stem's share of the marks (map_response). */
function matchingItem(q: ExportQuestion, media: ExportMedia, notes: string[]): ItemParts {
  const stems = q.stems ?? [];
  const matches = q.matches ?? [];
  const pairs = stems.map((_, i) => `S${i + 1} O${q.options.indexOf(matches[i]) + 1}`);
  const share = stems.length > 0 ? q.marks / stems.length : 0;
  const choice = (prefix: string, matchMax: number) => (text: string, i: number) =>
    element(
      'qti-simple-associable-choice',
      { identifier: `${prefix}${i + 1}`, 'match-max': String(matchMax) },
      choiceContent(q, text, media, notes),
    );
  return {
    declarations: element(
      'qti-response-declaration',
      { identifier: 'RESPONSE', cardinality: 'multiple', 'base-type': 'directedPair' },
      correctResponse(pairs) +
        mappingElement(
          q,
          pairs.map((p) => [p, share]),
        ),
    ),
    interaction: element(
      'qti-match-interaction',
      { 'response-identifier': 'RESPONSE', shuffle: 'false', 'max-associations': String(stems.length) },
      element('qti-simple-match-set', {}, stems.map(choice('S', 1)).join('')) +
        element('qti-simple-match-set', {}, q.options.map(choice('O', stems.length)).join('')),
    ),
    processing: mappedScore(),
  };
}

export const matchingQti: QtiMapping = {
  type: matching.name,
  readers: {
    matchInteraction: { read: matchInteraction },
    associateInteraction: { read: associateInteraction },
  },
  write: matchingItem,
};
