import type { Schemas } from '../../api';
import type { GapDraft, KeyDraft, QuestionTypeDefinition } from '../module';
import { anyPartsOf, gapNumbersOf, linesOf } from '../parts';

type Gap = Schemas['Gap'];
type Answer = Gap['answers'][number];

/** A gap the author has not filled in yet. */
export const EMPTY_GAP: GapDraft = {
  kind: 'text',
  answers: '',
  options: '',
  tolerance: '',
  case_sensitive: false,
  weight: '',
};

// One accepted answer a line: `answer`, `answer | credit`, for a numeric gap `answer | credit | tolerance`.
// Read from the end, so an answer holding a "|" not followed by a number stays whole.
const ANSWER_LINE = /^(.*?)\s*\|\s*(\d+(?:\.\d+)?)\s*(?:\|\s*(\d+(?:\.\d+)?)\s*)?$/;

/** An accepted answer as a line of the gap's box reads. */
export function answerOfLine(line: string, gap: GapDraft): Answer {
  const match = ANSWER_LINE.exec(line);
  const answer = match ? match[1] : line;
  const credit = match ? Number(match[2]) : 100;
  if (gap.kind !== 'numeric') return { answer, credit };
  const tolerance = match?.[3] ?? gap.tolerance.trim();
  return tolerance === '' || Number(tolerance) === 0
    ? { answer, credit }
    : { answer, credit, tolerance: Number(tolerance) };
}

/** An accepted answer as a line, saying only what differs from the defaults (full credit, the gap's tolerance). */
function lineOfAnswer(a: Answer, gapTolerance: number): string {
  const tolerance = a.tolerance ?? 0;
  if (tolerance !== gapTolerance) return `${a.answer} | ${a.credit} | ${tolerance}`;
  return a.credit === 100 ? a.answer : `${a.answer} | ${a.credit}`;
}

/** A stored gap as the form edits it. */
export function gapDraftOf(gap: Schemas['StoredGap']): GapDraft {
  const tolerance = gap.kind === 'numeric' ? (gap.answers[0]?.tolerance ?? 0) : 0;
  return {
    kind: gap.kind,
    answers: gap.answers.map((a) => lineOfAnswer(a, tolerance)).join('\n'),
    options: (gap.options ?? []).join('\n'),
    tolerance: tolerance === 0 ? '' : String(tolerance),
    case_sensitive: gap.case_sensitive === true,
    weight: gap.weight === 1 ? '' : String(gap.weight),
  };
}

/** A gap as the API's body holds it, saying only what differs from the defaults. */
export function gapOf(gap: GapDraft): Gap {
  const weight = gap.weight.trim();
  return {
    kind: gap.kind,
    answers: linesOf(gap.answers).map((line) => answerOfLine(line, gap)),
    ...(gap.kind === 'select' ? { options: linesOf(gap.options) } : {}),
    ...(gap.kind === 'text' && gap.case_sensitive ? { case_sensitive: true } : {}),
    ...(weight !== '' ? { weight: Number(weight) } : {}),
  };
}

/** How many gaps the text numbers: gap n for every n up to the highest written. */
export const gapCountOf = (text: string): number => Math.max(0, ...gapNumbersOf(text));

/** The form's gaps for a text: those drafted, and a new one for each number the text adds. */
export const gapsFor = (draft: KeyDraft): GapDraft[] =>
  Array.from({ length: gapCountOf(draft.question_text) }, (_, i) => draft.gaps[i] ?? EMPTY_GAP);

/** What is wrong with the text's gap numbers: each of 1 to n exactly once. */
function numbersProblem(text: string): string | null {
  const numbers = gapNumbersOf(text);
  if (numbers.length === 0) return 'Write the gaps in the question text as [[1]], [[2]], …';
  const twice = numbers.find((n, i) => numbers.indexOf(n) !== i);
  if (twice !== undefined) return `[[${twice}]] is written more than once in the text.`;
  const missing = Array.from({ length: Math.max(...numbers) }, (_, i) => i + 1).find((n) => !numbers.includes(n));
  return missing === undefined ? null : `Gap ${missing} is not in the text: write [[${missing}]].`;
}

