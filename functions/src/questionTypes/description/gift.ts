import { gift } from '../../interchange';

// A description in GIFT: text with no answer block, shown among the questions with no answer and
// no marks. The export does not write one yet.

export const descriptionGift: gift.GiftMapping = {
  reader: { kind: 'Description', read: () => ({ marks: 0 }) },
  fieldTags: [],
  write: () => ({ cannot: 'a description, which this export does not write in GIFT yet' }),
};
