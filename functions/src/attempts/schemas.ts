import { z } from 'zod';
import {
  ClientId,
  isWellFormedText,
  MAX_ATTEMPT_TOKEN_LENGTH,
  MAX_ID_LENGTH,
  pagedQuery,
  Pagination,
  Uid,
} from '../shared';
import { TAKER_FIELDS } from '../questionTypes';
import { DocumentId, QuestionId, ShareCodeText, TestId } from '../exams';
import { AccessCodeInput } from '../sittingRules';
import { IntegritySummary } from './integrity/schemas';

// Request and reply shapes of the attempts endpoints. No reply schema but
// `ReviewedAttempt` names an answer key (`correct_answer`, `tolerance`, credits,
// alternatives) or the question's feedback, and the route only chooses it after
// submission when review is allowed and released: a student's reply physically
// cannot carry a key or feedback before that.

export const MAX_ANSWER_LENGTH = 2000;
/** An essay's answer may be this long; every other answer MAX_ANSWER_LENGTH. */
export const MAX_ESSAY_ANSWER_LENGTH = 10_000;
export const MAX_GUEST_NAME_LENGTH = 100;
/** 32 random bytes in base64url are 43 characters; anything longer is no token of ours. */
export const ATTEMPT_STATUSES = ['in_progress', 'submitted'] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

const wellFormed = (schema: z.ZodString) =>
  schema.refine(isWellFormedText, 'Must be well-formed text (no lone surrogates)');

/**
 * `<clientId>.<random>`: an attempt's id says where it lives (attempts/attemptLookup.ts).
 * Only its length is checked here; any other id simply names no attempt (404).
 */
export const AttemptId = z
  .string()
  .min(1)
  .max(2 * MAX_ID_LENGTH + 1)
  .describe('An attempt id as POST /api/attempts answered it: the organization id, ".", then 22 random characters');

// ---- requests

export const StartAttemptBody = z
  .strictObject({
    test_id: TestId.optional().describe('The published test to take; a Guest sends share_code instead'),
    student_id: Uid.optional().describe(
      'Whose attempt: a Student omits it or names itself; a Client Admin or Super Admin names a student of the test’s organization',
    ),
    share_code: ShareCodeText.optional().describe('A Guest’s way in, instead of test_id'),
    guest_name: wellFormed(z.string().trim().min(1).max(MAX_GUEST_NAME_LENGTH))
      .optional()
      .describe(`A Guest’s name as the proctor will see it, 1 to ${MAX_GUEST_NAME_LENGTH} characters`),
    access_code: AccessCodeInput.optional().describe(
      'The test’s access code, when it requires one (access_code_required): needed to start a new attempt, not to resume one. Missing or wrong: 403, a refused credential (docs/security.md#rate-limits)',
    ),
  })
  .superRefine((body, ctx) => {
    if ((body.test_id === undefined) === (body.share_code === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['test_id'], message: 'Send exactly one of test_id and share_code' });
    }
    if (body.guest_name !== undefined && body.share_code === undefined) {
      ctx.addIssue({ code: 'custom', path: ['guest_name'], message: 'guest_name goes with share_code' });
    }
  })
  .meta({ id: 'StartAttempt' });
export type StartAttemptInput = z.infer<typeof StartAttemptBody>;

export const AttemptTokenQuery = z.strictObject({
  attempt_token: z
    .string()
    .min(1)
    .max(MAX_ATTEMPT_TOKEN_LENGTH)
    .optional()
    .describe('The attempt_token from POST /api/attempts: opens this attempt without an Authorization header'),
});

export const AttemptParams = z.strictObject({ attemptId: AttemptId });

/** The most answers one batch carries. */
export const MAX_BATCH_ANSWERS = 100;

const ClientSeq = z
  .int()
  .min(0)
  .describe(
    'Optional: the client’s own counter for this question, raised with each of its saves of it. An answer whose client_seq is not above the one stored for the question is stale: ' +
      'not applied, and reported. Without it the answer is always applied (as saves always were), and the client_seq stored for the question is kept',
  );

export const SaveAnswerBody = z
  .strictObject({
    question_id: QuestionId,
    student_answer: wellFormed(z.string().max(MAX_ESSAY_ANSWER_LENGTH)).describe(
      `At most ${MAX_ANSWER_LENGTH} characters (an essay’s: ${MAX_ESSAY_ANSWER_LENGTH}, and at most its max_words words). A choice is the option’s text; several choices are joined by "|"; "" clears the answer`,
    ),
    client_seq: ClientSeq.optional(),
  })
  .meta({ id: 'SaveAnswer' });

