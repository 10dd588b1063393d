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

// Moodle XML.
export { parseMoodleXml } from './moodleXml/read';
export { MoodleXmlWriter, toMoodleXml } from './moodleXml/write';

// QTI.
export { parseQtiPackage, parseQtiXml } from './qti/read';
export { QtiPackageWriter, toQtiPackage } from './qti/write';
