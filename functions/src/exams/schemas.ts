import { z } from 'zod';
import { ClientId, MAX_ID_LENGTH, pagedQuery, Pagination } from '../shared';
import { listedNameFields } from '../people';
import { authorDeliveryReplyFields, deliveryFields, deliveryReplyFields, refineWindow } from '../sittingRules';
import { DIFFICULTIES } from '../questionTypes';
import { TEST_STATUSES } from './lifecycle';
import { MAX_SHARE_CODE_INPUT, SHARE_CODE_ALPHABET, SHARE_CODE_LENGTH } from './shareCodeText';

// A frozen version holds every question in full in one document (≤ 1 MiB), so
// a test is bounded: 500 questions, and the publish step measures the document
// before writing it (versionSize.ts).
export const MAX_QUESTIONS_PER_TEST = 500;
export const MAX_POOLS = 20;
/** Every pool of a version together freezes at most this many questions. */
export const MAX_POOL_QUESTIONS = 5_000;
export const MAX_TIMER_MINUTES = 1440;
export const MAX_ATTEMPTS_LIMIT = 1000;
export const MAX_SHARE_CODE_USES = 100_000;
export const MAX_SHARE_CODE_LIFETIME_MS = 366 * 24 * 60 * 60 * 1000;

/**
 * A document id the service made or accepts: letters, digits, `_` and `-`,
 * not of Firestore's reserved form `__…__`. Anything else (a `/`, `..`,
 * `__proto__`) could not name a document, so it is refused as input.
 */
export const DocumentId = (what: string) =>
  z
    .string()
    .min(1)
    .max(MAX_ID_LENGTH)
    .regex(/^[A-Za-z0-9_-]+$/, 'Must be letters, digits, "_" or "-"')
    .refine((id) => !/^__.*__$/.test(id), 'Must not begin and end with "__"')
    .describe(`A ${what} id, 1 to ${MAX_ID_LENGTH} letters, digits, "_" or "-" (not "__…__")`);

export const TestId = DocumentId('test');
export const QuestionId = DocumentId('question');
export const FolderId = DocumentId('folder');

const Flag = z.union([z.literal(0), z.literal(1)]);
const TestStatus = z.enum(TEST_STATUSES);

export const PoolInput = z
  .strictObject({
    folder_id: FolderId.describe('The folder whose questions are drawn from (the test’s organization’s)'),
    difficulty: z
      .enum(DIFFICULTIES)
      .nullable()
      .optional()
      .describe('Only the folder’s questions of this difficulty; absent or null: all of them'),
    draw: z.int().min(1).max(MAX_QUESTIONS_PER_TEST).describe('How many questions each attempt draws from the pool'),
  })
  .meta({ id: 'TestPoolInput' });

const Pools = z
  .array(PoolInput)
  .max(MAX_POOLS)
  .default([])
  .describe(
    `Random draws beside question_ids (at most ${MAX_POOLS}): each attempt draws its own \`draw\` questions from each pool at start, never repeating a question, ` +
      'preferring those the student has not seen in its earlier attempts of the test. Publishing freezes each pool’s questions (a question also fixed, or in an earlier pool, belongs there only); ' +
      'a draw larger than its pool is refused then (400 naming the pool)',
  );

// ---- requests

const testFields = {
  test_name: z.string().trim().min(1).max(200),
  timer: z
    .int()
    .min(1)
    .max(MAX_TIMER_MINUTES)
    .nullable()
    .optional()
    .describe(`Minutes, 1 to ${MAX_TIMER_MINUTES}; required to publish`),
  shuffle: Flag.default(0).describe('1: questions and options are shuffled per attempt'),
  allow_review: Flag.default(0).describe('1: a submitted attempt shows the answer keys'),
  negative_marking: Flag.default(0).describe('1: a wrong answer costs negative_mark_ratio of its marks'),
  status: z
    .literal('draft', { error: 'A test is written as a draft; publish it with POST /api/tests/{testId}/publish' })
    .optional()
    .describe('Only "draft": the moves publish, archive and restore change it'),
  question_ids: z
    .array(QuestionId)
    .max(MAX_QUESTIONS_PER_TEST)
    .default([])
    .superRefine((ids, ctx) => {
      const seen = new Set<string>();
      const repeated = new Set(ids.filter((id) => seen.size === seen.add(id).size));
      if (repeated.size > 0)
        ctx.addIssue({
          code: 'custom',
          message: `Each question may appear once; repeated: ${[...repeated].join(', ')}`,
        });
    })
    .describe(`Questions of the same organization, in order, without repeats (at most ${MAX_QUESTIONS_PER_TEST})`),
  description: z.string().trim().max(5000).nullable().optional(),
  max_attempts: z
    .int()
    .min(1)
    .max(MAX_ATTEMPTS_LIMIT)
    .nullable()
    .optional()
    .describe('Attempts per student; absent or null = unlimited'),
  negative_mark_ratio: z
    .number()
    .min(0)
    .max(1)
    .default(0.25)
    .describe('Share of a question’s marks a wrong answer costs (0 to 1)'),
  folder_id: FolderId.nullable().optional().describe('A folder of the same organization'),
  pools: Pools,
  ...deliveryFields,
};

