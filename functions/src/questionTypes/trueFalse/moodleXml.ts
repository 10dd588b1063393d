import {
  element,
  elements,
  Refusal,
  type FieldText,
  type MoodleXmlMapping,
  type MoodleReader,
} from '../../interchange';

// A true/false in Moodle XML: Moodle's truefalse, its answers "true" and "false", the correct one
// worth 100%, each with its feedback.

const truefalse: MoodleReader = (r) => {
  const format = r.textFormat;
  const answers = elements(r.question, 'answer');
  if (answers.length === 0) throw new Refusal('It has no true and false answers');
  let trueIsCorrect: boolean | undefined;
  const verdicts = new Set<boolean>();
  const feedback: FieldText[] = [r.field(undefined, format), r.field(undefined, format)];
  let byPosition = false;
  answers.forEach((answer, i) => {
    let which = r.plainFieldText(answer);
    if (which !== 'true' && which !== 'false') {
      byPosition = true;
      which = i === 0 ? 'true' : 'false';
    }
    const full = Number(answer.attrs.fraction ?? 0) === 100;
    trueIsCorrect = which === 'true' ? full : !full;
    verdicts.add(trueIsCorrect);
    feedback[which === 'true' ? 0 : 1] = r.field(element(answer, 'feedback'), format);
  });
  if (verdicts.size > 1)
    throw new Refusal('Its grades do not say whether true or false is correct (exactly one must be worth 100%)');
  if (byPosition)
    r.warnings.push(
      'Its answers are not named "true" and "false": the first was taken as true, the second as false, as Moodle does',
    );
  return r.assemble(
    { question_type: 'true_false', options: ['True', 'False'], correct_answer: trueIsCorrect ? 'True' : 'False' },
    feedback,
  );
};

export const trueFalseMoodleXml: MoodleXmlMapping = {
  reads: { truefalse },
  write: (w) => {
    const { q } = w;
    return {
      type: 'truefalse',
      body:
        w.textAnswer(q.correct_answer === 'True' ? 100 : 0, 'true', q.option_feedback?.[0] ?? '') +
        w.textAnswer(q.correct_answer === 'False' ? 100 : 0, 'false', q.option_feedback?.[1] ?? ''),
      notes: [],
    };
  },
};
