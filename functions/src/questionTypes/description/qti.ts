import { qtiReading, type QtiMapping } from '../../interchange';
import { description } from './module';

// A description in QTI: an item with no interaction, text and media only; or, when a question
// names it as its passage, a stimulus beside the items (and a stimulus read is one).

const { kids } = qtiReading;
type InteractionPart = qtiReading.InteractionPart;
type XmlElement = qtiReading.XmlElement;

// ---- Reading

/** An item that asks nothing (instructions, a passage): a description, its declared responses named as not carried. */
function descriptionPart(root: XmlElement, warnings: Set<string>): InteractionPart {
  const declared = kids(root, 'responseDeclaration').length;
  if (declared > 0)
    warnings.add(
      `It declares ${declared} response${declared === 1 ? '' : 's'} but asks for none (no interaction): imported as a description, with no answer and no marks`,
    );
  return { draft: { question_type: description.name }, marks: 0 };
}

export const descriptionQti: QtiMapping = {
  type: description.name,
  noInteraction: descriptionPart,
  // Text and media only: an item with no interaction.
  write: () => ({ declarations: '', interaction: '', processing: '' }),
  passage: true,
};
