import { z } from 'zod';
import { MAX_CURSOR_LENGTH, pagedQuery, Pagination, Uid } from '../shared';
import { listedNameFields } from '../people';
import { DocumentId, MAX_ATTEMPTS_LIMIT, MAX_TIMER_MINUTES, TestId } from '../exams';
import { deliveryFields, refineWindow } from '../sittingRules';
import { MAX_CLASSES_PER_TEST } from '../classes';

// Request and reply shapes of a sitting's people and time: overrides per
// student, standing accommodations, and extra time on running attempts.

export const MAX_EXTRA_TIME_PERCENT = 400;
export const MAX_EXTRA_MINUTES = 1440;
export const MAX_EXTENSION_MINUTES = 1440;
/** Bounds that keep a test's overrides and an organization's accommodations listable and their counters honest. */
export const MAX_OVERRIDES_PER_TEST = 5_000;
export const MAX_ACCOMMODATIONS_PER_CLIENT = 50_000;
/** Extensions one attempt may carry (each is kept by id, so a sweep run twice extends once). */
export const MAX_EXTENSIONS_PER_ATTEMPT = 100;

// ---- overrides

export const OverrideParams = z.strictObject({ testId: TestId, studentId: Uid });

export const PutOverrideBody = z
  .strictObject({
    opens_at: deliveryFields.opens_at.describe('Replaces the test’s opens_at for this student; null: open any time'),
    closes_at: deliveryFields.closes_at.describe(
      'Replaces the test’s closes_at for this student (and ends its attempt in progress by it); null: no closing time',
    ),
    timer: z
      .int()
      .min(1)
      .max(MAX_TIMER_MINUTES)
      .optional()
      .describe(`Minutes, 1 to ${MAX_TIMER_MINUTES}: replaces the version’s timer (the accommodation is still added)`),
    max_attempts: z
      .int()
      .min(1)
      .max(MAX_ATTEMPTS_LIMIT)
      .nullable()
      .optional()
      .describe('Replaces the test’s max_attempts; null: unlimited'),
  })
  .superRefine(refineWindow)
  .refine((body) => Object.keys(body).length > 0, {
    message: 'Send at least one of opens_at, closes_at, timer, max_attempts',
  })
  .meta({
    id: 'PutOverride',
    description: 'Replaces the whole override: a field absent here is the test’s own value again',
  });
export type PutOverrideInput = z.infer<typeof PutOverrideBody>;

export const Override = z
  .object({
    test_id: z.string(),
    student_id: z.string(),
    ...listedNameFields('student', 'the student'),
    opens_at: z.string().nullable().optional().describe('Present when overridden; null: open any time'),
    closes_at: z.string().nullable().optional().describe('Present when overridden; null: no closing time'),
    timer: z.number().int().optional().describe('Present when overridden'),
    max_attempts: z.number().int().nullable().optional().describe('Present when overridden; null: unlimited'),
    set_by: z.string(),
    updated_at: z.string().describe('ISO 8601 UTC'),
  })
  .meta({ id: 'Override' });
export type Override = z.infer<typeof Override>;

export const OverridePage = z.object({ data: z.array(Override), pagination: Pagination }).meta({ id: 'OverridePage' });
export const ListOverridesQuery = pagedQuery({});

// ---- class overrides

export const ClassOverrideParams = z.strictObject({ testId: TestId, classId: DocumentId('class') });

export const ClassOverride = z
  .object({
    test_id: z.string(),
    class_id: z.string(),
    opens_at: z.string().nullable().optional().describe('Present when overridden; null: open any time'),
    closes_at: z.string().nullable().optional().describe('Present when overridden; null: no closing time'),
    timer: z.number().int().optional().describe('Present when overridden'),
    max_attempts: z.number().int().nullable().optional().describe('Present when overridden; null: unlimited'),
    set_by: z.string(),
    updated_at: z.string().describe('ISO 8601 UTC'),
  })
  .meta({ id: 'ClassOverride' });
export type ClassOverride = z.infer<typeof ClassOverride>;

export const ClassOverrideList = z
  .object({
    data: z
      .array(ClassOverride)
      .describe(`By class id; a test holds at most ${MAX_CLASSES_PER_TEST}, so one page holds them all`),
  })
  .meta({ id: 'ClassOverrideList' });

// ---- accommodations