/** An attempt holds the fixed questions and every pool's draw: together at most MAX_QUESTIONS_PER_TEST. */
function refineQuestionCount(
  body: { question_ids: string[]; pools: Array<{ draw: number }> },
  ctx: z.core.$RefinementCtx,
): void {
  const count = body.question_ids.length + body.pools.reduce((sum, pool) => sum + pool.draw, 0);
  if (count > MAX_QUESTIONS_PER_TEST) {
    ctx.addIssue({
      code: 'custom',
      path: ['pools'],
      message: `An attempt would hold ${count} questions (question_ids and every draw); at most ${MAX_QUESTIONS_PER_TEST}`,
    });
  }
}

export const CreateTestBody = z
  .strictObject({
    ...testFields,
    client_id: ClientId.optional().describe('Required for a Super Admin; a Client Admin may omit it'),
  })
  .superRefine(refineWindow)
  .superRefine(refineQuestionCount)
  .meta({ id: 'CreateTest' });
export type CreateTestInput = z.infer<typeof CreateTestBody>;

export const ReplaceTestBody = z
  .strictObject(testFields)
  .superRefine(refineWindow)
  .superRefine(refineQuestionCount)
  .meta({ id: 'ReplaceTest' });
export type TestFieldsInput = z.infer<typeof ReplaceTestBody>;

/** The content of a published test's next version: the content fields of ReplaceTest, without delivery settings (PATCH changes those on the live test). */
export const EditNewVersionBody = z
  .strictObject({
    test_name: testFields.test_name,
    timer: testFields.timer,
    shuffle: testFields.shuffle,
    allow_review: testFields.allow_review,
    negative_marking: testFields.negative_marking,
    question_ids: testFields.question_ids,
    description: testFields.description,
    max_attempts: testFields.max_attempts,
    negative_mark_ratio: testFields.negative_mark_ratio,
    folder_id: testFields.folder_id,
    pools: testFields.pools,
  })
  .superRefine(refineQuestionCount)
  .meta({ id: 'EditNewVersion' });
export type EditNewVersionInput = z.infer<typeof EditNewVersionBody>;

export const TestParams = z.strictObject({ testId: TestId });

export const TestVersionParams = z.strictObject({
  testId: TestId,
  version: z.coerce.number().int().min(1).max(1_000_000).describe('A published version of the test'),
});

export const ListTestsQuery = pagedQuery({
  client_id: ClientId.optional().describe('Required for a Super Admin'),
  status: TestStatus.optional().describe('Students see published tests only'),
  folder_id: FolderId.optional(),
});

// ---- replies

const publicTestFields = {
  id: z.string(),
  test_name: z.string(),
  timer: z.number().int().nullable().describe('Minutes; null in a draft that has none yet'),
  shuffle: Flag,
  allow_review: Flag,
  negative_marking: Flag,
  status: TestStatus,
  client_id: z.string(),
  folder_id: z.string().nullable(),
  question_count: z.number().int().describe('The questions each attempt holds: question_ids and every pool’s draw'),
  description: z.string().nullable(),
  max_attempts: z.number().int().nullable().describe('null = unlimited'),
  negative_mark_ratio: z.number(),
  created_at: z.string().describe('ISO 8601 UTC'),
  updated_at: z.string().describe('ISO 8601 UTC'),
  published_at: z.string().nullable().describe('When the latest version was published; null until the first'),
  version: z.number().int().nullable().describe('Number of the latest published version; null until the first publish'),
  ...deliveryReplyFields,
};

/** A test as its authors see it. */
export const TestPool = z
  .object({ folder_id: z.string(), difficulty: z.enum(DIFFICULTIES).nullable(), draw: z.number().int() })
  .meta({ id: 'TestPool' });

