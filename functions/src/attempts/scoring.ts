import { type KeyedQuestion, type QuestionType, questionTypeOf } from '../questionTypes';
import { round4 } from '../shared';

// Pure: the marking scheme. No Firebase import; the submit transaction and the
// overdue closer both call scoreAttempt on the frozen questions and the saved answers.
//
// - A correct answer earns the question's marks.
// - A wrong answer earns 0, or -(negativeMarkRatio × marks) when negativeMarking is on.
// - An answer earning partial credit (option_credits, alternatives: see their types) earns that share of the
//   marks, between 0 and the marks, and never costs negative marks. `correct` is true only for an
//   answer earning the full marks.
// - An unanswered question (absent, not a string, or blank after trimming) earns 0.
// - The attempt's score is the sum, raised to 0 when below 0 (per-question results keep their sign).
// - Every figure is rounded to 4 decimals so sums of fractional marks carry no float noise.
// A question without option_credits, alternatives and case_sensitive (every question stored before
// them) is scored exactly as before they existed.
//
// How an answer is compared with the key is its type's (questionTypes/<type>/module.ts, each
// stating its rule): the registry's module reads the answer and marks it, and says whether the
// type is graded by a person instead. A type graded by a person (an essay): an answered one earns
// the marks its grade gives (0 to its marks, never negative) and is `pending` until graded; an
// unanswered one earns 0 and needs no grade. The score counts the grades given so far;
// `pending_marks` are the marks of the answers still to grade.

export interface ScoringQuestion extends KeyedQuestion {
  id: string;
  question_type: QuestionType;
}

export interface ScoringRules {
  negativeMarking: boolean;
  negativeMarkRatio: number;
  /** The attempt's seed (its id): what a type that draws per attempt (a calculated's values) draws from. */
  seed?: string;
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
  let gradedByPerson = 0;
  const results = questions.map((question): QuestionResult => {
    totalMarks += question.marks;
    const answer = answerFor(answers, question.id);
    const type = questionTypeOf(question.question_type);
    if (type.marking === 'person') gradedByPerson++;
    if (answer === undefined || type.marking === 'none')
      return { question_id: question.id, answered: false, correct: false, marks_awarded: 0 };
    if (type.marking === 'person') {
      const grade = Object.prototype.hasOwnProperty.call(grades, question.id) ? grades[question.id] : undefined;
      if (!grade) {
        pendingMarks += question.marks;
        return { question_id: question.id, answered: true, correct: false, marks_awarded: 0, pending: true };
      }
      const awarded = round4(Math.min(question.marks, Math.max(0, grade.marks)));
      sum += awarded;
      return { question_id: question.id, answered: true, correct: awarded >= question.marks, marks_awarded: awarded };
    }
    const earned = type.mark(question, answer, rules.seed ?? '');
    const wrong = earned.wrong ?? 0;
    const marksAwarded = round4((earned.share - ratio * wrong) * question.marks);
    sum += marksAwarded;
    // Full marks as rounded: 3 × 33.33333 % of 1 mark is the mark.
    const correct = wrong === 0 && (earned.share >= 1 || marksAwarded >= round4(question.marks));
    return { question_id: question.id, answered: true, correct, marks_awarded: marksAwarded };
  });
  return {
    score: round4(Math.max(0, sum)),
    total_marks: round4(totalMarks),
    results,
    pending_marks: round4(pendingMarks),
    grading: gradedByPerson === 0 ? null : pendingMarks > 0 ? 'pending' : 'complete',
  };
}
