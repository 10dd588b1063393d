import {
  alternativeGrades,
  literalStars,
  percent,
  Refusal,
  textElement,
  type MoodleReader,
  type MoodleXmlMapping,
  type TypedDraft,
} from '../../interchange';

// A short answer in Moodle XML: Moodle's shortanswer, its first answer worth 100% the key and the
// other credited ones its alternatives. Moodle's `*` is a wildcard, which an exact comparison
// cannot carry; a literal star is written `\*`.

const shortanswer: MoodleReader = (r) => {
  const caseSensitive = !['0', '', 'false'].includes(r.value('usecase') ?? '0');
  const { key, alternatives } = r.keyAndAlternatives((answer, text) => {
    // Moodle's `*` matches any characters (`\*` is a literal one); our comparison is exact, so it cannot be carried.
    if (/(^|[^\\])\*/.test(text)) {
      if (answer.credit === 0) {
        r.warnings.push(`The answer "${text}" (a wildcard worth 0%, there for its feedback) is not carried`);
        return undefined;
      }
      throw new Refusal(
        `Answer "${text}" (${percent(answer.credit)}) uses Moodle's * wildcard, which cannot be matched here`,
      );
    }
    return { answer: text.replace(/\\\*/g, '*'), credit: answer.credit };
  });
  const draft: TypedDraft = {
    question_type: 'short_answer',
    correct_answer: key.answer,
    case_sensitive: caseSensitive,
  };
  if (alternatives.length > 0) draft.alternatives = alternatives;
  return r.assemble(draft);
};

export const shortAnswerMoodleXml: MoodleXmlMapping = {
  reads: { shortanswer },
  write: (w) => {
    const { q } = w;
    const alternatives = q.alternatives ?? [];
    const { grades, changed } = alternativeGrades(alternatives);
    return {
      type: 'shortanswer',
      body:
        textElement('usecase', q.case_sensitive ? '1' : '0') +
        w.textAnswer(100, literalStars(q.correct_answer), '') +
        alternatives.map((a, i) => w.textAnswer(grades[i], literalStars(a.answer), '')).join(''),
      notes: changed ? [`alternative credits rounded to Moodle's grades: ${changed}`] : [],
    };
  },
};
