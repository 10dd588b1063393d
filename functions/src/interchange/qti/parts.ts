import { type QuestionDraft, Refusal } from '../model';
import { type XmlElement } from '../xml';
import { attr, collapse, descendants, escapeText, kids, numberOf, qtiName, textOf } from './elements';
import type { HtmlContext } from './html';
import { type InteractionPart, type ItemReading, optionText } from './interactions';
import { correctValues } from './scoring';

// Pure: the interactions whose answer has parts or marks the text: a match or
// an association (matching), an order (ordering) and hot texts (hottext), each
// returning its part of the question as interactions.ts's readers do.

/** On an order interaction: our export's partial scoring (QTI's templates score a whole order only). */
export const ORDERING_SCORE_ATTRIBUTE = 'data-ordering-score';

/** The choices' texts, made distinct: a repeated text (image-only choices alike in their alt text) takes its image's file name, else a number. */
export function distinctTexts(choices: XmlElement[], warnings: Set<string>, ctx?: HtmlContext): string[] {
  const texts = choices.map((c, i) => optionText(c, i, warnings, ctx));
  const seen = new Set<string>();
  return texts.map((text, i) => {
    if (!seen.has(text)) {
      seen.add(text);
      return text;
    }
    const image = [...descendants(choices[i])].find((d) => qtiName(d) === 'img');
    const file = (attr(image ?? choices[i], 'src') ?? '').split('/').pop() ?? '';
    let distinct = file !== '' && !seen.has(file) ? file : text;
    for (let n = 2; seen.has(distinct); n++) distinct = `${text} (${n})`;
    seen.add(distinct);
    warnings.add(`Two choices read as "${text}": the later one became "${distinct}" so that they stay apart`);
    return distinct;
  });
}

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
function matchInteraction(item: ItemReading): InteractionPart {
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
    question_type: 'matching',
    stems: kept.map((id) => stemTexts[stemIds.indexOf(id)]),
    options,
    matches: kept.map((id) => options[optionIds.indexOf(matches.get(id)!)]),
  };
  return { draft, marks: pairMarks(item, pairs, true) };
}

/** An association: each correct pair's first choice a stem, its second the match; the other choices options to choose from. */
function associateInteraction(item: ItemReading): InteractionPart {
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
    question_type: 'matching',
    stems: stems.map(text),
    options: optionIds.map(text),
    matches: stems.map((id) => text(matches.get(id)!)),
  };
  return { draft, marks: pairMarks(item, pairs, false) };
}

/** An order interaction: the options in the key's order, scored whole unless scored by parts. */
function orderInteraction(item: ItemReading): InteractionPart {
  const choices = kids(item.interaction, 'simpleChoice');
  const ids = choices.map((c) => attr(c, 'identifier') ?? '');
  const texts = distinctTexts(choices, item.warnings, item.ctx);
  const order = correctValues(item.declaration);
  if (order.length === 0) throw new Refusal('The item has no correct response');
  const stray = order.find((id) => !ids.includes(id));
  if (stray) throw new Refusal(`The correct order names "${stray}", which is not a choice`);
  const left = ids.filter((id) => !order.includes(id)).map((id) => `"${texts[ids.indexOf(id)]}"`);
  if (left.length > 0)
    item.warnings.add(`${left.join(', ')} is not in the correct order and was left out: the bank orders every item`);
  const partial = item.interaction.attrs[ORDERING_SCORE_ATTRIBUTE] === 'partial' || item.useMapping;
  if (item.useMapping)
    item.warnings.add(
      "The order was scored by a mapping in QTI; it is scored by parts here (Moodle's longest ordered subset)",
    );
  const draft: Partial<QuestionDraft> = {
    question_type: 'ordering',
    options: order.map((id) => texts[ids.indexOf(id)]),
    ordering_score: partial ? 'partial' : 'all_or_nothing',
  };
  return { draft, marks: item.marks ?? 1 };
}

/** Whether the mapping is the bank's own hottext score (our export's): a right phrase marks ÷ right phrases, a wrong one as much less. */
function isHottextScoring(item: ItemReading, ids: string[], keys: string[]): boolean {
  const share = (item.marks ?? 1) / keys.length;
  const value = (id: string) => item.mapping?.entries.find((e) => e.key === id)?.value ?? item.mapping?.defaultValue;
  return ids.every((id) => Math.abs((value(id) ?? 0) - (keys.includes(id) ? share : -share)) < 1e-9);
}

/** Hot texts: each phrase marked `[[phrase]]` in the text (the bank derives its options from them), the key the correct phrases. */
function hottextInteraction(item: ItemReading): InteractionPart {
  const hottexts = [...descendants(item.interaction)].filter((d) => qtiName(d) === 'hottext');
  const ids = hottexts.map((h) => attr(h, 'identifier') ?? '');
  const phrases = hottexts.map((h) => collapse(textOf(h)));
  const bad = phrases.find((p) => p === '' || /\[\[|\]\]|\|/.test(p));
  if (bad !== undefined) throw new Refusal(`The hot text "${bad}" is empty or holds "[[", "]]" or "|"`);
  const repeated = phrases.find((p, i) => phrases.indexOf(p) !== i);
  if (repeated !== undefined) throw new Refusal(`Two hot texts read "${repeated}": a phrase is chosen by its text`);
  const given = correctValues(item.declaration);
  const keys = given.length > 0 ? given : (item.mapping?.entries ?? []).filter((e) => e.value > 0).map((e) => e.key);
  if (keys.length === 0) throw new Refusal('The item has no correct response');
  const stray = keys.find((id) => !ids.includes(id));
  if (stray) throw new Refusal(`The key names "${stray}", which is not a hot text`);
  for (const [i, h] of hottexts.entries()) {
    const marker = `[[${phrases[i]}]]`;
    item.ctx.marked?.set(h, { html: escapeText(marker), text: marker });
  }
  if (item.useMapping && !isHottextScoring(item, ids, keys))
    item.warnings.add("The mapping's scores were not carried: the bank scores right phrases chosen less wrong ones");
  const maxChoices = numberOf(attr(item.interaction, 'maxChoices')) ?? 1;
  const draft: Partial<QuestionDraft> = {
    question_type: 'hottext',
    correct_answer: ids
      .filter((id) => keys.includes(id))
      .map((id) => phrases[ids.indexOf(id)])
      .join('|'),
    ...(maxChoices > 0 ? { max_choices: maxChoices } : {}),
  };
  return { draft, marks: item.marks ?? 1 };
}

/** The interactions of this file, each by its reader. */
export const PART_INTERACTIONS = new Map<string, (item: ItemReading) => InteractionPart>([
  ['matchInteraction', matchInteraction],
  ['associateInteraction', associateInteraction],
  ['orderInteraction', orderInteraction],
  ['hottextInteraction', hottextInteraction],
]);
