import { gift } from '../../interchange';

// An essay in GIFT: text and an empty block, `{}` (`{####x}`: with general feedback x). Its word
// limit, which GIFT cannot say, travels as the max_words tag; its attachments are not written.

export const essayGift: gift.GiftMapping = {
  reader: {
    kind: 'Essay',
    read: ({ tags }) => (tags.maxWords !== undefined ? { max_words: tags.maxWords } : {}),
  },
  fieldTags: ['maxWords'],
  write: (q) => ({
    body: '',
    notes: q.attachments
      ? [`its ${q.attachments} attached file${q.attachments === 1 ? '' : 's'} (GIFT cannot say them): not written`]
      : [],
    tags: q.max_words ? [`${gift.EXPORT_TAGS.maxWords}${q.max_words}`] : [],
  }),
};
