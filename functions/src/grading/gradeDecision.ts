import type { AuditEventType } from '../audit';
import { fitsInOneDocument, scoredFields, type StoredAttempt, type VersionForAttempt } from '../attempts';
import { ApiError } from '../shared';

// Pure: what a grade does to an attempt. No Firebase import: grading/store.ts
// reads the attempt and its paper, and writes what this answers.

export interface Grade {
  questionId: string;
  marks: number;
  feedback: string | null;
  gradedBy: string;
}

export interface GradeWrites {
  /** The attempt's fields the grade updates: its grades, its score and results from them, the key revision it was scored at. */
  fields: Partial<StoredAttempt>;
  after: StoredAttempt;
  /** The marks the question had before (null: not graded yet). */
  previous: number | null;
  audit: { type: AuditEventType; userId: string; clientId: string; actorId: string; details: Record<string, unknown> };
}

/**
 * The grade stored beside the others, the attempt rescored with it on `paper`,
 * and its essay_graded record; refused (nothing written) when the feedback
 * would take the attempt at `path` past what one document holds.
 */
export function decideGrade(
  read: { attempt: StoredAttempt; paper: VersionForAttempt; path: string },
  grade: Grade,
  now: string,
): { refusal: ApiError } | { grade: GradeWrites } {
  const before = read.attempt;
  const previous = before.grades?.[grade.questionId]?.marks ?? null;
  const grades = {
    ...(before.grades ?? {}),
    [grade.questionId]: { marks: grade.marks, feedback: grade.feedback, graded_by: grade.gradedBy, graded_at: now },
  };
  const fields = { grades, ...scoredFields({ ...before, grades }, read.paper), key_revision: read.paper.revision ?? 0 };
  const after: StoredAttempt = { ...before, ...fields };
  // Feedback adds to a document already near its budget: measured before writing, as Firestore would refuse the whole commit.
  if (!fitsInOneDocument(read.path, after)) {
    return {
      refusal: new ApiError(
        'PAYLOAD_TOO_LARGE',
        'This feedback would take the attempt past the 1 MiB a document holds; shorten it',
        [{ path: 'body.feedback', message: 'Too large for what is left of the attempt’s storage; nothing was saved' }],
      ),
    };
  }
  const audit = {
    type: 'essay_graded' as const,
    userId: before.student_id,
    clientId: before.client_id,
    actorId: grade.gradedBy,
    details: {
      attempt_id: before.id,
      test_id: before.test_id,
      question_id: grade.questionId,
      marks: grade.marks,
      previous_marks: previous,
      score: after.score,
      grading: after.grading,
    },
  };
  return { grade: { fields, after, previous, audit } };
}
