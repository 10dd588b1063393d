import {
  element,
  elements,
  htmlLine,
  matchingDistractors,
  Refusal,
  textElement,
  xmlElement,
  type MoodleReader,
  type MoodleWriter,
  type MoodleXmlMapping,
} from '../../interchange';

// A matching in Moodle XML: Moodle's match (qtype_match, written `matching` in older files), its
// subquestions the stems, their answers the matches; a subquestion without text is a distractor.
// Moodle's answers are plain text, so an HTML option is written as its text.

/** Moodle's `matching` (qtype_match): a subquestion without text is a distractor; the answers are plain text. */
const matching: MoodleReader = (r) => {
  const stems: string[] = [];
  const matches: string[] = [];
  const options: string[] = [];
  elements(r.question, 'subquestion').forEach((sub, i) => {
    const answer = element(sub, 'answer');
    const option = answer ? r.optionText(answer, 'plain_text', `The answer of subquestion ${i + 1}`) : '';
    const stem = r.optionText(sub, r.textFormat, `Subquestion ${i + 1}`, 'stems');
    if (option === '') {
      if (stem !== '') throw new Refusal(`Subquestion ${i + 1} ("${stem}") has no answer`);
      return;
    }
    if (!options.includes(option)) options.push(option);
    if (stem === '') return;
    stems.push(stem);
    matches.push(option);
  });
  if (stems.length === 0) throw new Refusal('It has no subquestions with text to match');
  r.noteCombinedFeedback();
  return r.assemble({ question_type: 'matching', stems, options, matches });
};

/** The stems with their matches, then each option no stem matches as a subquestion without text (Moodle's distractor). */
const write: MoodleWriter = (w) => {
  const { q } = w;
  const stems = q.stems ?? [];
  const matches = q.matches ?? [];
  const notes: string[] = [];
  // Moodle's stems take its text formats; its answers are plain text, so an HTML option is written as its text.
  const answerText = (answer: string): string => {
    if (!w.html) return answer;
    const line = htmlLine(answer);
    if (line.images.length > 0 || line.formatting.length > 0)
      notes.push(`the option "${line.text}" is written as its text: Moodle's match answers are plain text`);
    return line.text;
  };
  const subquestion = (stem: string, answer: string) =>
    w.formattedText('subquestion', stem, xmlElement('answer', {}, textElement('text', answerText(answer))));
  const { distractors, reordered } = matchingDistractors(q);
  if (reordered)
    notes.push(
      "the options' order is not carried: Moodle lists the subquestions' answers (matches first, then distractors)",
    );
  return {
    type: 'matching',
    body:
      textElement('shuffleanswers', 'true') +
      stems.map((stem, i) => subquestion(stem, matches[i] ?? '')).join('') +
      distractors.map((d) => subquestion('', d)).join(''),
    notes,
  };
};

export const matchingMoodleXml: MoodleXmlMapping = { reads: { matching, match: matching }, write };
