import type { KeyDraft, QuestionTypeDefinition } from '../module';
import { anyPartsOf } from '../parts';

/** The stems the author wrote (blank rows dropped), each with its match. */
export const writtenMatches = (draft: KeyDraft) =>
  draft.matches.map((m) => ({ stem: m.stem.trim(), match: m.match })).filter((m) => m.stem !== '');

/** What the form can tell about the stems and their matches before sending. */
function matchesProblem(draft: KeyDraft, options: string[]): string | null {
  const rows = writtenMatches(draft);
  if (rows.length < 2) return 'Write at least 2 stems, each with its match.';
  if (rows.length > 20) return `Write at most 20 stems (there are ${rows.length}).`;
  const repeated = rows.find((row, i) => rows.findIndex((r) => r.stem === row.stem) !== i);
  if (repeated) return `The stem “${repeated.stem}” is written twice: make each stem different.`;
  const unmatched = rows.find((row) => !options.includes(row.match));
  return unmatched ? `Choose the option that matches “${unmatched.stem}”.` : null;
}

/** Stems, each matched with one of the options (the rest are distractors); a part per stem. */
export const matching: QuestionTypeDefinition = {
  type: 'matching',
  label: 'Matching',
  hasOptions: true,
  maxOptions: 30,
  textInAnswer: false,
  fixedOptions: null,
  legendNote: 'Choose the match of each item.',
  takesAnswer: true,
  markedByPerson: false,
  chosenOptions: (answer) => anyPartsOf(answer).filter(Boolean),
  shownAnswer: (answer) => anyPartsOf(answer).join(', '),
  keyDraftOf: (q) => {
    const stems = q.stems ?? [];
    const matches = q.matches ?? [];
    return { matches: stems.map((stem, i) => ({ stem, match: matches[i] ?? '' })) };
  },
  keyLabel: 'Stems and matches',
  keyFieldLabels: { stems: 'Stems', matches: 'Matches' },
  keyProblem: matchesProblem,
  bodyOf: (draft, options) => {
    const rows = writtenMatches(draft);
    return { question_type: 'matching', options, stems: rows.map((r) => r.stem), matches: rows.map((r) => r.match) };
  },
  regradeKeyHint: 'Per stem, the matching option, as a JSON array: ["Paris", "Rome"]',
  toleranceInKey: false,
  csvExample: null,
};
