import { attachmentView, findAttempt } from '../attempts';
import { requestMeta } from '../audit';
import { assertCanGrade, type Principal } from '../auth';
import { requireTest } from '../exams';
import { questionTypeOf } from '../questionTypes';
import { badRequest, type CallContext, conflict, notFound, type PageRequest } from '../shared';
import type { GradedAttempt, GradeInput, GradingItem } from './schemas';
import * as store from './store';
import { nameFields, namesOf } from '../people';

// Grading essays: the test's queue of ungraded answers, and a grade.

export async function gradingQueue(
  principal: Principal,
  testId: string,
  filters: { question_id?: string; blind?: boolean },
  page: PageRequest,
) {
  const test = await requireTest(principal, testId);
  assertCanGrade(principal, { clientId: test.client_id });
  const { data, pagination } = await store.listGradingQueue(
    test.client_id,
    test.id,
    { question_id: filters.question_id },
    page,
  );
  // Blind grading reads no names at all: nothing to leak.
  const names = filters.blind
    ? new Map()
    : await namesOf(
        test.client_id,
        data.filter((item) => !item.guest_name).map((item) => item.student_id),
      );
  const items: GradingItem[] = data.map((item) => ({
    attempt_id: item.attempt_id,
    question_id: item.question_id,
    test_id: item.test_id,
    version: item.version,
    student_id: filters.blind ? null : item.student_id,
    guest_name: filters.blind ? null : item.guest_name,
    ...nameFields('student', names, filters.blind || item.guest_name ? null : item.student_id),
    question_text: item.question_text,
    ...(item.text_format === 'html' ? { text_format: 'html' as const } : {}),
    marks: item.marks,
    max_words: item.max_words,
    student_answer: item.student_answer,
    attachments: (item.attachments ?? []).map((file) => attachmentView(item.attempt_id, item.question_id, file)),
    submitted_at: item.submitted_at,
  }));
  return { data: items, pagination };
}

const questionPath = [{ path: 'body.question_id', message: 'Not an answered essay of this attempt' }];

/**
 * Authorized on the attempt's organization before anything is read beyond it
 * (another organization's attempt → 403); the attempt is read again, and
 * checked, inside the grade's transaction.
 */
export async function gradeAttempt(
  principal: Principal,
  attemptId: string,
  input: GradeInput,
  call: CallContext,
): Promise<GradedAttempt> {
  const found = await findAttempt(attemptId);
  if (!found) throw notFound('Attempt not found');
  assertCanGrade(principal, { clientId: found.attempt.client_id });
  const feedback = input.feedback ? input.feedback : null;
  const { attempt, previous } = await store.gradeEssay({
    attemptId,
    clientId: found.attempt.client_id,
    testId: found.attempt.test_id,
    questionId: input.question_id,
    marks: input.marks,
    feedback,
    gradedBy: principal.uid,
    meta: requestMeta(call),
    check: (stored, question) => {
      if (stored.status !== 'submitted')
        throw conflict('This attempt is still in progress: essays are graded once it is submitted');
      if (!question || questionTypeOf(question.question_type).marking !== 'person')
        throw badRequest('This question is not an essay of this attempt', questionPath);
      const result = (stored.results ?? []).find((r) => r.question_id === input.question_id);
      if (!result?.answered) throw conflict('This essay was not answered: it earns 0 and needs no grade');
      if (input.marks > question.marks) {
        throw badRequest(`marks may be at most the question’s ${question.marks}`, [
          { path: 'body.marks', message: `At most ${question.marks}` },
        ]);
      }
    },
  });
  return {
    attempt_id: attempt.id,
    question_id: input.question_id,
    marks: input.marks,
    feedback,
    previous_marks: previous,
    score: attempt.score ?? 0,
    total_marks: attempt.total_marks,
    grading: attempt.grading === 'pending' ? 'pending' : 'complete',
    pending_marks: attempt.pending_marks ?? 0,
  };
}
