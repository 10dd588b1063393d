// Front door of interchange/: bank files read and written (GIFT, Aiken, Moodle XML, QTI): pure, no Firebase.
// What other folders may use; nothing else of this folder is imported from outside. Each format's
// readers and writers are bound to the question types' mappings in questionTypes/formats/.

// Every format's: the model of what a file gives, detection, the export's model.
export { CATEGORY_SEPARATOR } from './conventions';
export { FORMAT_LABELS, decodeBankText, detectFormat } from './detect';
export { mediaOfQuestion } from './exportModel';
export type { ExportMediaFile, ExportPool, ExportQuestion, ExportTest } from './exportModel';
export { BankFileRefused, INTERCHANGE_FORMATS, MEDIA_PLACEHOLDER } from './model';
export type { InterchangeFormat, ParsedBank, ParsedItem, QuestionDraft } from './model';

// Aiken: its reader, given the type its questions become.
export { readAiken } from './aiken/read';
export type { AikenType } from './aiken/read';

// GIFT: its reader, writer and what the types' mappings are written with, as one namespace.
export * as gift from './gift/kit';

// Moodle XML: the format's kit, read and written through the table of the types' mappings it is
// given (questionTypes/formats/moodleXml.ts), and what a type's mapping is written with.
export { readMoodleXml } from './moodleXml/read';
export { MoodleXmlFileWriter, moodleQuestion, writeMoodleXml } from './moodleXml/write';
export { moodleXmlTypes } from './moodleXml/types';
export type { MoodleReader, MoodleWriter, MoodleWritten, MoodleXmlMapping, MoodleXmlTypes } from './moodleXml/types';
export { percent } from './moodleXml/questionReader';
export type { DefaultMarks, FieldText, GradedAnswer, QuestionReader, TypedDraft } from './moodleXml/questionReader';
export type { QuestionWriter } from './moodleXml/questionWriter';
// What the types' Moodle XML mappings use of the formats' shared kit.
export {
  alternativeGrades,
  EXPORT_TAGS,
  formatNumber,
  gradeChanges,
  htmlLine,
  isAllOrNothingCredits,
  matchingDistractors,
  MAX_ESSAY_ATTACHMENTS,
  moodleCredits,
  nearestMoodleGrade,
} from './conventions';
export { literalStars } from './gift/write';
export { imageDimensions } from './imageSize';
export { labelledImageDraft, PLACED_ON_IMAGE, zoneAt } from './labelledImage';
export type { DropZone } from './labelledImage';
export { Refusal } from './model';
export type { AlternativeAnswer, GapDraft } from './model';
export { element, elements, textOf } from './xml';
export type { XmlElement } from './xml';
export { element as xmlElement, textElement } from './xmlText';

// QTI: the packages, given the types (questionTypes/formats/qti.ts binds them), and the kit each
// type's mapping (questionTypes/<type>/qti.ts) is written with.
export { readQtiPackage, readQtiXml } from './qti/read';
export { QtiPackageWriter, writeQtiPackage } from './qti/write';
export type { QtiMapping, QtiTypes } from './qti/port';
export * as qtiReading from './qti/readingKit';
export * as qtiWriting from './qti/writingKit';
