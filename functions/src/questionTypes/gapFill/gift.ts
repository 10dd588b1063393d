import { gift } from '../../interchange';

// GIFT has no such question: none is read, and an export writes a comment in its place.
export const gapFillGift = gift.cannotSay(
  'a gap-fill question, which GIFT cannot say (its one answer block is one gap)',
);
