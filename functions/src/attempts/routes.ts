import type { Principal } from '../auth';
import { splitPageQuery, unauthorized } from '../shared';
import { defineRoute, type RouteDefinition } from '../http';
import { ATTEMPT_BUDGET_BYTES } from './rules';
import {
  AttemptPage,
  AttemptParams,
  AttemptReply,
  AttemptTokenQuery,
  ListAttemptsQuery,
  MAX_BATCH_ANSWERS,
  SaveAnswersBody,
  SaveAnswersReply,
  StartAttemptBody,
  StartedAttempt,
  SubmittedAttempt,
} from './schemas';
import * as service from './service';

export const TAKERS = ['super_admin', 'client_admin', 'student', 'guest'] as const;

/** The attempt token wins when both are sent: it names one attempt exactly. */
export function callerOf(principal: Principal | undefined, token: string | undefined): service.AttemptCaller {
  if (token !== undefined) return { principal, token };
  if (!principal) throw unauthorized('Missing Authorization header (or ?attempt_token=)');
  return { principal };
}

export const TOKEN_NOTE =
  ' A Guest may send its attempt_token (from POST /api/attempts) as the header X-Attempt-Token, or as ?attempt_token=, instead of an Authorization header; a token of another attempt, or one replaced by a later start, is 403.' +
  ' Every way in checks who and where: with an attempt token, or a Guest’s ID token, the attempt’s organization must be active (else 403, as for bearer requests of a deactivated organization);' +
  ' with an attempt token, the account it was issued to (the taker’s, or the administrator’s who started the attempt, still with that role over the attempt’s organization) must still exist and be enabled (else 401, recorded as token_rejected: a refused credential, counted as docs/security.md#rate-limits says).' +
  ' A save or submit that loses to the same attempt’s other saves is run again for up to 20 s; past that → 503 with Retry-After, nothing written.' +
  ' The organization’s status is read on every request, as for bearer requests; the account is as Auth described it at most 60 s earlier.';

