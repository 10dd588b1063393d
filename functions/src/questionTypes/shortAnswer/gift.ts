import { gift } from '../../interchange';
import type { QuestionDraft } from '../../interchange';

// A short answer in GIFT: `{=a =%50%b}` or `{a}` → correct_answer the first 100% answer, the others
// alternatives {answer, credit}. Its answers are plain text: markup in them is removed, with a
// warning. Case sensitivity, which GIFT cannot say, travels as the case_sensitive tag.

export const shortAnswerGift: gift.GiftMapping = {
  reader: {
    kind: 'Short',
    read: (question) => ({
      ...shortAnswer(question),
      ...(question.tags.caseSensitive ? { case_sensitive: true } : {}),
    }),
  },
  fieldTags: ['caseSensitive'],
  write(q) {
    const alternatives = q.alternatives ?? [];
    const { grades, changed } = gift.alternativeGrades(alternatives);
    // A short answer's answers are never format-marked in Moodle: only a leading % needs the explicit weight.
    const answer = (text: string, grade: number | null) =>
      `\t=${grade !== null || text.startsWith('%') ? gift.weight(grade ?? 100) : ''}${gift.inAnswers(gift.literalStars(text))}`;
    return {
      body: [answer(q.correct_answer, null), ...alternatives.map((a, i) => answer(a.answer, grades[i]))].join('\n'),
      notes: changed ? [`alternative credits rounded to Moodle's grades: ${changed}`] : [],
      tags: q.case_sensitive ? [gift.EXPORT_TAGS.caseSensitive] : [],
      unmarked: [q.correct_answer, ...alternatives.map((a) => a.answer)],
    };
  },
};

function shortAnswer({ answers, inherited, warn }: gift.GiftReading): Partial<QuestionDraft> {
  if (answers.length === 0) throw new gift.Refusal('The answer block has no answer');
  const accepted: gift.AlternativeAnswer[] = [];
  const feedbackLost: string[] = [];
  answers.forEach((a, i) => {
    const credit = a.weight === null ? 100 : gift.weightOf(a.weight, `answer ${i + 1}`);
    if (credit < 0)
      throw new gift.Refusal(`Answer ${i + 1} has a negative weight (${credit}%): a short answer earns 0 to 100%`);
    // Moodle keeps a short answer's text as written: only a format marker of its own makes it HTML.
    const written = gift.optionText(a, a.format === null ? 'plain' : inherited, `Answer ${i + 1}`, warn);
    // Moodle's `*` matches any characters and `\*` is a literal one: our comparison is exact.
    const answer = written.replace(/\\\*/g, '*');
    if (/(^|[^\\])\*/.test(written)) {
      if (credit > 0)
        throw new gift.Refusal(
          `Answer "${answer}" uses the wildcard "*", which we do not have: answers are compared whole (trimmed, case-insensitively); list the accepted answers instead`,
        );
      warn(`Answer "${answer}" (a wildcard worth 0%, there only for its feedback) is not carried`);
      return;
    }
    if (gift.hasFeedback(a)) feedbackLost.push(answer);
    accepted.push({ answer, credit });
  });
  if (feedbackLost.length > 0)
    warn(`The feedback of ${gift.quoteList(feedbackLost)} is not carried: a short answer has no per-answer feedback`);
  const { best, alternatives } = gift.bestAndAlternatives(accepted);
  return { correct_answer: best.answer, ...(alternatives.length > 0 ? { alternatives } : {}) };
}
