// Pure: what a question type's QTI writer (questionTypes/<type>/qti.ts) builds its item's parts
// with, through interchange's front door (qtiWriting): the element builders, the response
// processing templates, the conventions every format writes by.

export { correctOptions, formatNumber } from '../conventions';
export { mediaIdsIn } from '../exportModel';
export type { ExportMedia } from '../exportModel';
export type { AlternativeAnswer, GapDraft } from '../model';
export { element, escapeText, textElement } from '../xmlText';
export {
  choiceContent,
  choiceIds,
  choiceParts,
  correctResponse,
  float,
  inlineChoiceText,
  mappedScore,
  mappingElement,
  matchScore,
  mediaHref,
  points,
  setScore,
  textBlock,
  variable,
} from './itemParts';
export type { ItemParts, PartsWriter } from './itemParts';
