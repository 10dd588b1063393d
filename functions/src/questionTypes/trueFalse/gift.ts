import { gift } from '../../interchange';
import type { QuestionDraft } from '../../interchange';

// A true/false in GIFT: `{T}` `{TRUE}` `{F}` `{FALSE}` → options ["True","False"], correct_answer
// "True"/"False". `{TRUE#a#b}`: `a` is shown for the wrong choice, `b` for the right one; they are
// carried as option_feedback in the order [True, False].

export const trueFalseGift: gift.GiftMapping = {
  reader: { kind: 'TF', read: (question) => trueFalse(question.answers[0], question.feedback) },
  fieldTags: [],
  write(q) {
    // GIFT's first feedback is for a wrong answer, the second for a right one.
    const isTrue = q.correct_answer === 'True';
    const [forTrue, forFalse] = [q.option_feedback?.[0] ?? '', q.option_feedback?.[1] ?? ''];
    const [wrong, right] = isTrue ? [forFalse, forTrue] : [forTrue, forFalse];
    // Only as many marks as needed: an empty last feedback before "####" would read as "#####".
    const feedback = right
      ? `#${gift.inAnswers(wrong)}#${gift.inAnswers(right)}`
      : wrong
        ? `#${gift.inAnswers(wrong)}`
        : '';
    return { body: `${isTrue ? 'TRUE' : 'FALSE'}${feedback}`, notes: [] };
  },
};

function trueFalse(answer: gift.GiftAnswer, feedbackText: gift.GiftReading['feedback']): Partial<QuestionDraft> {
  const isTrue = ['T', 'TRUE'].includes(answer.text.trim());
  const [wrong, right, ...more] = answer.feedback;
  // Moodle splits at the first two "#": anything after the second belongs to the right answer's.
  const rightText =
    right && more.length > 0 ? { ...right, text: [right, ...more].map((f) => f.text).join('#') } : right;
  const forWrong = wrong ? feedbackText(wrong, 'The feedback of the wrong answer') : '';
  const forRight = rightText ? feedbackText(rightText, 'The feedback of the right answer') : '';
  const result: Partial<QuestionDraft> = {
    options: ['True', 'False'],
    correct_answer: isTrue ? 'True' : 'False',
  };
  if (forWrong !== '' || forRight !== '') result.option_feedback = isTrue ? [forRight, forWrong] : [forWrong, forRight];
  return result;
}
