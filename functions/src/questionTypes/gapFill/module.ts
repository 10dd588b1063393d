import { numericCorrect } from '../answers';
import { comparable, exactComparable } from '../fields';
import type { KeyedQuestion, Marking, PartOutcome, QuestionTypeModule } from '../module';
import { PARTS_ANSWERED, partsMarking, readKey, readParts } from '../parts';
import type { StoredGap } from '../stored';
import { gapFillExtras, GapFillInput, normalizeGapFill } from './schema';

// A text with numbered gaps. The answer gives one string per gap (a JSON array text, "" for a gap left
// blank). Each gap earns the best credit among the accepted answers its part matches (text as a
// short_answer compares, numbers as a numeric does, choices as options are compared), weighted by its
// weight: Σ weightᵢ × creditᵢ ÷ Σ weights, as Moodle's cloze sums its subquestions' grades. Negative
// marking charges the gaps answered and earning nothing. An answer that cannot be read earns nothing.

/** Whether a gap's part is this accepted answer, compared as its kind compares. */
function matches(gap: StoredGap, part: string, accepted: { answer: string; tolerance?: number }): boolean {
  switch (gap.kind) {
    case 'numeric':
      return numericCorrect(part, accepted.answer, accepted.tolerance ?? 0);
    case 'text':
      return gap.case_sensitive === true
        ? exactComparable(part) === exactComparable(accepted.answer)
        : comparable(part) === comparable(accepted.answer);
    default:
      return comparable(part) === comparable(accepted.answer);
  }
}

/** The share of a gap its part earns: the best credit among the answers it matches. */
const gapShare = (gap: StoredGap, part: string): number =>
  Math.min(100, Math.max(0, ...gap.answers.filter((a) => matches(gap, part, a)).map((a) => a.credit))) / 100;

/** The choices a gap's part is counted among: a select's options, the drag chips, none for typed gaps. */
const gapChoices = (question: KeyedQuestion, gap: StoredGap): readonly string[] | null =>
  gap.kind === 'select' ? (gap.options ?? []) : gap.kind === 'drag' ? (question.drag_options ?? []) : null;

/** Each gap as answered: the share it earned and the choice it made. */
function outcomes(question: KeyedQuestion, answer: string): PartOutcome[] {
  const gaps = question.gaps ?? [];
  const given = readParts(answer, gaps.length);
  return gaps.map((gap, i) => {
    const part = given?.[i].trim() ?? '';
    const choices = gapChoices(question, gap);
    return {
      answered: part.length > 0,
      earned: part.length > 0 ? gapShare(gap, part) : 0,
      ...(choices ? { choice: choices.findIndex((c) => comparable(c) === comparable(part)) } : {}),
    };
  });
}

function mark(question: KeyedQuestion, answer: string): Marking {
  const gaps = question.gaps ?? [];
  if (!readParts(answer, gaps.length)) return { share: 0 };
  return partsMarking(outcomes(question, answer).map((part, i) => ({ ...part, weight: gaps[i].weight })));
}

/** The gaps with each first full-credit answer made the key's part for it ("" keeps the gap's own). */
function gapsWithKey(gaps: readonly StoredGap[], key: readonly string[]): StoredGap[] {
  return gaps.map((gap, i) => {
    const part = key[i]?.trim();
    const first = gap.answers.findIndex((a) => a.credit === 100);
    if (!part || first < 0) return gap;
    const answers = gap.answers.flatMap((a, j) =>
      j === first ? [{ ...a, answer: part }] : comparable(a.answer) === comparable(part) ? [] : [a],
    );
    return { ...gap, answers };
  });
}

export const gapFill: QuestionTypeModule<'gap_fill', typeof GapFillInput> = {
  name: 'gap_fill',
  input: GapFillInput,
  ...PARTS_ANSWERED,
  options: 'none',
  extras: ['gaps', 'drag_options', 'drag_reusable'],
  normalize: normalizeGapFill,
  normalizeExtras: gapFillExtras,
  // A key sent as correct_answer (a regrade's) sets each gap's first full-credit answer; one that
  // cannot be read stays correct_answer, which the schema refuses.
  inputWithKey: (input, key) => {
    const gaps = input.gaps as StoredGap[] | undefined;
    const parts = readKey(key);
    if (!gaps) return input;
    return parts?.length === gaps.length
      ? { ...input, gaps: gapsWithKey(gaps, parts) }
      : { ...input, correct_answer: key };
  },
  mark,
  partLabels: (question) =>
    (question.gaps ?? []).map((gap, i) => {
      const choices = gapChoices(question, gap);
      return { label: `Gap ${i + 1}`, choices: choices ? [...choices] : null };
    }),
  partOutcomes: outcomes,
  takerView: (question) => ({
    options: [],
    gaps: (question.gaps ?? []).map((gap) => ({
      kind: gap.kind,
      ...(gap.options ? { options: [...gap.options] } : {}),
    })),
    ...(question.drag_options ? { drag_options: [...question.drag_options] } : {}),
    ...(question.drag_options ? { drag_reusable: question.drag_reusable === true } : {}),
  }),
  htmlOptions: 'apart',
  keyFields: ['correct_answer', 'marks', 'gaps'],
};
