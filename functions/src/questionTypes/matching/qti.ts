import { qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { matching } from './module';

// A matching in QTI: a match interaction of its stems against its options, each right pair
// scored by the mapping.

const { choiceContent, correctResponse, element, mappedScore, mappingElement } = qtiWriting;
type ExportMedia = qtiWriting.ExportMedia;
type ItemParts = qtiWriting.ItemParts;

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

export const matchingQti: QtiMapping = { type: matching.name, write: matchingItem };
