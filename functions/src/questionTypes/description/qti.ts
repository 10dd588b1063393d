import type { QtiMapping } from '../../interchange';
import { description } from './module';

// A description in QTI: an item with no interaction, text and media only; or, when a question
// names it as its passage, a stimulus beside the items.

export const descriptionQti: QtiMapping = {
  type: description.name,
  write: () => ({ declarations: '', interaction: '', processing: '' }),
  passage: true,
};
