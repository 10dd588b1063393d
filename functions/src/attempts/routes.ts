import type { Principal } from '../auth/principal';
import { unauthorized } from '../shared/errors';
import { defineRoute, type RouteDefinition } from '../http/route';
import { splitPageQuery } from '../shared/pagination';
import {
  AttemptPage,
  AttemptParams,
  AttemptReply,
  AttemptTokenQuery,
  ListAttemptsQuery,
  SaveAnswerBody,
  SavedAnswer,
  StartAttemptBody,
  StartedAttempt,
  SubmittedAttempt,
} from './schemas';
import * as service from './service';

const TAKERS = ['super_admin', 'client_admin', 'student', 'guest'] as const;

/** The attempt token wins when both are sent: it names one attempt exactly. */
function callerOf(principal: Principal | undefined, token: string | undefined): service.AttemptCaller {
  if (token !== undefined) return { principal, token };
  if (!principal) throw unauthorized('Missing Authorization header (or ?attempt_token=)');
  return { principal };
}

const TOKEN_NOTE =
  ' A Guest may send ?attempt_token= (from POST /api/attempts) instead of an Authorization header; a token of another attempt, or one replaced by a later start, is 403.';

export const attemptRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'post',
    path: '/attempts',
    summary: 'Start (or resume) an attempt',
    description:
      'A Student starts for itself (student_id omitted or its own uid; another → 403). A Client Admin names a student of its organization; a Super Admin names a student of the test’s organization. ' +
      'A Guest (anonymous sign-in) sends share_code (and optionally guest_name) instead of test_id. The test must be published (else 409). ' +
      'While an attempt on the test is in progress, starting again answers that attempt (200, resumed: true) with a fresh attempt_token; the old token stops working. ' +
      'max_attempts reached → 409. Share codes: unknown → 404, expired or revoked → 403, used up (max_uses) → 409; each such refusal counts against the caller’s address like a failed ' +
      'authentication (ten in a minute → 429). A Guest starting again with the same code resumes without taking a second use. test_details never carries answer keys.',
    tag: 'Attempts',
    access: TAKERS,
    sensitive: true,
    body: StartAttemptBody,
    success: { status: 201, description: 'The new attempt (200: the attempt already in progress, with a fresh token)', schema: StartedAttempt },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, body, req, res }) => {
      const { created, body: reply } = await service.startAttempt(principal, body, { req, res });
      return { status: created ? 201 : 200, body: reply };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/attempts',
    summary: 'List attempts',
    description:
      'Newest first. A Super Admin names client_id (required); a Client Admin sees its organization’s; a Student and a Guest see their own (naming another student_id → 403). ' +
      'Filters: test_id, student_id, status. Attempts past their deadline are closed (submitted) as they are read.',
    tag: 'Attempts',
    access: TAKERS,
    query: ListAttemptsQuery,
    success: { status: 200, description: 'A page of attempts (no answers, no keys)', schema: AttemptPage },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, query, req, res }) => {
      const { page, filters } = splitPageQuery(query);
      return { status: 200, body: await service.listAttempts(principal, filters, page, { req, res }) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/attempts/{attemptId}',
    summary: 'Read an attempt',
    description:
      'The attempt with its saved answers and its questions (in its order, without keys), so a reloaded page restores its state; after submission also score, total_marks, submitted_at. ' +
      '`review` (answers, correctness and keys) only after submission, and for the taker only when the test has allow_review 1 (its organization’s administrators always). ' +
      'An attempt past its deadline is submitted first, with the answers saved in time. Super Admin any attempt, Client Admin its organization’s (another’s → 403), Student and Guest their own.' +
      TOKEN_NOTE,
    tag: 'Attempts',
    access: TAKERS,
    attemptToken: true,
    params: AttemptParams,
    query: AttemptTokenQuery,
    success: { status: 200, description: 'The attempt (ReviewedAttempt when review is allowed)', schema: AttemptReply },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, query, req, res }) => ({
      status: 200,
      body: await service.readAttempt(callerOf(principal, query.attempt_token), params.attemptId, { req, res }),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/attempts/{attemptId}/answers',
    summary: 'Save one answer',
    description:
      'Upserts the answer to one question (the last one saved wins); saved and durable when 200 is sent. A question not in the attempt → 400. ' +
      'After submission, or past expires_at + 30 s by the server’s clock → 409 (an attempt found past its deadline is submitted then, with the answers saved in time).' +
      TOKEN_NOTE,
    tag: 'Attempts',
    access: TAKERS,
    attemptToken: true,
    params: AttemptParams,
    query: AttemptTokenQuery,
    body: SaveAnswerBody,
    success: { status: 200, description: 'The answer as saved', schema: SavedAnswer },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, query, body, req, res }) => ({
      status: 200,
      body: await service.saveAnswer(callerOf(principal, query.attempt_token), params.attemptId, body, { req, res }),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/attempts/{attemptId}/submit',
    summary: 'Submit an attempt',
    description:
      'Scores the attempt once, in a transaction: a second (or concurrent) submit → 409 and the stored score is unchanged. Unanswered questions score 0; ' +
      'a wrong answer costs negative_mark_ratio × marks when negative_marking is 1; the total is never below 0. Multiple select is all-or-nothing. ' +
      'A numeric answer is correct within the question\'s tolerance plus only the floating-point representation error of the parsed decimals (see tolerance). ' +
      'Only answers saved by expires_at + 30 s count. No body.' +
      TOKEN_NOTE,
    tag: 'Attempts',
    access: TAKERS,
    attemptToken: true,
    params: AttemptParams,
    query: AttemptTokenQuery,
    success: { status: 200, description: 'The score', schema: SubmittedAttempt },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, query, req, res }) => ({
      status: 200,
      body: await service.submitAttempt(callerOf(principal, query.attempt_token), params.attemptId, { req, res }),
    }),
  }),
];
