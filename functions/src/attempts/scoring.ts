import { comparable, exactComparable, OPTION_SEPARATOR } from '../questions';
import { parseNumberAnswer, parseNumberText, round4 } from '../shared';

// Pure: the marking scheme. No Firebase import; the submit transaction and the
// overdue closer both call scoreAttempt on the frozen questions and the saved answers.
//
// - A correct answer earns the question's marks.
// - A wrong answer earns 0, or -(negativeMarkRatio × marks) when negativeMarking is on.
// - An answer earning partial credit (option_credits, alternatives below) earns that share of the
//   marks, between 0 and the marks, and never costs negative marks. `correct` is true only for an
//   answer earning the full marks.
// - An unanswered question (absent, not a string, or blank after trimming) earns 0.
// - The attempt's score is the sum, raised to 0 when below 0 (per-question results keep their sign).
// - Every figure is rounded to 4 decimals so sums of fractional marks carry no float noise.
// A question without option_credits, alternatives and case_sensitive (every question stored before
// them) is scored exactly as before they existed.
//
// How an answer is compared with the key, per question type:
// - multiple_choice: the chosen option equals the key compared with `comparable`
//   (NFKC, trimmed, inner spacing collapsed, case folded).
// - true_false: "true"/"false" in any case and spacing, equal to the key.
// - short_answer: equal to the key compared with `comparable` (trimmed, case- and space-insensitive:
//   casing or spacing never makes an answer wrong). With case_sensitive, compared with
//   `exactComparable` instead (NFKC, trimmed, spacing collapsed, case kept), for the key and the alternatives.
// - numeric: the answer must be a plain finite number ("+1.5", "-2", "1e3", ".5"; no thousands
//   separators, no "NaN"/"Infinity", no hex), within `tolerance` (0 when null) of the key.
//   An answer (not a key) may use a decimal comma instead of the point: digits, one comma, digits,
//   no point and no exponent ("1,41", "-0,5", "1234,5"), read as the same text with a point, so
//   "1,41" is exactly "1.41". A comma that could group thousands ("1,234": 1 to 3 digits not
//   starting with 0, then exactly 3) is ambiguous, so not a number (wrong, as "1,000" always was).
//   The only slack beyond the tolerance is the representation error of the parsed decimals:
//   NUMERIC_ULPS units in the last place of the largest of |answer|, |key|, tolerance, i.e.
//   4 × Number.EPSILON relative (about 9e-16). So 1.0 vs key 1.1 with tolerance 0.1 is correct,
//   "0.3" vs key "0.30000000000000004" is correct (one double apart), 4294967300 vs 4294967296
//   and 1e-12 vs 1.1e-12 are wrong, and decimals that parse to the same double
//   (9007199254740993 and 9007199254740992) are equal. There is no absolute floor: 0 vs 1e-300 is wrong.
//   A non-numeric answer is wrong, never an error.
// - short_answer and numeric with `alternatives`: an answer matching the key earns the marks;
//   otherwise the alternative it matches with the highest credit (compared as the key is; a numeric
//   alternative within its own tolerance, 0 when absent) earns credit / 100 × marks. Matching only
//   alternatives of credit 0, or none, is a wrong answer (negative marks apply).
// - multiple_select: ALL-OR-NOTHING without option_credits. The answer is the chosen options joined
//   by "|"; each part is compared with `comparable`, empty parts are ignored and repeats count once.
//   It is correct only when the chosen set equals the key's set exactly; any missing or extra option
//   makes it wrong, and a wrong multiple_select answer costs negative marks like any other wrong answer.
//   (Partial credit together with negative marking would reward guessing every option.)
// - multiple_select with `option_credits` (one per option, −100 to 100): the answer earns
//   clamp(Σ credits of the options chosen / 100 × marks, 0, marks), a choice matching no option
//   adding 0. This replaces both all-or-nothing and negative marking for that question: a negative
//   credit lowers the sum, never the score below 0.
// - essay: graded by a person. An answered essay earns the marks its grade gives (0 to its marks,
//   never negative) and is `pending` until graded; an unanswered one earns 0 and needs no grade.
//   The score counts the grades given so far; `pending_marks` are the marks of the essays still to grade.