export const SaveAnswerBatchBody = z
  .strictObject({
    answers: z
      .array(SaveAnswerBody)
      .min(1)
      .max(MAX_BATCH_ANSWERS)
      .describe(`1 to ${MAX_BATCH_ANSWERS} answers, each to a different question of the attempt`),
  })
  .superRefine((body, ctx) => {
    const first = new Map<string, number>();
    body.answers.forEach((item, i) => {
      const earlier = first.get(item.question_id);
      if (earlier === undefined) first.set(item.question_id, i);
      else
        ctx.addIssue({
          code: 'custom',
          path: ['answers', i, 'question_id'],
          message: `The same question as answers.${earlier}: a batch answers each question once`,
        });
    });
  })
  .meta({ id: 'SaveAnswerBatch' });

/** One answer, or a batch of them. */
export const SaveAnswersBody = z.union([SaveAnswerBatchBody, SaveAnswerBody], {
  error: 'Send one answer {question_id, student_answer, client_seq?} or a batch {answers: [...]}',
});
export type SaveAnswersInput = z.infer<typeof SaveAnswersBody>;

export const ListAttemptsQuery = pagedQuery({
  client_id: ClientId.optional().describe('Required for a Super Admin; others may omit it (own organization)'),
  test_id: TestId.optional(),
  student_id: Uid.optional().describe('A Student and a Guest see their own attempts only'),
  status: z.enum(ATTEMPT_STATUSES).optional(),
  class_id: DocumentId('class')
    .optional()
    .describe(
      'With test_id: only the attempts of this class’s students, as the class stood when each attempt started (administrators only)',
    ),
});

// ---- replies

/**
 * A question as a test taker sees it: no correct_answer, no tolerance, and no title (the bank's name for
 * it, which may give the answer away): a field this schema does not name never leaves in a reply.
 */
export const AttemptQuestion = z
  .object({
    id: z.string(),
    question_text: z.string().describe('Sanitized HTML when text_format is html, else plain text'),
    text_format: z.enum(['plain', 'html']).optional().describe('Present when html; absent means plain'),
    question_type: z.string(),
    options: z.array(z.string()).describe('In this attempt’s order (plain text)'),
    marks: z.number(),
    passage_id: z
      .string()
      .optional()
      .describe('The passage shown beside it: one of test_details.passages (absent: none)'),
    ...TAKER_FIELDS,
  })
  .meta({ id: 'AttemptQuestion' });
export type AttemptQuestion = z.infer<typeof AttemptQuestion>;

/** A passage as a taker sees it: a text shown once beside the questions that name it, as the version froze it. */
export const AttemptPassage = z
  .object({
    id: z.string(),
    question_text: z.string().describe('Sanitized HTML when text_format is html, else plain text'),
    text_format: z.enum(['html']).optional().describe('Present when html; absent means plain'),
  })
  .meta({ id: 'AttemptPassage' });
export type AttemptPassage = z.infer<typeof AttemptPassage>;

const Flag = z.union([z.literal(0), z.literal(1)]);

export const TestDetails = z
  .object({
    test_id: z.string(),
    version: z.number().int().describe('The published version this attempt takes; later edits never change it'),
    test_name: z.string(),
    description: z.string().nullable(),
    timer: z.number().int().describe('Minutes'),
    shuffle: Flag,
    allow_review: Flag,
    negative_marking: Flag,
    negative_mark_ratio: z.number(),
    max_attempts: z.number().int().nullable(),
    question_count: z.number().int().describe('This attempt’s questions: the fixed ones and those drawn from pools'),
    total_marks: z.number().describe('This attempt’s own total (with pools, the drawn questions’ marks)'),
    questions: z
      .array(AttemptQuestion)
      .describe(
        'In this attempt’s order (shuffled per attempt when shuffle is 1, the same on every read); the questions sharing a passage stand together',
      ),
    passages: z
      .array(AttemptPassage)
      .describe('The passages its questions name (passage_id), each once, in the order first named ([]: none)'),
  })
  .meta({ id: 'TestDetails' });
export type TestDetails = z.infer<typeof TestDetails>;

const times = {
  started_at: z.string().describe('ISO 8601 UTC'),
  expires_at: z
    .string()
    .describe(
      'ISO 8601 UTC: the earlier of started_at + the effective timer (the student’s override or the version’s, with its accommodation added) and the effective closes_at, ' +
        'plus any extension. Answers are accepted until 30 s after it (server clock). Changes to closes_at, overrides, accommodations and extensions move it while in progress',
    ),
};

