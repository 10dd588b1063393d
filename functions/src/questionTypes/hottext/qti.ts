import { qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { hottext } from './module';

// Hot texts in QTI: a hottext interaction holding the question's text, each marked phrase a
// qti-hottext, right ones scored up and wrong ones down by the mapping.

const { correctOptions, correctResponse, element, mappedScore, mappingElement, textBlock } = qtiWriting;
type ExportMedia = qtiWriting.ExportMedia;
type ItemParts = qtiWriting.ItemParts;

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

export const hottextQti: QtiMapping = { type: hottext.name, write: hottextItem };
