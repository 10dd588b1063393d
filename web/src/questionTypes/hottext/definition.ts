import type { KeyDraft, QuestionTypeDefinition } from '../module';
import { phrasesOf } from '../parts';

// An answer and a key hold the chosen phrases joined by "|", as a multiple select's options.
const SEPARATOR = '|';

/** The phrases an answer or a key holds. */
export const chosenPhrases = (answer: string): string[] => (answer ? answer.split(SEPARATOR) : []);

/** An answer or a key holding the chosen phrases, in the text's order. */
export const joinPhrases = (phrases: string[], chosen: (phrase: string) => boolean): string =>
  phrases.filter(chosen).join(SEPARATOR);

/** What the form can tell about the phrases and the key before sending. */
function phrasesProblem(draft: KeyDraft): string | null {
  const phrases = phrasesOf(draft.question_text);
  if (phrases.length < 2) return 'Mark at least 2 phrases in the question text, [[like this]].';
  const right = phrases.filter((p) => draft.correct_choices.includes(p));
  if (right.length === 0) return 'Tick at least one right phrase.';
  const most = draft.max_choices.trim();
  if (most !== '' && !(Number.isInteger(Number(most)) && Number(most) >= right.length))
    return `The most a taker may choose is a whole number, at least the right phrases’ count (${right.length}).`;
  return null;
}

/** Phrases marked [[like this]] in the text, some of them right; the taker chooses phrases. */
export const hottext: QuestionTypeDefinition = {
  type: 'hottext',
  label: 'Hottext',
  hasOptions: false,
  maxOptions: 0,
  textInAnswer: true,
  fixedOptions: null,
  legendNote: 'Choose the phrases in the text.',
  takesAnswer: true,
  markedByPerson: false,
  chosenOptions: chosenPhrases,
  shownAnswer: (answer) => chosenPhrases(answer).join(', '),
  keyDraftOf: (q) => ({
    correct_choices: chosenPhrases(q.correct_answer ?? ''),
    max_choices: q.max_choices == null ? '' : String(q.max_choices),
  }),
  keyLabel: 'Right phrases',
  keyFieldLabels: { max_choices: 'Most phrases a taker may choose' },
  keyProblem: phrasesProblem,
  bodyOf: (draft) => ({
    question_type: 'hottext',
    correct_answer: joinPhrases(phrasesOf(draft.question_text), (p) => draft.correct_choices.includes(p)),
    max_choices: draft.max_choices.trim() === '' ? null : Number(draft.max_choices),
  }),
  regradeKeyHint: 'The right phrases joined by "|"',
  toleranceInKey: false,
  // A row holds no max_choices: a question with a limit is written in the form or another format.
  csvExample: {
    question_text: 'Which words are nouns? The quick brown [[fox]] [[jumps]] over the lazy [[dog]].',
    question_type: 'hottext',
    correct_answer: 'fox|dog',
    marks: '2',
    difficulty: 'easy',
  },
};
