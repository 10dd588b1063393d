import { element, percent, Refusal, textElement, type MoodleReader, type MoodleXmlMapping } from '../../interchange';
import { multipleAnswers } from '../multipleSelect/moodleXml';

// A multiple choice in Moodle XML: Moodle's multichoice with one answer (`single`), the correct
// option worth 100%. Moodle's multichoice with several answers is a multiple select's (its reader
// takes over once the options are read).

/** Moodle's multichoice: one answer worth 100%, or several answers (a multiple select). */
const multichoice: MoodleReader = (r) => {
  const format = r.textFormat;
  const answers = r.gradedAnswers();
  const options = answers.map((a, i) => r.optionText(a.element, format, `Option ${i + 1}`));
  const feedback = answers.map((a) => r.field(element(a.element, 'feedback'), format));
  const single = !['false', '0', ''].includes(r.value('single') ?? 'true');
  r.noteChoiceSettings();
  if (!single) return multipleAnswers(r, answers, options, feedback);
  const full = answers.flatMap((a, i) => (a.credit === 100 ? [i] : []));
  if (full.length === 0) throw new Refusal('No answer is worth 100%: a single-answer question needs one');
  if (full.length > 1)
    throw new Refusal(
      `${full.length} answers are worth 100%: a multiple choice question has exactly one correct option`,
    );
  const partial = answers.flatMap((a, i) =>
    a.credit !== 100 && a.credit !== 0 ? [`option ${i + 1}: ${percent(a.credit)}`] : [],
  );
  if (partial.length > 0)
    r.warnings.push(
      `A single-answer question here gives full marks or none: options with other grades (${partial.join(', ')}) score 0`,
    );
  return r.assemble({ question_type: 'multiple_choice', options, correct_answer: options[full[0]] }, feedback);
};

export const multipleChoiceMoodleXml: MoodleXmlMapping = {
  reads: { multichoice },
  write: (w) => {
    const { q } = w;
    return {
      type: 'multichoice',
      body:
        textElement('single', 'true') +
        w.choiceSettings() +
        q.options
          .map((o, i) => w.choiceAnswer(o === q.correct_answer ? 100 : 0, o, q.option_feedback?.[i] ?? ''))
          .join(''),
      notes: [],
    };
  },
};