export const StartedAttempt = z
  .object({
    attempt_id: z.string(),
    attempt_token: z
      .string()
      .describe(
        'Opens this attempt with ?attempt_token= (no Authorization header); a later start of the same attempt replaces it',
      ),
    status: z.enum(ATTEMPT_STATUSES),
    ...times,
    resumed: z
      .boolean()
      .describe(
        'true: the attempt already in progress on this test, with a fresh token (GET it for the saved answers)',
      ),
    test_details: TestDetails,
  })
  .meta({ id: 'StartedAttempt' });
export type StartedAttempt = z.infer<typeof StartedAttempt>;

export const SavedAnswer = z
  .object({
    question_id: z.string(),
    student_answer: z.string(),
    saved_at: z.string().describe('ISO 8601 UTC, server clock'),
  })
  .meta({ id: 'SavedAnswer' });
export type SavedAnswer = z.infer<typeof SavedAnswer>;

/** The reply to one answer sent with client_seq: applied, or stale with the answer that stays. */
export const SequencedAnswer = z
  .object({
    question_id: z.string(),
    student_answer: z
      .string()
      .describe('The answer stored for the question now: the one sent, or (stale) the newer one that stays'),
    saved_at: z.string().describe('ISO 8601 UTC, server clock: when the stored answer was saved'),
    client_seq: z.number().int().describe('The client_seq stored for the question now'),
    stale: z
      .boolean()
      .describe(
        'true: the answer sent was not applied, its client_seq not being above the stored one; the reply shows the answer that stays',
      ),
  })
  .meta({ id: 'SequencedAnswer' });
export type SequencedAnswer = z.infer<typeof SequencedAnswer>;

export const SavedAnswerBatch = z
  .object({
    saved: z
      .array(z.object({ question_id: z.string(), saved_at: z.string().describe('ISO 8601 UTC, server clock') }))
      .describe('The answers applied, in the order sent'),
    stale: z
      .array(z.string())
      .describe(
        'The question ids of the answers not applied, their client_seq not being above the stored one, in the order sent',
      ),
  })
  .meta({ id: 'SavedAnswerBatch' });
export type SavedAnswerBatch = z.infer<typeof SavedAnswerBatch>;

// The most specific first: a union answers with the first shape that fits, and stripping keys makes SavedAnswer fit a SequencedAnswer.
export const SaveAnswersReply = z.union([SequencedAnswer, SavedAnswerBatch, SavedAnswer]);

/** A saved answer as a read of the attempt shows it: with the client_seq stored for it, if any. */
export const StoredAnswerView = z
  .object({
    question_id: z.string(),
    student_answer: z.string(),
    saved_at: z.string().describe('ISO 8601 UTC, server clock'),
    client_seq: z
      .number()
      .int()
      .optional()
      .describe(
        'The client_seq stored for the question, when a save sent one: a client that lost its counter goes on from it',
      ),
  })
  .meta({ id: 'StoredAnswer' });

const gradingFields = {
  grading: z
    .enum(['pending', 'complete'])
    .nullable()
    .describe(
      'null without essays (or while in progress); "pending": some answered essays await a person’s grade, and score is not final; "complete": every essay is graded',
    ),
  pending_marks: z.number().describe('The marks of the answered essays not graded yet (0 when none)'),
};

export const SubmittedAttempt = z
  .object({
    status: z.literal('submitted'),
    score: z.number().describe('With essays pending, the score so far (see grading)'),
    total_marks: z.number(),
    submitted_at: z.string().describe('ISO 8601 UTC'),
    ...gradingFields,
  })
  .meta({ id: 'SubmittedAttempt' });
export type SubmittedAttempt = z.infer<typeof SubmittedAttempt>;

const summaryFields = {
  attempt_id: z.string(),
  test_id: z.string(),
  version: z.number().int(),
  client_id: z.string(),
  student_id: z.string(),
  guest: z.boolean(),
  guest_name: z.string().nullable(),
  status: z.enum(ATTEMPT_STATUSES),
  ...times,
  submitted_at: z.string().nullable().describe('ISO 8601 UTC; null while in progress'),
  auto_submitted: z
    .boolean()
    .describe('true: the service closed it after its deadline (submitted_at is then expires_at)'),
  submitted_by: z
    .enum(['taker', 'deadline', 'admin'])
    .nullable()
    .describe(
      'Who submitted: its taker, the deadline (closed by the service), or an administrator of its organization; null while in progress',
    ),
  score: z.number().nullable().describe('null while in progress; with essays pending, the score so far (see grading)'),
  total_marks: z.number().describe('The attempt’s own total (with pools, of the questions it drew)'),
  ...gradingFields,
};

