import type { DefaultMarks, MoodleXmlMapping } from '../../interchange';

// A description in Moodle XML: Moodle's description, text and media shown among the questions.

/** A description's marks: none, whatever its defaultgrade (Moodle writes 0). */
const NO_MARKS: DefaultMarks = { marks: 0, why: '', fixed: true };

export const descriptionMoodleXml: MoodleXmlMapping = {
  reads: {
    /** Text and media shown among the questions: no answer, no marks. */
    description: (r) => r.assemble({ question_type: 'description' }, [], undefined, () => NO_MARKS),
  },
  write: () => ({ type: 'description', body: '', notes: [] }),
};
