import { db, fetchPage, paths } from '../firestore';
import { addAudit, type AuditMeta } from '../audit';
import { requirePaper, type StoredAttempt, type StoredGradingItem, submissionEffects } from '../attempts';
import { notFound, type PageRequest } from '../shared';
import { keyRevisionOf, type StoredTest } from '../exams';
import { decideGrade, type Grade } from './gradeDecision';
import { gradingQueueSpec } from './gradingQuery';

// Firestore access for grading: the queue (written by the submit, in
// attempts/closing.ts) and the grade's transaction on the attempt.

export async function listGradingQueue(
  clientId: string,
  testId: string,
  filters: { question_id?: string },
  page: PageRequest,
) {
  const { docs, pagination } = await fetchPage(paths.gradingQueue(clientId, testId), gradingQueueSpec(filters), page);
  return { data: docs as StoredGradingItem[], pagination };
}

export interface GradeRequest extends Grade {
  attemptId: string;
  /** The attempt's organization and test, as read before the transaction (an attempt never changes either). */
  clientId: string;
  testId: string;
  meta: AuditMeta;
  /** Checks the attempt read (the caller may grade its organization's, and it is submitted): throws to refuse, before anything is written. */
  check: (attempt: StoredAttempt, question: { question_type: string; marks: number } | undefined) => void;
}

/**
 * A grade, in one transaction on the attempt: the grade stored, the attempt
 * rescored with it, its analytics moved by the difference (counted once the
 * score is complete, never twice), its queue item removed and the grade
 * audited. Two graders at once are ordered by the transaction: the one that
 * gives the last missing grade completes the attempt, exactly once.
 */
export async function gradeEssay(request: GradeRequest): Promise<{ attempt: StoredAttempt; previous: number | null }> {
  return db.runTransaction(async (tx) => {
    // The test beside the attempt, in one round trip: its key_revisions say whether a regrade corrected the
    // version since this instance cached it (a submitted attempt carries no stamp of it).
    const ref = paths.clientAttempt(request.clientId, request.attemptId);
    const [attemptSnap, testSnap] = await tx.getAll(ref, paths.clientTest(request.clientId, request.testId));
    if (!attemptSnap.exists) throw notFound('Attempt not found');
    const found = { ref, attempt: attemptSnap.data() as StoredAttempt };
    const before = found.attempt;
    const regraded = keyRevisionOf(testSnap.data() as StoredTest | undefined, before.version);
    const paper = await requirePaper({ ...before, key_revision: Math.max(before.key_revision ?? 0, regraded) });
    request.check(
      before,
      paper.questions.find((q) => q.id === request.questionId),
    );
    const decision = decideGrade({ attempt: before, paper, path: found.ref.path }, request, new Date().toISOString());
    if ('refusal' in decision) throw decision.refusal;
    const { fields, after, previous, audit } = decision.grade;
    // Looked up before the first write: a missing hook fails the grade with nothing written.
    const effects = submissionEffects();
    tx.update(found.ref, fields);
    effects.recordScoreChange(tx, { before, after, paper });
    tx.delete(paths.gradingQueueItem(before.client_id, before.test_id, before.id, request.questionId));
    addAudit(tx, request.meta, audit);
    return { attempt: after, previous };
  });
}