/** A published test's next version being edited: its content, kept beside the live version's until published. */
export const PendingEdit = z
  .object({
    test_name: z.string(),
    timer: z.number().int().nullable(),
    shuffle: Flag,
    allow_review: Flag,
    negative_marking: Flag,
    folder_id: z.string().nullable(),
    question_ids: z.array(z.string()),
    pools: z.array(TestPool),
    question_count: z.number().int(),
    description: z.string().nullable(),
    max_attempts: z.number().int().nullable(),
    negative_mark_ratio: z.number(),
    base_version: z.number().int().describe('The live version when the edit was opened'),
    opened_by: z.string(),
    opened_at: z.string().describe('ISO 8601 UTC'),
    updated_at: z.string().describe('ISO 8601 UTC'),
  })
  .meta({ id: 'PendingEdit' });

export const Test = z
  .object({
    ...publicTestFields,
    ...authorDeliveryReplyFields,
    question_ids: z.array(z.string()),
    pools: z.array(TestPool),
    pending_edit: PendingEdit.nullable().describe(
      'The next version being edited (POST /tests/{testId}/new-version), while the fields above stay the live version’s; null when none',
    ),
  })
  .meta({ id: 'Test' });
export type Test = z.infer<typeof Test>;

/** A published test as a student sees it: which questions it holds is learned by starting an attempt. */
export const StudentTest = z.object(publicTestFields).meta({ id: 'StudentTest' });
export type StudentTest = z.infer<typeof StudentTest>;

// The author's shape first: a student's reply lacks question_ids, fails it, and is read as StudentTest.
export const TestReply = z.union([Test, StudentTest]);

export const TestPage = z.object({ data: z.array(Test), pagination: Pagination }).meta({ id: 'TestPage' });
export const StudentTestPage = z
  .object({ data: z.array(StudentTest), pagination: Pagination })
  .meta({ id: 'StudentTestPage' });
export const TestPageReply = z.union([TestPage, StudentTestPage]);

/** The bank's questions changed or deleted since a version froze them. */
export const BankChange = z
  .object({
    question_id: z.string(),
    title: z.string().nullable().describe('The frozen copy’s title'),
    question_text: z.string().describe('The frozen copy’s text'),
    text_format: z.enum(['plain', 'html']),
    change: z.enum(['edited', 'deleted']),
    fields: z
      .array(z.string())
      .describe('What differs from the frozen copy: question_text, options, correct_answer, marks, …'),
    updated_at: z.string().nullable().describe('When the bank’s question was last written; null when deleted'),
  })
  .meta({ id: 'BankChange' });

export const BankChanges = z
  .object({
    test_id: z.string(),
    version: z.number().int(),
    frozen_at: z.string().describe('When the version was published (ISO 8601 UTC)'),
    checked: z.number().int().describe('The version’s fixed questions compared (pool questions are not)'),
    changed: z.array(BankChange).describe('In the version’s order; empty when the bank still holds what was frozen'),
  })
  .meta({ id: 'BankChanges' });

// ---- share codes

export const ShareCodeText = z
  .string()
  .min(1)
  .max(MAX_SHARE_CODE_INPUT)
  .describe(`${SHARE_CODE_LENGTH} characters of ${SHARE_CODE_ALPHABET}; lower case and hyphens are accepted`);

export const ShareCodeParams = z.strictObject({ testId: TestId, code: ShareCodeText });

export const CreateShareCodeBody = z
  .strictObject({
    expires_at: z.iso
      .datetime({ offset: true })
      .refine((text) => Date.parse(text) > Date.now(), 'Must be in the future')
      .refine((text) => Date.parse(text) <= Date.now() + MAX_SHARE_CODE_LIFETIME_MS, 'Must be at most a year ahead')
      .optional()
      .describe('ISO 8601; in the future and at most a year ahead. Absent: the code does not expire'),
    max_uses: z
      .int()
      .min(1)
      .max(MAX_SHARE_CODE_USES)
      .optional()
      .describe(`1 to ${MAX_SHARE_CODE_USES}; absent: unlimited`),
  })
  .meta({ id: 'CreateShareCode' });
export type CreateShareCodeInput = z.infer<typeof CreateShareCodeBody>;

export const ListShareCodesQuery = pagedQuery({});

export const ShareCode = z
  .object({
    code: z.string(),
    test_id: z.string(),
    expires_at: z.string().nullable().describe('ISO 8601 UTC; null = never'),
    max_uses: z.number().int().nullable().describe('null = unlimited'),
    uses: z.number().int(),
    revoked: z.boolean(),
    created_at: z.string().describe('ISO 8601 UTC'),
    created_by: z.string().describe('The uid of the administrator who issued it'),
    ...listedNameFields('created_by', 'the administrator who issued it'),
  })
  .meta({ id: 'ShareCode' });
export type ShareCode = z.infer<typeof ShareCode>;

export const ShareCodePage = z
  .object({ data: z.array(ShareCode), pagination: Pagination })
  .meta({ id: 'ShareCodePage' });
