import { qtiReading, qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { hottext } from './module';

// Hot texts in QTI: a hottext interaction holding the question's text, each marked phrase a
// qti-hottext, right ones scored up and wrong ones down by the mapping.

const { Refusal, attr, collapse, correctValues, descendants, escapeText, numberOf, qtiName, textOf } = qtiReading;
type InteractionPart = qtiReading.InteractionPart;
type ItemReading = qtiReading.ItemReading;
type QuestionDraft = qtiReading.QuestionDraft;
const { correctOptions, correctResponse, element, mappedScore, mappingElement, textBlock } = qtiWriting;
type ExportMedia = qtiWriting.ExportMedia;
type ItemParts = qtiWriting.ItemParts;

// ---- Reading

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
    question_type: hottext.name,
    correct_answer: ids
      .filter((id) => keys.includes(id))
      .map((id) => phrases[ids.indexOf(id)])
      .join('|'),
    ...(maxChoices > 0 ? { max_choices: maxChoices } : {}),
  };
  return { draft, marks: item.marks ?? 1 };
}

// ---- Writing

/** A marked phrase `[[phrase]]` of a hottext text (escaped or not alike: the brackets are not). */
const PHRASE_MARK = /\[\[(.+?)\]\]/g;

/** Hot texts: each `[[phrase]]` a qti-hottext; a right phrase earns marks ÷ right phrases, a wrong one costs as much, 0 at least. */
function hottextItem(
  q: ExportQuestion,
  media: ExportMedia,
  notes: string[],
  wrapper: Record<string, string>,
): ItemParts {
  const phrases = [...q.question_text.matchAll(PHRASE_MARK)].map((m) => m[1]);
  const right = correctOptions(q);
  const ids = phrases.map((_, i) => `H${i + 1}`);
  const rightIds = ids.filter((_, i) => right.has(phrases[i]));
  const share = rightIds.length > 0 ? q.marks / rightIds.length : 0;
  let at = 0;
  const fill = (xml: string) =>
    xml.replace(PHRASE_MARK, (_, phrase: string) => element('qti-hottext', { identifier: ids[at++] }, phrase));
  return {
    declarations: element(
      'qti-response-declaration',
      { identifier: 'RESPONSE', cardinality: q.max_choices === 1 ? 'single' : 'multiple', 'base-type': 'identifier' },
      correctResponse(rightIds) +
        mappingElement(
          q,
          ids.map((id) => [id, rightIds.includes(id) ? share : -share]),
        ),
    ),
    interaction: element(
      'qti-hottext-interaction',
      { 'response-identifier': 'RESPONSE', 'max-choices': String(q.max_choices ?? 0) },
      textBlock(q, q.question_text, media, notes, 'div', wrapper, fill),
    ),
    processing: mappedScore(),
    holdsText: true,
  };
}

export const hottextQti: QtiMapping = {
  type: hottext.name,
  readers: { hottextInteraction: { read: hottextInteraction, inText: true } },
  write: hottextItem,
};
