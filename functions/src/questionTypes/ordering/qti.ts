import { qtiReading, qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { ordering } from './module';

// An ordering in QTI: an order interaction whose correct response is the right order; our partial
// scoring (QTI's templates score a whole order only) is an attribute of ours.

const { Refusal, attr, correctValues, distinctTexts, kids } = qtiReading;
type InteractionPart = qtiReading.InteractionPart;
type ItemReading = qtiReading.ItemReading;
type QuestionDraft = qtiReading.QuestionDraft;
const { choiceContent, choiceIds, correctResponse, element, matchScore } = qtiWriting;
type ExportMedia = qtiWriting.ExportMedia;
type ItemParts = qtiWriting.ItemParts;

/** On an order interaction: our export's partial scoring (QTI's templates score a whole order only). */
const ORDERING_SCORE_ATTRIBUTE = 'data-ordering-score';

// ---- Reading

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
    question_type: ordering.name,
    options: order.map((id) => texts[ids.indexOf(id)]),
    ordering_score: partial ? 'partial' : 'all_or_nothing',
  };
  return { draft, marks: item.marks ?? 1 };
}

// ---- Writing

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

export const orderingQti: QtiMapping = {
  type: ordering.name,
  readers: { orderInteraction: { read: orderInteraction } },
  write: orderingItem,
};
