import { gift } from '../../interchange';

// A multiple choice in GIFT: `{=a ~b ~c}`, one answer marked "=" (Moodle's single-answer
// multichoice); `#x` after an answer is its option's feedback.

export const multipleChoiceGift: gift.GiftMapping = {
  reader: {
    kind: 'MC',
    read(question) {
      const { options, withFeedback, weights } = gift.choiceAnswers(question);
      const right = question.answers.map((a, i) => (a.prefix === '=' ? i : -1)).filter((i) => i >= 0);
      if (right.length > 1)
        throw new gift.Refusal(
          `${right.length} answers are marked "=": a multiple-choice question has one right answer (give several right answers weights such as ~%50%)`,
        );
      weights.forEach((w, i) => {
        if (w !== null && i !== right[0] && w !== 0)
          question.warn(
            `Option ${i + 1} ("${options[i]}") is worth ${w}% in the file; a multiple-choice question gives no partial credit, so it counts as wrong`,
          );
        if (w !== null && i === right[0] && w !== 100)
          question.warn(`The right option is worth ${w}% in the file; it is carried as the right answer (100%)`);
      });
      return { options, correct_answer: options[right[0]], ...withFeedback };
    },
  },
  fieldTags: [],
  write: (q) => ({
    body: q.options
      .map(
        (o, i) =>
          `\t${o === q.correct_answer ? '=' : '~'}${gift.answerText(q, o)}${gift.feedbackText(q.option_feedback?.[i])}`,
      )
      .join('\n'),
    notes: [],
    // One option on a line of its own too, as every choice is written.
    multiline: true,
  }),
};