export const AttemptSummary = z
  .object({
    ...summaryFields,
    answered: z
      .number()
      .int()
      .describe(
        'How many of its questions have a saved answer that is not blank, as scoring counts them (from the attempt document itself: no extra read)',
      ),
    student_name: z
      .string()
      .nullable()
      .optional()
      .describe(
        'In an administrator’s list: the student’s display name from its profile (null: none, or a Guest, whose guest_name names it)',
      ),
    student_email: z
      .string()
      .nullable()
      .optional()
      .describe('In an administrator’s list: the student’s email (null: none, or a Guest)'),
    integrity: IntegritySummary.optional().describe(
      'Its integrity events counted, and the last one (the live view): in an administrator’s list with test_id only',
    ),
  })
  .meta({ id: 'AttemptSummary' });
export type AttemptSummary = z.infer<typeof AttemptSummary>;

export const AttemptPage = z
  .object({ data: z.array(AttemptSummary), pagination: Pagination })
  .meta({ id: 'AttemptPage' });

/** A file a taker attached to an essay (attachments/): listed with the attempt, its bytes read at its url. */
export const Attachment = z
  .object({
    id: z.string(),
    question_id: z.string().describe('The essay whose answer it is attached to'),
    name: z.string().describe('The file’s name as the taker’s browser gave it, made safe to show (never its type)'),
    content_type: z
      .enum(['application/pdf', 'image/png', 'image/jpeg'])
      .describe('What its content was found to be (the name and the declared type are never believed)'),
    size: z.number().int().describe('Bytes'),
    uploaded_at: z.string().describe('ISO 8601 UTC'),
    url: z
      .string()
      .describe(
        'Where its bytes are read (GET, with the caller’s Authorization header or the attempt token): its taker and the organization’s administrators',
      ),
  })
  .meta({ id: 'Attachment', description: 'A file a taker attached to an essay' });

const attemptFields = {
  ...summaryFields,
  answers: z.array(StoredAnswerView).describe('Every saved answer, in the attempt’s question order'),
  attachments: z
    .array(Attachment)
    .describe('The files attached to essays’ answers, in the attempt’s question order, then as attached'),
  test_details: TestDetails,
};

/** An attempt as its taker sees it, without any answer key. */
export const Attempt = z.object(attemptFields).meta({ id: 'Attempt' });
export type Attempt = z.infer<typeof Attempt>;

export const ReviewItem = z
  .object({
    question_id: z.string(),
    student_answer: z.string().nullable(),
    answered: z.boolean(),
    correct: z.boolean(),
    marks_awarded: z.number(),
    correct_answer: z.string().nullable().describe('null for an essay (graded by a person)'),
    tolerance: z.number().nullable(),
    pending: z.boolean().describe('An answered essay not graded yet'),
    feedback: z.string().nullable().describe('An essay’s grader’s feedback, once graded'),
    question_feedback: z
      .string()
      .optional()
      .describe('The question’s general feedback, when it has one (HTML when its text_format is html)'),
    option_feedback: z
      .array(z.string())
      .optional()
      .describe('Per option, in this attempt’s option order ("" for none), when the question has option feedback'),
    option_credits: z
      .array(z.number())
      .optional()
      .describe('multiple_select partial credit per option, in this attempt’s option order, when the question has it'),
    alternatives: z
      .array(z.object({ answer: z.string(), credit: z.number(), tolerance: z.number().optional() }))
      .optional()
      .describe('short_answer, numeric: the further accepted answers and their credit, when the question has them'),
    case_sensitive: z.boolean().optional().describe('short_answer: present (true) when compared case for case'),
  })
  .meta({ id: 'ReviewItem' });

/** A submitted attempt with its review: only when the test allows review (or for its organization's administrators). */
export const ReviewedAttempt = z
  .object({
    ...attemptFields,
    review: z
      .array(ReviewItem)
      .describe('Per question, in the attempt’s order: the answer, whether it was right, the key'),
  })
  .meta({ id: 'ReviewedAttempt' });
export type ReviewedAttempt = z.infer<typeof ReviewedAttempt>;

// The reviewed shape first: a reply without `review` fails it and is read as Attempt.
export const AttemptReply = z.union([ReviewedAttempt, Attempt]);
