// The bank file formats as the rest reads and writes them: each format's syntax (interchange/)
// bound to what every question type becomes in it (formats/). Loaded by loadBankFormats(): a
// cold instance, which scores and shows questions, never loads a format.
export { parseAiken } from './formats/aiken';
export { GiftWriter, giftPoolNotes, parseGift, toGift } from './formats/gift';
export { MoodleXmlWriter, parseMoodleXml, toMoodleXml } from './formats/moodleXml';
export { parseQtiPackage, parseQtiXml, QtiPackageWriter, toQtiPackage } from './formats/qti';