export type ScoringQuestionType =
  'multiple_choice' | 'multiple_select' | 'true_false' | 'short_answer' | 'numeric' | 'essay';

export interface ScoringQuestion {
  id: string;
  question_type: ScoringQuestionType;
  options: string[];
  correct_answer: string;
  tolerance: number | null;
  marks: number;
  /** multiple_select partial credit, one per option (absent: all or nothing). */
  option_credits?: number[] | null;
  /** short_answer, numeric: further accepted answers (absent: none). */
  alternatives?: Array<{ answer: string; credit: number; tolerance?: number }> | null;
  /** short_answer: compare case for case (absent: case folded). */
  case_sensitive?: boolean | null;
}

export interface ScoringRules {
  negativeMarking: boolean;
  negativeMarkRatio: number;
}

export interface QuestionResult {
  question_id: string;
  answered: boolean;
  correct: boolean;
  marks_awarded: number;
  /** An answered essay with no grade yet (absent otherwise). */
  pending?: boolean;
}

/** A person's grade of an essay answer. */
export interface EssayGrade {
  marks: number;
}

export interface AttemptScore {
  score: number;
  total_marks: number;
  results: QuestionResult[];
  /** The marks of the answered essays not graded yet. */
  pending_marks: number;
  /** null without essays; otherwise whether every answered essay has its grade. */
  grading: 'pending' | 'complete' | null;
}

/**
 * Units in the last place allowed beyond the tolerance: each parsed decimal is off by at most half
 * an ulp, the tolerance by half of its own, the subtraction by one more; 4 covers them with room.
 */
const NUMERIC_ULPS = 4;

function choiceSet(text: string): Set<string> {
  return new Set(
    text
      .split(OPTION_SEPARATOR)
      .map(comparable)
      .filter((part) => part.length > 0),
  );
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  if (a.size !== b.size) return false;
  for (const item of a) if (!b.has(item)) return false;
  return true;
}

function numericCorrect(answer: string, key: string, tolerance: number | null): boolean {
  const given = parseNumberAnswer(answer);
  const expected = parseNumberText(key);
  if (given === undefined || expected === undefined) return false;
  const allowed = Math.max(0, tolerance ?? 0);
  // Number.EPSILON × x is between one and two ulps of x, so this is 4 to 8 ulps of the largest figure.
  const slack = NUMERIC_ULPS * Number.EPSILON * Math.max(Math.abs(given), Math.abs(expected), allowed);
  return Math.abs(given - expected) <= allowed + slack;
}

/** Whether a non-blank answer matches the key (the old, all-or-nothing comparison of every type). */
export function isCorrectAnswer(question: ScoringQuestion, answer: string): boolean {
  switch (question.question_type) {
    case 'multiple_choice':
      return comparable(answer) === comparable(question.correct_answer);
    case 'short_answer':
      return sameText(question, answer, question.correct_answer);
    case 'true_false': {
      const given = comparable(answer);
      return (given === 'true' || given === 'false') && given === comparable(question.correct_answer);
    }
    case 'numeric':
      return numericCorrect(answer, question.correct_answer, question.tolerance);
    case 'multiple_select': {
      const given = choiceSet(answer);
      return given.size > 0 && sameSet(given, choiceSet(question.correct_answer));
    }
    default:
      return false;
  }
}

const sameText = (question: ScoringQuestion, a: string, b: string): boolean =>
  question.case_sensitive === true ? exactComparable(a) === exactComparable(b) : comparable(a) === comparable(b);

/** What a non-blank answer earns: a share of the marks (0 to 1), or `wrong` (which negative marking charges). */
type Marking = { share: number } | { wrong: true };

