import { z } from 'zod';
import { QuestionId, TestId } from '../exams';
import { MAX_ALTERNATIVES, MAX_OPTION_LENGTH, MAX_OPTIONS } from '../questionTypes';

// Request and reply shapes of regrading a published version after a key fix.

export const RegradeParams = z.strictObject({
  testId: TestId,
  version: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .describe('The published version whose frozen question is corrected'),
});

export const RegradeBody = z
  .strictObject({
    question_id: QuestionId.describe('A question of the version: a fixed one or one of its pools’'),
    correct_answer: z
      .string()
      .max(MAX_OPTIONS * (MAX_OPTION_LENGTH + 1))
      .optional()
      .describe('The corrected key, written as the bank takes it for the question’s type'),
    tolerance: z.number().nullable().optional().describe('numeric only: the corrected tolerance (null: 0)'),
    marks: z.number().optional().describe('The corrected marks (greater than 0)'),
    option_credits: z
      .array(z.number())
      .max(MAX_OPTIONS * 2)
      .nullable()
      .optional()
      .describe(
        'multiple_select only: the corrected partial credits, one per option as the bank takes them (null: all or nothing again); correct_answer must then name the positive ones',
      ),
    alternatives: z
      .array(
        z.object({
          answer: z.string().max(MAX_OPTION_LENGTH * 2),
          credit: z.number(),
          tolerance: z.number().optional(),
        }),
      )
      .max(MAX_ALTERNATIVES * 2)
      .nullable()
      .optional()
      .describe('short_answer and numeric only: the corrected alternatives, as the bank takes them (null: none)'),
    case_sensitive: z
      .boolean()
      .nullable()
      .optional()
      .describe('short_answer only: the corrected case sensitivity (null or false: case folded)'),
    dry_run: z.boolean().default(false).describe('true: list the attempts whose score would change, and write nothing'),
  })
  .refine(
    (body) =>
      [
        body.correct_answer,
        body.tolerance,
        body.marks,
        body.option_credits,
        body.alternatives,
        body.case_sensitive,
      ].some((field) => field !== undefined),
    {
      message: 'Send at least one of correct_answer, tolerance, marks, option_credits, alternatives and case_sensitive',
    },
  )
  .meta({ id: 'Regrade' });
export type RegradeInput = z.infer<typeof RegradeBody>;

const ScoreFigures = z.object({ score: z.number(), total_marks: z.number(), percentage: z.number() });

export const RegradedAttempt = z
  .object({
    attempt_id: z.string(),
    student_id: z.string(),
    guest_name: z.string().nullable(),
    before: ScoreFigures,
    after: ScoreFigures,
  })
  .meta({ id: 'RegradedAttempt' });
export type RegradedAttempt = z.infer<typeof RegradedAttempt>;

export const RegradeReply = z
  .object({
    test_id: z.string(),
    version: z.number().int(),
    question_id: z.string(),
    dry_run: z.boolean(),
    revision: z.number().int().describe('The version’s revision after the correction (a dry run: as it stands)'),
    corrected: z
      .boolean()
      .describe(
        'Whether the frozen question changed now (false: it already held this correction, as when a regrade is sent again)',
      ),
    attempts_checked: z.number().int().describe('Submitted attempts of the version rescored'),
    changed: z
      .array(RegradedAttempt)
      .describe('Every attempt whose score changes (a dry run: would change), before and after'),
  })
  .meta({ id: 'RegradeResult' });
export type RegradeReply = z.infer<typeof RegradeReply>;
