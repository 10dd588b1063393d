// What GIFT is read and written with from outside interchange/ (the front door exports it as one
// namespace, `gift`): the reader and writer, given the question types (questionTypes/formats/gift.ts),
// and what each type's GIFT mapping (questionTypes/<type>/gift.ts) is written with: the port it
// fills, GIFT's answers and escapes, and the conventions of our exports it keeps.

export { readGift } from './read';
export {
  GiftWriter,
  answerText,
  feedbackText,
  giftEscape,
  giftPoolNotes,
  giftQuestion,
  inAnswers,
  literalStars,
  weight,
} from './write';
export { GIFT_KINDS, cannotSay, giftTypes } from './port';
export type { GiftCannot, GiftMapping, GiftReading, GiftType, GiftWritten } from './port';
export type { GiftAnswer } from './grammar';
export {
  ARROW,
  bestAndAlternatives,
  choiceAnswers,
  hasFeedback,
  joinFeedback,
  optionText,
  quoteList,
  weightOf,
} from './answers';

export {
  EXPORT_TAGS,
  alternativeGrades,
  decimalText,
  fixedPointText,
  formatNumber,
  gradeChanges,
  htmlLine,
  isAllOrNothingCredits,
  matchingDistractors,
  moodleCredits,
} from '../conventions';
export { isHtml } from '../exportModel';
export { OPTION_SEPARATOR, Refusal } from '../model';
export type { AlternativeAnswer } from '../model';
