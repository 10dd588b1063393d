// Pure: what a question type's QTI readers (questionTypes/<type>/qti.ts) read an interaction
// with, through interchange's front door (qtiReading): QTI's elements in either version's
// spelling, the item's key and scoring, its HTML, and the readings several types share.

export { MAX_ESSAY_ATTACHMENTS } from '../conventions';
export { labelledImageDraft, PLACED_ON_IMAGE, zoneAt } from '../labelledImage';
export { Refusal } from '../model';
export type { AlternativeAnswer, GapDraft, QuestionDraft } from '../model';
export { localName } from '../xml';
export type { XmlElement } from '../xml';
export { attr, collapse, descendants, escapeText, kid, kids, numberOf, qtiName, round5, textOf } from './elements';
export { imageSource } from './graphics';
export { mediaReference, promptBlock } from './html';
export type { HtmlContext } from './html';
export { distinctTexts, optionText, readChoices, readTextEntry, withOptionFeedback } from './interactions';
export type { ChoiceReading, InteractionPart, ItemReading, TextEntry } from './interactions';
export type { CompositeReader, InteractionReader } from './port';
export { correctValues, gapBranches, numericBranches, toleranceOf } from './scoring';
export type { MapEntry, Mapping, NumericBranch } from './scoring';
