import { gift } from '../../interchange';

// GIFT has no such question: none is read, and an export writes a comment in its place.
export const hotspotGift = gift.cannotSay('a hotspot question, which GIFT cannot say (an image and its areas)');
