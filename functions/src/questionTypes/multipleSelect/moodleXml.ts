import {
  EXPORT_TAGS,
  gradeChanges,
  isAllOrNothingCredits,
  moodleCredits,
  Refusal,
  textElement,
  type FieldText,
  type GradedAnswer,
  type MoodleXmlMapping,
  type QuestionDraft,
  type QuestionReader,
} from '../../interchange';
import { OPTION_SEPARATOR } from '../fields';

// A multiple select in Moodle XML: Moodle's multichoice with several answers, its grades the
// options' credits. Scored all or nothing here, it is written with an equal share per correct
// option and tagged so (EXPORT_TAGS.allOrNothing), which Moodle cannot say. Moodle's multichoice is
// read by multiple choice's reader, which hands a multichoice with several answers to this one.

/** Moodle's multichoice with several answers (read by multiple choice's reader up to its `single`). */
export function multipleAnswers(
  r: QuestionReader,
  answers: GradedAnswer[],
  options: string[],
  feedback: FieldText[],
): QuestionDraft {
  const positive = answers.reduce((sum, a) => sum + Math.max(a.credit, 0), 0);
  if (Math.abs(positive - 100) >= 0.5)
    throw new Refusal(`The positive grades add up to ${+positive.toFixed(5)}%, not 100%, as Moodle requires`);
  const correct = options.filter((_, i) => answers[i].credit > 0).join(OPTION_SEPARATOR);
  const credits = answers.map((a) => a.credit);
  let allOrNothing = false;
  if (r.tags.allOrNothing) {
    // Our export's stand-in for a question scored all or nothing, which Moodle cannot say.
    allOrNothing = isAllOrNothingCredits({ options, correct_answer: correct }, credits);
    if (!allOrNothing)
      r.warnings.push(
        `The ${EXPORT_TAGS.allOrNothing} tag was ignored: the grades are not those it stands for (an equal share per right option, -100% per wrong one)`,
      );
  }
  return r.assemble(
    {
      question_type: 'multiple_select',
      options,
      correct_answer: correct,
      ...(allOrNothing ? {} : { option_credits: credits }),
    },
    feedback,
  );
}

export const multipleSelectMoodleXml: MoodleXmlMapping = {
  reads: {},
  write: (w) => {
    const { q } = w;
    const credits = moodleCredits(q);
    const ownCredits = q.option_credits?.length === q.options.length;
    const notes = ownCredits
      ? [gradeChanges(q.option_credits!, credits)]
          .filter(Boolean)
          .map((c) => `option credits rounded to Moodle's grades: ${c}`)
      : ['scored all or nothing here: written with an equal share of 100% per correct option and -100% per wrong one'];
    return {
      type: 'multichoice',
      body:
        textElement('single', 'false') +
        w.choiceSettings() +
        q.options.map((o, i) => w.choiceAnswer(credits[i], o, q.option_feedback?.[i] ?? '')).join(''),
      notes,
      tags: ownCredits ? [] : [EXPORT_TAGS.allOrNothing],
    };
  },
};
