import { gift } from '../../interchange';
import type { ExportQuestion } from '../../interchange';

// A multiple select in GIFT: `{~%50%a ~%50%b ~%-100%c}`, no answer marked "=" (Moodle's multiple
// response): option_credits are the weights (−100..100), correct_answer the options with a positive
// weight joined by "|". Scored all or nothing, which Moodle cannot say, it is written with
// moodleCredits' stand-in credits and the all_or_nothing tag, and read back without option_credits.

/** Whether it is written with its own credits (else with moodleCredits' stand-in for all or nothing). */
const hasCredits = (q: ExportQuestion): boolean => q.option_credits?.length === q.options.length;

export const multipleSelectGift: gift.GiftMapping = {
  reader: {
    kind: 'MultipleResponse',
    read(question) {
      const { options, withFeedback, weights } = gift.choiceAnswers(question);
      const credits = weights.map((w) => w ?? 0);
      if (question.tags.allOrNothing === true) {
        // Our export's stand-in for a question scored all or nothing, which Moodle cannot say.
        const correct = options.filter((_o, i) => credits[i] > 0).join(gift.OPTION_SEPARATOR);
        if (gift.isAllOrNothingCredits({ options, correct_answer: correct }, credits))
          return { options, correct_answer: correct, ...withFeedback };
        question.warn(
          `The ${gift.EXPORT_TAGS.allOrNothing} tag was ignored: the weights are not those it stands for (an equal share per right option, -100% per wrong one)`,
        );
      }
      const rounded = roundCredits(credits);
      if (rounded.some((c, i) => c !== credits[i]))
        question.warn(
          `The weights were rounded so that the right options add up to 100%: ${credits.join(', ')} → ${rounded.join(', ')}`,
        );
      return {
        options,
        correct_answer: options.filter((_o, i) => rounded[i] > 0).join(gift.OPTION_SEPARATOR),
        option_credits: rounded,
        ...withFeedback,
      };
    },
  },
  fieldTags: ['allOrNothing'],
  write(q) {
    // No "=": Moodle reads a choice question without one as multiple answers.
    const credits = gift.moodleCredits(q);
    const notes: string[] = [];
    if (hasCredits(q)) {
      const changed = gift.gradeChanges(q.option_credits!, credits);
      if (changed) notes.push(`option credits rounded to Moodle's grades: ${changed}`);
    } else
      notes.push(
        'scored all or nothing here: written with an equal share of 100% per correct option and -100% per wrong one',
      );
    return {
      body: q.options
        .map(
          (o, i) => `\t~${gift.weight(credits[i])}${gift.answerText(q, o)}${gift.feedbackText(q.option_feedback?.[i])}`,
        )
        .join('\n'),
      notes,
      tags: hasCredits(q) ? [] : [gift.EXPORT_TAGS.allOrNothing],
    };
  },
};

/** Hundredths of a percent, the positive ones adding up to exactly 100 (largest remainders). */
function roundCredits(credits: number[]): number[] {
  const positives = credits.filter((c) => c > 0);
  const sum = positives.reduce((s, c) => s + c, 0);
  if (positives.length === 0)
    throw new gift.Refusal('No option has a positive weight: at least one must be right (e.g. ~%100%answer)');
  if (Math.abs(sum - 100) > 0.1)
    throw new gift.Refusal(
      `The positive weights add up to ${+sum.toFixed(5)}%, not 100%: choosing every right option must be worth full marks`,
    );
  const exact = credits.map((c) => c * 100);
  const hundredths = exact.map((c) => Math.round(c));
  const positiveIndexes = credits.map((c, i) => (c > 0 ? i : -1)).filter((i) => i >= 0);
  let missing = 10_000 - positiveIndexes.reduce((s, i) => s + hundredths[i], 0);
  // Give or take hundredths where rounding moved a weight furthest from its value.
  const order = [...positiveIndexes].sort((a, b) =>
    missing > 0
      ? exact[b] - hundredths[b] - (exact[a] - hundredths[a])
      : exact[a] - hundredths[a] - (exact[b] - hundredths[b]),
  );
  for (let k = 0; missing !== 0; k = (k + 1) % order.length) {
    hundredths[order[k]] += Math.sign(missing);
    missing -= Math.sign(missing);
  }
  return hundredths.map((h) => h / 100);
}