/** Σ credits of the options chosen (each counted once; a choice matching no option adds 0), as a share clamped to 0..1. */
function creditShare(credits: number[], options: string[], answer: string): number {
  const chosen = choiceSet(answer);
  const sum = options.reduce(
    (total, option, i) => (chosen.has(comparable(option)) ? total + (credits[i] ?? 0) : total),
    0,
  );
  return Math.min(1, Math.max(0, sum / 100));
}

/** The highest credit among the alternatives the answer matches (0 when none). */
function bestAlternative(question: ScoringQuestion, answer: string): number {
  let best = 0;
  for (const alternative of question.alternatives ?? []) {
    const matches =
      question.question_type === 'numeric'
        ? numericCorrect(answer, alternative.answer, alternative.tolerance ?? 0)
        : sameText(question, answer, alternative.answer);
    if (matches) best = Math.max(best, alternative.credit);
  }
  return Math.min(100, best) / 100;
}

function marking(question: ScoringQuestion, answer: string): Marking {
  const credits = question.question_type === 'multiple_select' ? question.option_credits : null;
  if (credits && credits.length > 0) return { share: creditShare(credits, question.options, answer) };
  if (isCorrectAnswer(question, answer)) return { share: 1 };
  const partial =
    question.question_type === 'short_answer' || question.question_type === 'numeric'
      ? bestAlternative(question, answer)
      : 0;
  return partial > 0 ? { share: partial } : { wrong: true };
}

/** Whether a saved value counts as an answer: a string not blank after trimming. */
export const isAnswer = (value: unknown): value is string => typeof value === 'string' && value.trim().length > 0;

/** The answer saved for a question, or undefined when it counts as unanswered. */
function answerFor(answers: Record<string, string>, questionId: string): string | undefined {
  if (!Object.prototype.hasOwnProperty.call(answers, questionId)) return undefined;
  const value: unknown = answers[questionId];
  return isAnswer(value) ? value : undefined;
}

export function scoreAttempt(
  questions: ScoringQuestion[],
  answers: Record<string, string>,
  rules: ScoringRules,
  grades: Record<string, EssayGrade> = {},
): AttemptScore {
  const ratio =
    rules.negativeMarking && Number.isFinite(rules.negativeMarkRatio) ? Math.max(0, rules.negativeMarkRatio) : 0;
  let sum = 0;
  let totalMarks = 0;
  let pendingMarks = 0;
  let essays = 0;
  const results = questions.map((question): QuestionResult => {
    totalMarks += question.marks;
    const answer = answerFor(answers, question.id);
    if (question.question_type === 'essay') essays++;
    if (answer === undefined) return { question_id: question.id, answered: false, correct: false, marks_awarded: 0 };
    if (question.question_type === 'essay') {
      const grade = Object.prototype.hasOwnProperty.call(grades, question.id) ? grades[question.id] : undefined;
      if (!grade) {
        pendingMarks += question.marks;
        return { question_id: question.id, answered: true, correct: false, marks_awarded: 0, pending: true };
      }
      const awarded = round4(Math.min(question.marks, Math.max(0, grade.marks)));
      sum += awarded;
      return { question_id: question.id, answered: true, correct: awarded >= question.marks, marks_awarded: awarded };
    }
    const earned = marking(question, answer);
    const marksAwarded = round4('wrong' in earned ? -ratio * question.marks : earned.share * question.marks);
    sum += marksAwarded;
    // Full marks as rounded: 3 × 33.33333 % of 1 mark is the mark.
    const correct = !('wrong' in earned) && (earned.share >= 1 || marksAwarded >= round4(question.marks));
    return { question_id: question.id, answered: true, correct, marks_awarded: marksAwarded };
  });
  return {
    score: round4(Math.max(0, sum)),
    total_marks: round4(totalMarks),
    results,
    pending_marks: round4(pendingMarks),
    grading: essays === 0 ? null : pendingMarks > 0 ? 'pending' : 'complete',
  };
}
