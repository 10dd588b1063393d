// GIFT read and written with every question type's mappings (each type's gift.ts, where GIFT can
// hold it): the format's own syntax is interchange/gift/'s, what a type becomes in it is the type's.
export { GiftWriter, giftPoolNotes, parseGift, toGift } from '../../interchange';
