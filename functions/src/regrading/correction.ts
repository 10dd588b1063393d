import type { FrozenQuestion } from '../exams';
import { EXTRA_FIELDS, normalizeQuestion } from '../questions';
import { QuestionInput, questionTypeOf, type StoredAlternative, typesTaking, type TypedField } from '../questionTypes';
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

/** The refusal of a field the question's type does not take, naming the types that do. */
const onlyFor = (field: TypedField): string =>
  `${field} is allowed only for ${typesTaking(field).join(' and ')} questions`;

/** The fields of a frozen question that scoring reads, beside the key, tolerance and marks: only some types take each. */
const SCORED_EXTRAS = ['option_credits', 'alternatives', 'case_sensitive'] as const;

/** The fields of a type with parts that its key lives in, set anew from the corrected key. */
const DERIVED_KEY_FIELDS = ['matches', 'gaps', 'areas'] as const;

export type Corrected = { ok: true; question: FrozenQuestion } | { ok: false; message: string; details: ErrorDetail[] };

/** The frozen question as corrected, or why the correction does not make a valid question of its type. */
export function correctQuestion(frozen: FrozenQuestion, correction: Correction): Corrected {
  const type = questionTypeOf(frozen.question_type);
  if (type.regradeRefusal) {
    const { message, detail } = type.regradeRefusal;
    return { ok: false, message, details: [{ path: 'body.question_id', message: detail }] };
  }
  for (const field of SCORED_EXTRAS) {
    const sent = correction[field];
    if (sent !== undefined && sent !== null && !type.extras.includes(field)) {
      const message = onlyFor(field);
      return { ok: false, message, details: [{ path: `body.${field}`, message }] };
    }
  }
  const base: Record<string, unknown> = {
    question_type: frozen.question_type,
    question_text: frozen.question_text,
    // A type that takes no options but stores some derives them (a hottext's phrases, from its text).
    ...(type.options !== 'none' || frozen.options.length === 0 ? { options: frozen.options } : {}),
    marks: correction.marks ?? frozen.marks,
    difficulty: frozen.difficulty,
  };
  for (const field of EXTRA_FIELDS) if (frozen[field] !== undefined) base[field] = frozen[field];
  // The key as correct_answer writes it, into the type's own fields where it derives it from them.
  const input = type.inputWithKey(base, correction.correct_answer ?? frozen.correct_answer);
  for (const field of SCORED_EXTRAS) {
    const sent = correction[field];
    if (sent === null) delete input[field];
    else if (sent !== undefined) input[field] = sent;
  }
  const tolerance = correction.tolerance !== undefined ? correction.tolerance : frozen.tolerance;
  if (tolerance !== null && tolerance !== undefined) input.tolerance = tolerance;
  if (!type.ownFields.includes('tolerance') && correction.tolerance !== undefined && correction.tolerance !== null) {
    const types = typesTaking('tolerance').join(' and ');
    return {
      ok: false,
      message: onlyFor('tolerance'),
      details: [
        { path: 'body.tolerance', message: `${types.charAt(0).toUpperCase()}${types.slice(1)} questions only` },
      ],
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
  for (const field of [...SCORED_EXTRAS, ...DERIVED_KEY_FIELDS]) {
    if (normal[field] !== undefined) Object.assign(question, { [field]: normal[field] });
    else delete question[field];
  }
  return { ok: true, question };
}

/** Whether the correction leaves the frozen question as it is (a regrade sent again): the same in every field its type's scoring reads. */
export const sameKey = (a: FrozenQuestion, b: FrozenQuestion): boolean =>
  questionTypeOf(a.question_type).keyFields.every(
    (field) => JSON.stringify(a[field] ?? null) === JSON.stringify(b[field] ?? null),
  );

/** `questions` with `corrected` in place of the question of the same id, and their total. */
export function withCorrection<Q extends { id: string; marks: number }>(
  questions: readonly Q[],
  corrected: Q,
): { questions: Q[]; total_marks: number } {
  const replaced = questions.map((q) => (q.id === corrected.id ? corrected : q));
  return { questions: replaced, total_marks: round4(replaced.reduce((sum, q) => sum + q.marks, 0)) };
}
