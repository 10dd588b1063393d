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

// Aiken.
export { parseAiken } from './aiken/read';

// GIFT.
export { parseGift } from './gift/read';
export { GiftWriter, giftPoolNotes, toGift } from './gift/write';

// Moodle XML.
export { parseMoodleXml } from './moodleXml/read';
export { MoodleXmlWriter, toMoodleXml } from './moodleXml/write';

// QTI: the packages, given the types (questionTypes/formats/qti.ts binds them), and the kit each
// type's mapping (questionTypes/<type>/qti.ts) is written with.
export { readQtiPackage, readQtiXml } from './qti/read';
export { QtiPackageWriter, writeQtiPackage } from './qti/write';
export type { QtiMapping, QtiTypes } from './qti/port';
export * as qtiReading from './qti/readingKit';
export * as qtiWriting from './qti/writingKit';
