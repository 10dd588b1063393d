import { qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { ordering } from './module';

// An ordering in QTI: an order interaction whose correct response is the right order; our partial
// scoring (QTI's templates score a whole order only) is an attribute of ours.

const { choiceContent, choiceIds, correctResponse, element, matchScore } = qtiWriting;
type ExportMedia = qtiWriting.ExportMedia;
type ItemParts = qtiWriting.ItemParts;

// ---- Writing

/** On an order interaction: our export's partial scoring (QTI's templates score a whole order only). */
export const ORDERING_SCORE_ATTRIBUTE = 'data-ordering-score';

/** Ordering: the items in the right order as the correct response (shown shuffled); the whole order earns the marks. */
function orderingItem(q: ExportQuestion, media: ExportMedia, notes: string[]): ItemParts {
  const ids = choiceIds(q);
  const partial = q.ordering_score === 'partial';
  if (partial)
    notes.push(
      `QTI's templates score a whole order: partial credit (the longest ordered subset) is carried as ${ORDERING_SCORE_ATTRIBUTE}`,
    );
  return {
    declarations: element(
      'qti-response-declaration',
      { identifier: 'RESPONSE', cardinality: 'ordered', 'base-type': 'identifier' },
      correctResponse(ids),
    ),
    interaction: element(
      'qti-order-interaction',
      {
        'response-identifier': 'RESPONSE',
        shuffle: 'true',
        [ORDERING_SCORE_ATTRIBUTE]: partial ? 'partial' : undefined,
      },
      q.options
        .map((o, i) => element('qti-simple-choice', { identifier: ids[i] }, choiceContent(q, o, media, notes)))
        .join(''),
    ),
    processing: matchScore(),
  };
}

export const orderingQti: QtiMapping = { type: ordering.name, write: orderingItem };
