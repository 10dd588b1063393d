import { gift } from '../../interchange';

// GIFT has no such question: none is read, and an export writes a comment in its place.
export const orderingGift = gift.cannotSay('an ordering question, which GIFT cannot say');
