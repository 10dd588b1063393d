import { gift } from '../../interchange';

// GIFT has no such question: none is read, and an export writes a comment in its place.
export const calculatedGift = gift.cannotSay(
  'a calculated question, which GIFT cannot say (its variables and formula)',
);
