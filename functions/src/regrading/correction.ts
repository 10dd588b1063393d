import type { FrozenQuestion } from '../exams';
import { EXTRA_FIELDS, normalizeQuestion, QuestionInput, type StoredAlternative } from '../questions';
import { type ErrorDetail, round4 } from '../shared';

// Pure: a correction of a frozen question (its key, tolerance, marks, option
// credits, alternatives or case sensitivity), validated as the bank validates a
// question of its type, and the paper of an attempt with the corrected question in it.

export interface Correction {
  correct_answer?: string;
  tolerance?: number | null;
  marks?: number;
  /** null: back to all or nothing. */
  option_credits?: number[] | null;
  /** null: none. */
  alternatives?: StoredAlternative[] | null;
  /** null or false: case folded. */
  case_sensitive?: boolean | null;
}

/** The corrected fields beyond the key, and the question types that may have each. */
const TYPED_FIELDS = {
  option_credits: {
    types: ['multiple_select'],
    message: 'option_credits is allowed only for multiple_select questions',
  },
  alternatives: {
    types: ['short_answer', 'numeric'],
    message: 'alternatives is allowed only for short_answer and numeric questions',
  },
  case_sensitive: { types: ['short_answer'], message: 'case_sensitive is allowed only for short_answer questions' },
} as const;

/** The fields of a frozen question that scoring reads, beside the key, tolerance and marks. */
const SCORED_EXTRAS = ['option_credits', 'alternatives', 'case_sensitive'] as const;

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
  for (const [field, rule] of Object.entries(TYPED_FIELDS)) {
    const sent = correction[field as keyof typeof TYPED_FIELDS];
    if (sent !== undefined && sent !== null && !(rule.types as readonly string[]).includes(frozen.question_type))
      return { ok: false, message: rule.message, details: [{ path: `body.${field}`, message: rule.message }] };
  }
  const input: Record<string, unknown> = {
    question_type: frozen.question_type,
    question_text: frozen.question_text,
    options: frozen.options,
    correct_answer: correction.correct_answer ?? frozen.correct_answer,
    marks: correction.marks ?? frozen.marks,
    difficulty: frozen.difficulty,
  };
  for (const field of EXTRA_FIELDS) if (frozen[field] !== undefined) input[field] = frozen[field];
  for (const field of SCORED_EXTRAS) {
    const sent = correction[field];
    if (sent === null) delete input[field];
    else if (sent !== undefined) input[field] = sent;
  }
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
  const question: FrozenQuestion = {
    ...frozen,
    correct_answer: normal.correct_answer,
    tolerance: normal.tolerance,
    marks: normal.marks,
  };
  // Set when the corrected question has them, absent otherwise (never undefined: Firestore refuses it).
  for (const field of SCORED_EXTRAS) {
    if (normal[field] !== undefined) Object.assign(question, { [field]: normal[field] });
    else delete question[field];
  }
  return { ok: true, question };
}

/** Whether the correction leaves the frozen question as it is (a regrade sent again). */
export const sameKey = (a: FrozenQuestion, b: FrozenQuestion): boolean =>
  a.correct_answer === b.correct_answer &&
  (a.tolerance ?? null) === (b.tolerance ?? null) &&
  a.marks === b.marks &&
  SCORED_EXTRAS.every((field) => JSON.stringify(a[field] ?? null) === JSON.stringify(b[field] ?? null));

/** `questions` with `corrected` in place of the question of the same id, and their total. */
export function withCorrection<Q extends { id: string; marks: number }>(
  questions: readonly Q[],
  corrected: Q,
): { questions: Q[]; total_marks: number } {
  const replaced = questions.map((q) => (q.id === corrected.id ? corrected : q));
  return { questions: replaced, total_marks: round4(replaced.reduce((sum, q) => sum + q.marks, 0)) };
}
