import { z } from 'zod';
import { Attachment, AttemptId } from '../attempts';
import { QuestionId, TestId } from '../exams';
import { isWellFormedText, pagedQuery, Pagination, queryBoolean } from '../shared';

// Request and reply shapes of grading essays: the test's queue and a grade.

export const MAX_FEEDBACK_LENGTH = 2_000;

export const GradingQueueParams = z.strictObject({ testId: TestId });

export const GradingQueueQuery = pagedQuery({
  question_id: QuestionId.optional().describe('Only this essay question’s answers (grading question by question)'),
  blind: queryBoolean
    .optional()
    .describe(
      'true: leave out who wrote each answer (student_id, guest_name, student_name and student_email are null), so a grader is not swayed by names',
    ),
});

export const GradingItem = z
  .object({
    attempt_id: z.string().describe('POST /api/attempts/{attempt_id}/grades grades it'),
    question_id: z.string(),
    test_id: z.string(),
    version: z.number().int(),
    student_id: z.string().nullable().describe('null when blind'),
    guest_name: z.string().nullable().describe('null when blind, or for a student'),
    student_name: z
      .string()
      .nullable()
      .describe('The student’s display name; null when blind, for a Guest, or unknown'),
    student_email: z.string().nullable().describe('The student’s email; null when blind, for a Guest, or unknown'),
    question_text: z.string(),
    text_format: z.enum(['plain', 'html']).optional().describe('Present when question_text is (sanitized) HTML'),
    marks: z.number().describe('The question’s marks: a grade is 0 to these'),
    max_words: z.number().int().nullable(),
    student_answer: z.string(),
    attachments: z.array(Attachment).describe('The files attached to the answer (its url serves their bytes)'),
    submitted_at: z.string().describe('ISO 8601 UTC; the queue is oldest first'),
  })
  .meta({ id: 'GradingItem' });
export type GradingItem = z.infer<typeof GradingItem>;

export const GradingPage = z.object({ data: z.array(GradingItem), pagination: Pagination }).meta({ id: 'GradingPage' });

export const GradeParams = z.strictObject({ attemptId: AttemptId });

export const GradeBody = z
  .strictObject({
    question_id: QuestionId.describe('An essay of the attempt that was answered'),
    marks: z.number().min(0).describe('0 to the question’s marks (more → 400)'),
    feedback: z
      .string()
      .trim()
      .max(MAX_FEEDBACK_LENGTH)
      .refine(isWellFormedText, 'Must be well-formed text (no lone surrogates)')
      .nullable()
      .optional()
      .describe(`Shown to the taker with the review; up to ${MAX_FEEDBACK_LENGTH} characters`),
  })
  .meta({ id: 'Grade' });
export type GradeInput = z.infer<typeof GradeBody>;

export const GradedAttempt = z
  .object({
    attempt_id: z.string(),
    question_id: z.string(),
    marks: z.number(),
    feedback: z.string().nullable(),
    previous_marks: z.number().nullable().describe('The grade this one replaced; null for the first'),
    score: z.number().describe('The attempt’s score with this grade'),
    total_marks: z.number(),
    grading: z.enum(['pending', 'complete']).describe('"complete" once every answered essay of the attempt is graded'),
    pending_marks: z.number(),
  })
  .meta({ id: 'GradedAttempt' });
export type GradedAttempt = z.infer<typeof GradedAttempt>;
