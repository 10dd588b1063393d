import { gift } from '../../interchange';

// GIFT has no such question: none is read, and an export writes a comment in its place.
export const hottextGift = gift.cannotSay('a hottext question, which GIFT cannot say');
