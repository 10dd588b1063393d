// Front door of interchange/: bank files read and written (GIFT, Aiken, Moodle XML, QTI): pure, no Firebase.
// What other folders may use; nothing else of this folder is imported from outside.
export { parseAiken } from './aiken/read';
export { CATEGORY_SEPARATOR } from './conventions';
export { FORMAT_LABELS, decodeBankText, detectFormat } from './detect';
export { mediaOfQuestion } from './exportModel';
export type { ExportMediaFile, ExportPool, ExportQuestion, ExportTest } from './exportModel';
export { parseGift } from './gift/read';
export { GiftWriter, giftPoolNotes } from './gift/write';
export { BankFileRefused, INTERCHANGE_FORMATS, MEDIA_PLACEHOLDER } from './model';
export type { InterchangeFormat, ParsedBank, ParsedItem, QuestionDraft } from './model';
export { parseMoodleXml } from './moodleXml/read';
export { MoodleXmlWriter } from './moodleXml/write';
export { parseQtiPackage, parseQtiXml } from './qti/read';
export { QtiPackageWriter } from './qti/write';
