import { defineRoute, type RouteDefinition } from '../http';
import { splitPageQuery } from '../shared';
import {
  GradeBody,
  GradedAttempt,
  GradeParams,
  GradingPage,
  GradingQueueParams,
  GradingQueueQuery,
  MAX_FEEDBACK_LENGTH,
} from './schemas';
import * as service from './service';

const GRADERS = ['super_admin', 'client_admin'] as const;

export const gradingRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'get',
    path: '/tests/{testId}/grading',
    summary: 'The test’s essays waiting for a grade',
    description:
      'Every answered essay of a submitted attempt that has no grade yet, oldest submission first, paged; each item holds the answer, so a grader reads one at a time without opening the attempt. ' +
      '?question_id= grades question by question; ?blind=true leaves out student_id and guest_name. A grade takes the item out of the queue. ' +
      'Super Admin any test, Client Admin its organization’s (another’s → 403); Students and Guests → 403.',
    tag: 'Grading',
    access: GRADERS,
    params: GradingQueueParams,
    query: GradingQueueQuery,
    success: { status: 200, description: 'A page of the queue', schema: GradingPage },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, query }) => {
      const { page, filters } = splitPageQuery(query);
      return { status: 200, body: await service.gradingQueue(principal, params.testId, filters, page) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/attempts/{attemptId}/grades',
    summary: 'Grade an essay of a submitted attempt',
    description:
      `Sets the marks (0 to the question’s) and optional feedback (up to ${MAX_FEEDBACK_LENGTH} characters, shown with the review) of one answered essay, and rescores the attempt in the same transaction: ` +
      'its score counts the grade, pending_marks drops, and with the last missing grade its grading becomes "complete" and its score enters the analytics, exactly once even when two graders post at once. ' +
      'A grade may be changed later the same way; the analytics follow by the difference. Audited as essay_graded. ' +
      'Feedback that would take the attempt past the 1 MiB a document holds → 413. An attempt in progress → 409; an essay not answered (it earns 0 and needs no grade) → 409; a question that is not an essay of the attempt → 400. ' +
      'Super Admin any attempt, Client Admin its organization’s (another’s → 403); Students and Guests → 403.',
    tag: 'Grading',
    access: GRADERS,
    params: GradeParams,
    body: GradeBody,
    success: { status: 200, description: 'The grade and the attempt’s score with it', schema: GradedAttempt },
    errors: ['NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE'],
    handler: async ({ principal, params, body, call }) => ({
      status: 200,
      body: await service.gradeAttempt(principal, params.attemptId, body, call),
    }),
  }),
];
