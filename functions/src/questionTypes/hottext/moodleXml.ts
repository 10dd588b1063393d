import type { MoodleXmlMapping } from '../../interchange';

// A hot text in Moodle XML: none. No Moodle core type holds phrases chosen in the text, so it is
// neither read nor written (the export says so in its place).

export const hottextMoodleXml: MoodleXmlMapping = {
  reads: {},
  write: { cannot: 'a hottext question (phrases chosen in the text), which no Moodle core type holds' },
};