export const attemptRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'post',
    path: '/attempts',
    summary: 'Start (or resume) an attempt',
    description:
      'A Student starts for itself (student_id omitted or its own uid; another → 403). A Client Admin names a student of its organization; a Super Admin names a student of the test’s organization. ' +
      'A Guest (anonymous sign-in) sends share_code (and optionally guest_name) instead of test_id. The test must be published (else 409). ' +
      'While an attempt on the test is in progress, starting again answers that attempt (200, resumed: true) with a fresh attempt_token; the old token stops working. ' +
      'max_attempts reached → 409. Share codes: unknown → 404, expired or revoked → 403, used up (max_uses) → 409; each such refusal is a refused credential, counted toward the lockout as ' +
      'docs/security.md#rate-limits says (then 429). A Guest starting again with the same code resumes without taking a second use. ' +
      'The code’s organization must be active (else 403); its status is read on every request, as for bearer requests. ' +
      'A test archived while an attempt is in progress refuses its resume too (409). test_details never carries answer keys.',
    tag: 'Attempts',
    access: TAKERS,
    sensitive: true,
    body: StartAttemptBody,
    success: {
      status: 201,
      description: 'The new attempt (200: the attempt already in progress, with a fresh token)',
      schema: StartedAttempt,
    },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, body, call }) => {
      const { created, body: reply } = await service.startAttempt(principal, body, call);
      return { status: created ? 201 : 200, body: reply };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/attempts',
    summary: 'List attempts',
    description:
      'Newest first. A Super Admin names client_id (required); a Client Admin sees its organization’s; a Student and a Guest see their own (naming another student_id → 403). ' +
      'Filters: test_id, student_id, status, and class_id with test_id (the live view of one class: the attempts of its students, as it stood when each started; ' +
      'administrators only, a Student or Guest → 403; another organization’s class → 403, an unknown one → 404). Attempts past their deadline are closed (submitted) as they are read; one that cannot be closed ' +
      '(too large to score, stored before attempts had a size budget) is listed as it stands, and the scheduled closer tries it again.',
    tag: 'Attempts',
    access: TAKERS,
    query: ListAttemptsQuery,
    success: { status: 200, description: 'A page of attempts (no answers, no keys)', schema: AttemptPage },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, query, call }) => {
      const { page, filters } = splitPageQuery(query);
      return { status: 200, body: await service.listAttempts(principal, filters, page, call) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/attempts/{attemptId}',
    summary: 'Read an attempt',
    description:
      'The attempt with its saved answers and its questions (in its order, without keys), so a reloaded page restores its state; after submission also score, total_marks, submitted_at. ' +
      '`review` (answers, correctness and keys) only after submission, and for the taker only when the test has allow_review 1 (its organization’s administrators always). ' +
      'An attempt past its deadline is submitted first, with the answers saved in time (one that cannot be, being too large to score, is answered as it stands). Super Admin any attempt, Client Admin its organization’s (another’s → 403), Student and Guest their own.' +
      TOKEN_NOTE,
    tag: 'Attempts',
    access: TAKERS,
    attemptToken: true,
    params: AttemptParams,
    query: AttemptTokenQuery,
    success: { status: 200, description: 'The attempt (ReviewedAttempt when review is allowed)', schema: AttemptReply },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, query, call }) => ({
      status: 200,
      body: await service.readAttempt(callerOf(principal, query.attempt_token), params.attemptId, call),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/attempts/{attemptId}/answers',
    summary: 'Save answers: one, or a batch',
    description:
      'Upserts the answer to one question ({question_id, student_answer}), or to up to ' +
      `${MAX_BATCH_ANSWERS} questions at once ({answers: [{question_id, student_answer, client_seq?}, …]}, each question once); saved and durable when 200 is sent. ` +
      'A batch is validated whole and stored in one write: one bad item → 400 naming it (details: body.answers.<i>.<field>), a question not in the attempt → 400 naming the item, and nothing is saved. ' +
      'client_seq (optional, an integer ≥ 0) is the client’s own counter for the question: an answer whose client_seq is not above the one stored for the question is stale, not applied, and reported, ' +
      'so an offline queue replayed late or out of order never overwrites a newer answer. An answer without client_seq is always applied (the last one saved wins) and keeps the stored client_seq. ' +
      'Replies: one answer without client_seq → SavedAnswer, as ever; one answer with client_seq → SequencedAnswer, 200 whether applied or stale (stale: true shows the stored answer that stays); ' +
      'a batch → SavedAnswerBatch, {saved: [{question_id, saved_at}], stale: [question_id]}. ' +
      'After submission, or past expires_at + 30 s by the server’s clock → 409, for a batch whole (an attempt found past its deadline is submitted then, with the answers saved in time). ' +
      'An attempt whose test was archived, or whose share code was revoked, takes no more answers (409 naming which); it can still be read and submitted. ' +
      `An attempt has a storage budget of ${ATTEMPT_BUDGET_BYTES} bytes (answers included, as Firestore counts them: a character takes 1 to 4 bytes), so that it still fits ` +
      'in one document once scored; the limits allow more (500 questions × 2,000 characters). An answer that would take the attempt past it → 413 PAYLOAD_TOO_LARGE ' +
      '(details: body.student_answer, or body.answers.<i>.student_answer for the item of a batch that takes it past) and nothing is written: the answers saved before stay, and submit works. ' +
      'Shorter answers, or clearing others, make room.' +
      TOKEN_NOTE,
    tag: 'Attempts',
    access: TAKERS,
    attemptToken: true,
    params: AttemptParams,
    query: AttemptTokenQuery,
    body: SaveAnswersBody,
    success: {
      status: 200,
      description:
        'The answer as saved (SavedAnswer, or SequencedAnswer when client_seq was sent), or for a batch what was saved and what was stale',
      schema: SaveAnswersReply,
    },
    errors: ['NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE'],
    handler: async ({ principal, params, query, body, call }) => ({
      status: 200,
      body: await service.saveAnswers(callerOf(principal, query.attempt_token), params.attemptId, body, call),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/attempts/{attemptId}/submit',
    summary: 'Submit an attempt',
    description:
      'Scores the attempt once, in a transaction: a second (or concurrent) submit → 409 and the stored score is unchanged. Unanswered questions score 0; ' +
      'a wrong answer costs negative_mark_ratio × marks when negative_marking is 1; the total is never below 0. Multiple select is all-or-nothing. ' +
      "A numeric answer is correct within the question's tolerance plus only the floating-point representation error of the parsed decimals (see tolerance); " +
      'it may use a decimal comma ("1,41" is 1.41) unless the comma could group thousands ("1,234" is no number, so wrong, as any answer that is no number). ' +
      'Only answers saved by expires_at + 30 s count. An attempt stopped by its test’s archive or its share code’s revocation is still submitted, with the answers saved so far. ' +
      'An attempt too large to be scored in one document (stored before attempts had a size budget) → 409 ' +
      'and stays as it is (while in progress, shortening answers makes room). ' +
      'An administrator of the attempt’s organization may submit a taker’s attempt with its own token (a proctor closing a paper), or with the attempt token it received by starting the attempt for the student: submitted_by is then "admin", audited with the administrator as actor; ' +
      'the taker’s own submit is "taker", the service’s close past the deadline "deadline". No body.' +
      TOKEN_NOTE,
    tag: 'Attempts',
    access: TAKERS,
    attemptToken: true,
    params: AttemptParams,
    query: AttemptTokenQuery,
    success: { status: 200, description: 'The score', schema: SubmittedAttempt },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, query, call }) => ({
      status: 200,
      body: await service.submitAttempt(callerOf(principal, query.attempt_token), params.attemptId, call),
    }),
  }),
];