export const AccommodationParams = z.strictObject({ uid: Uid });

export const PutAccommodationBody = z
  .strictObject({
    extra_time_percent: z.int().min(0).max(MAX_EXTRA_TIME_PERCENT).describe(`0 to ${MAX_EXTRA_TIME_PERCENT}`),
    extra_minutes: z.int().min(0).max(MAX_EXTRA_MINUTES).describe(`0 to ${MAX_EXTRA_MINUTES}`),
  })
  .meta({ id: 'PutAccommodation', description: 'Both fields; 0 and 0 removes the accommodation' });
export type PutAccommodationInput = z.infer<typeof PutAccommodationBody>;

export const Accommodation = z
  .object({
    student_id: z.string(),
    extra_time_percent: z.number().int(),
    extra_minutes: z.number().int(),
    updated_at: z.string().nullable().describe('ISO 8601 UTC; null when none was ever set'),
  })
  .meta({
    id: 'Accommodation',
    description:
      'A student’s standing extra time on every test of its organization: effective timer = ceil(timer × 60 × (1 + extra_time_percent / 100)) s + extra_minutes × 60 s',
  });
export type Accommodation = z.infer<typeof Accommodation>;

// ---- extra time

export const ExtendBody = z
  .strictObject({ minutes: z.int().min(1).max(MAX_EXTENSION_MINUTES).describe(`1 to ${MAX_EXTENSION_MINUTES}`) })
  .meta({ id: 'Extend' });

export const ExtendTestBody = z
  .strictObject({
    minutes: z.int().min(1).max(MAX_EXTENSION_MINUTES).describe(`1 to ${MAX_EXTENSION_MINUTES}`),
    class_id: DocumentId('class')
      .optional()
      .describe(
        'Only the attempts of this class’s students (the classes an attempt started in, as the live view’s class filter shows them); absent: every attempt in progress',
      ),
  })
  .meta({ id: 'ExtendTest' });

export const ExtendedAttempt = z
  .object({ attempt_id: z.string(), expires_at: z.string().describe('The new deadline, ISO 8601 UTC') })
  .meta({ id: 'ExtendedAttempt' });

export const ExtendedTest = z
  .object({ extended: z.number().int().describe('Attempts in progress that received the extra time') })
  .meta({ id: 'ExtendedTest' });

// ---- who has not started

export const DEFAULT_NOT_STARTED_LIMIT = 50;
export const MAX_NOT_STARTED_LIMIT = 200;

export const NotStartedQuery = z.strictObject({
  class_id: DocumentId('class')
    .optional()
    .describe(
      'The live view’s class filter: only the audience’s students in this class (a class of the test’s organization; another organization’s → 403, none → 404). ' +
        'A class the test is not assigned to is not refused: it answers those of its students who are in one of the classes the test is assigned to (usually none)',
    ),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_NOT_STARTED_LIMIT)
    .default(DEFAULT_NOT_STARTED_LIMIT)
    .describe(
      `Students of the audience read for this page, 1 to ${MAX_NOT_STARTED_LIMIT}: the page lists those of them who have not started, so it may hold fewer (even none) and still have a next_cursor`,
    ),
  cursor: z
    .string()
    .min(1)
    .max(MAX_CURSOR_LENGTH)
    .optional()
    .describe('`next_cursor` of the previous page: the page after it'),
});

export const NotStartedStudent = z
  .object({
    uid: z.string(),
    display_name: z.string().nullable().describe('From the student’s profile; null when it has none'),
    email: z.string().nullable(),
    candidate_number: z.string().optional().describe('The school-issued candidate number, when one was set'),
    class_ids: z
      .array(z.string())
      .describe(
        'The student’s classes of the audience: of a test assigned to classes, those of them it is in; else all its classes',
      ),
  })
  .meta({ id: 'NotStartedStudent' });

export const NotStartedPage = z
  .object({
    data: z
      .array(NotStartedStudent)
      .describe('By uid; at most `limit`, fewer when some of the students read have started'),
    next_cursor: z
      .string()
      .nullable()
      .describe('Pass as `cursor` for the next page; null when the audience has been read to its end'),
  })
  .meta({
    id: 'NotStartedPage',
    description:
      'A page of the students of the test’s audience who have not started it. No total: counting them would read the whole audience',
  });
export type NotStartedPage = z.infer<typeof NotStartedPage>;
