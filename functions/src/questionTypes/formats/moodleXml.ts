// Moodle XML read and written with every question type's mappings (each type's moodleXml.ts): the
// format's own structure is interchange/moodleXml/'s, what a type becomes in it is the type's.
export { MoodleXmlWriter, parseMoodleXml, toMoodleXml } from '../../interchange';
