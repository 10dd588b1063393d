// Pure: the words of counts, kept in one place (English for now; a catalog replaces the nouns later).

const PLURAL_RULES = new Intl.PluralRules('en');

/** "1 question", "2 questions": a count with its noun, by the language's plural rule (pass the plural when it is not noun + s). */
export const plural = (count: number, noun: string, nouns = `${noun}s`) =>
  `${count} ${PLURAL_RULES.select(count) === 'one' ? noun : nouns}`;

/** "1 mark", "0.5 marks", "2 marks": a question's or a grade's marks. */
export const marksText = (marks: number) => plural(marks, 'mark');