/** What is wrong with gap n, or null. */
function gapProblem(gap: Gap, n: number, dragOptions: string[]): string | null {
  if (gap.answers.length === 0) return `Gap ${n}: write its accepted answers, one a line.`;
  if (!gap.answers.some((a) => a.credit === 100)) return `Gap ${n}: one accepted answer must earn full credit (100).`;
  if (gap.answers.some((a) => a.credit > 100)) return `Gap ${n}: a credit is at most 100.`;
  const choices = gap.kind === 'select' ? (gap.options ?? []) : gap.kind === 'drag' ? dragOptions : null;
  if (gap.kind === 'select' && choices && choices.length < 2) return `Gap ${n}: write at least 2 choices, one a line.`;
  const outside = choices ? gap.answers.find((a) => !choices.includes(a.answer)) : undefined;
  if (outside) return `Gap ${n}: “${outside.answer}” is not one of its ${gap.kind === 'drag' ? 'chips' : 'choices'}.`;
  if (gap.weight !== undefined && !(gap.weight > 0)) return `Gap ${n}: its weight is a number greater than 0.`;
  return null;
}

function gapsProblem(draft: KeyDraft): string | null {
  const numbers = numbersProblem(draft.question_text);
  if (numbers) return numbers;
  const gaps = gapsFor(draft).map(gapOf);
  const dragOptions = linesOf(draft.drag_options);
  if (gaps.some((g) => g.kind === 'drag') && dragOptions.length < 2) return 'Write at least 2 chips, one a line.';
  for (const [i, gap] of gaps.entries()) {
    const problem = gapProblem(gap, i + 1, dragOptions);
    if (problem) return problem;
  }
  return null;
}

/** A text with numbered gaps, each typed, a number, chosen from a list or filled with a chip. */
export const gapFill: QuestionTypeDefinition = {
  type: 'gap_fill',
  label: 'Gap fill',
  hasOptions: false,
  maxOptions: 0,
  textInAnswer: true,
  fixedOptions: null,
  legendNote: 'Fill in each gap.',
  takesAnswer: true,
  markedByPerson: false,
  chosenOptions: () => [],
  shownAnswer: (answer) => anyPartsOf(answer).join(', '),
  keyDraftOf: (q) => ({
    gaps: (q.gaps ?? []).map(gapDraftOf),
    drag_options: (q.drag_options ?? []).join('\n'),
    drag_reusable: q.drag_reusable === true,
  }),
  keyLabel: 'Gaps',
  keyFieldLabels: { gaps: 'Gaps', drag_options: 'Chips', drag_reusable: 'Chips reusable' },
  keyProblem: gapsProblem,
  bodyOf: (draft) => {
    const gaps = gapsFor(draft).map(gapOf);
    const dragged = gaps.some((g) => g.kind === 'drag');
    return {
      question_type: 'gap_fill',
      gaps,
      ...(dragged ? { drag_options: linesOf(draft.drag_options) } : {}),
      ...(dragged && draft.drag_reusable ? { drag_reusable: true } : {}),
    };
  },
  regradeKeyHint: 'Per gap, its full-credit answer, as a JSON array: ["Paris", "3.14"] ("" keeps a gap’s own)',
  toleranceInKey: false,
  csvExample: null,
};

/**
 * Whether a gap's part agrees with its full-credit answer, as far as a review can tell without the
 * rest of the key: a number by its value, a typed text ignoring case and spacing, a choice exactly.
 * A part another accepted answer credits reads as not the key's, the marks telling the rest.
 */
export function sameGapAnswer(answer: string, key: string, kind: Gap['kind'] | undefined): boolean {
  if (kind === 'numeric') return answer.trim() !== '' && Number(answer.replace(',', '.')) === Number(key);
  if (kind === 'text')
    return answer.trim().replace(/\s+/g, ' ').toLowerCase() === key.trim().replace(/\s+/g, ' ').toLowerCase();
  return answer === key;
}
