import type { FrozenQuestion } from '../exams/documents';
import { normalizeQuestion, QuestionInput } from '../questions/schemas';
import type { ErrorDetail } from '../shared/errors';
import { round4 } from '../shared/scores';

// Pure: a correction of a frozen question (its key, tolerance or marks),
// validated as the bank validates a question of its type, and the paper of an
// attempt with the corrected question in it.

export interface Correction {
  correct_answer?: string;
  tolerance?: number | null;
  marks?: number;
}

export type Corrected = { ok: true; question: FrozenQuestion } | { ok: false; message: string; details: ErrorDetail[] };

/** The frozen question as corrected, or why the correction does not make a valid question of its type. */
export function correctQuestion(frozen: FrozenQuestion, correction: Correction): Corrected {
  if (frozen.question_type === 'essay') {
    return {
      ok: false,
      message:
        'An essay has no key: it is graded by a person, and its grades are changed with POST /api/attempts/{attemptId}/grades',
      details: [{ path: 'body.question_id', message: 'An essay' }],
    };
  }
  const input: Record<string, unknown> = {
    question_type: frozen.question_type,
    question_text: frozen.question_text,
    options: frozen.options,
    correct_answer: correction.correct_answer ?? frozen.correct_answer,
    marks: correction.marks ?? frozen.marks,
    difficulty: frozen.difficulty,
  };
  const tolerance = correction.tolerance !== undefined ? correction.tolerance : frozen.tolerance;
  if (tolerance !== null && tolerance !== undefined) input.tolerance = tolerance;
  if (frozen.question_type !== 'numeric' && correction.tolerance !== undefined && correction.tolerance !== null) {
    return {
      ok: false,
      message: 'tolerance is allowed only for numeric questions',
      details: [{ path: 'body.tolerance', message: 'Numeric questions only' }],
    };
  }
  const parsed = QuestionInput.safeParse(input);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({
      path: `body.${issue.path.join('.') || 'question_id'}`,
      message: issue.message,
    }));
    return {
      ok: false,
      message: `The corrected question is not valid: ${details.map((d) => d.message).join('; ')}`,
      details,
    };
  }
  const normal = normalizeQuestion(parsed.data);
  return {
    ok: true,
    question: { ...frozen, correct_answer: normal.correct_answer, tolerance: normal.tolerance, marks: normal.marks },
  };
}

/** Whether the correction leaves the frozen question as it is (a regrade sent again). */
export const sameKey = (a: FrozenQuestion, b: FrozenQuestion): boolean =>
  a.correct_answer === b.correct_answer && (a.tolerance ?? null) === (b.tolerance ?? null) && a.marks === b.marks;

/** `questions` with `corrected` in place of the question of the same id, and their total. */
export function withCorrection<Q extends { id: string; marks: number }>(
  questions: readonly Q[],
  corrected: Q,
): { questions: Q[]; total_marks: number } {
  const replaced = questions.map((q) => (q.id === corrected.id ? corrected : q));
  return { questions: replaced, total_marks: round4(replaced.reduce((sum, q) => sum + q.marks, 0)) };
}
