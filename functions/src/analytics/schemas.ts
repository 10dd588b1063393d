import { z } from 'zod';
import { ClientId, pagedQuery, Pagination, Uid } from '../shared';
import { DocumentId, TestId } from '../exams';

// Request and reply shapes of the analytics endpoints. Every formula is in the
// field's description (and so in the OpenAPI document); statistics.ts holds
// the same formulas as code.

const nullableNumber = (description: string) => z.number().nullable().describe(description);

export const VersionQuery = z.strictObject({
  version: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .describe(
      'The frozen version the figures describe (default: the latest published version). Versions are numbered 1, 2, … on each publish.',
    ),
});

/** ?class_id=: the figures of the attempts by one class's students (their classes when each attempt started). */
const ClassFilter = DocumentId('class').describe(
  'Only the attempts of this class’s students, as the class stood when each attempt started (a class of another organization → 403, none → 404)',
);

export const AnalyticsQuery = VersionQuery.extend({ class_id: ClassFilter.optional() });

export const TestAnalyticsParams = z.strictObject({ testId: TestId });

const OptionCount = z.object({
  option: z.string(),
  count: z.number().int().describe('Submitted attempts whose counted answer chose this option'),
});

const PartAnalytics = z
  .object({
    label: z.string().describe('The part: a stem, "Gap n", an item, an area’s label, or "Error"'),
    times_answered: z.number().int().describe('Submitted attempts that answered this part'),
    facility_index: nullableNumber(
      'Σ the share of the part earned / the attempts that saw the question; null when none did',
    ),
    option_counts: z
      .array(OptionCount)
      .nullable()
      .describe(
        'How often each of the part’s choices was made (a stem’s options, a gap’s, the error bands); null when it has none',
      ),
    other_choices: z
      .number()
      .int()
      .nullable()
      .describe('Answers to the part matching none of its choices; null when it has none'),
  })
  .meta({ id: 'PartAnalytics' });

export const QuestionAnalytics = z
  .object({
    position: z.number().int().describe('1-based position in the version (before any per-attempt shuffle)'),
    question_id: z.string(),
    question_text: z.string(),
    text_format: z
      .enum(['plain', 'html'])
      .optional()
      .describe('html: question_text is sanitized HTML (absent: plain text)'),
    question_type: z.string(),
    difficulty: z.string(),
    marks: z.number().describe('The question’s maximum mark'),
    times_seen: z
      .number()
      .int()
      .describe(
        'Complete attempts that held the question: every one for a fixed question; with pools, those that drew it. Its figures are over these attempts',
      ),
    times_answered: z.number().int().describe('Submitted attempts with a non-blank answer counted for the question'),
    times_correct: z
      .number()
      .int()
      .describe(
        'Submitted attempts whose answer earned the full marks (an answer earning partial credit is not counted here; it counts in mean_mark and facility_index)',
      ),
    mean_mark: nullableNumber(
      'Σx / n over every submitted attempt (unanswered = 0; negative with negative marking); null when n = 0',
    ),
    facility_index: nullableNumber(
      'Moodle’s facility index as a fraction: mean_mark / marks, the mean share of the marks earned (partial credit counts as its share; a fully correct answer as 1). ' +
        '1 = everyone earned full marks, 0 = nobody earned any (Moodle shows it × 100 %). Null when n = 0.',
    ),
    discrimination_index: nullableNumber(
      'Moodle’s discrimination index: 100 · Cov(x, X) / √(V(x) · V(X)), x = the mark on this question, X = the rest of the test (the raw total T minus x), ' +
        'variances and covariance over (n − 1), from running sums: V(x) = (Σx² − (Σx)²/n)/(n − 1), Cov(x, T) = (Σx·T − Σx·ΣT/n)/(n − 1), ' +
        'Cov(x, X) = Cov(x, T) − V(x), V(X) = V(T) − 2·Cov(x, T) + V(x). From −100 to 100; below about 20 the question does not separate strong from weak takers. ' +
        'Null when n < 2 or V(x) = 0 or V(X) = 0.',
    ),
    option_counts: z
      .array(OptionCount)
      .nullable()
      .describe(
        'How often each option was chosen (multiple select: every option ticked counts); null for short answer and numeric questions',
      ),
    other_choices: z
      .number()
      .int()
      .nullable()
      .describe('Choices matching none of the options; null for short answer and numeric questions'),
    parts: z
      .array(PartAnalytics)
      .optional()
      .describe(
        'Types with parts only: per part (a matching’s stem, a gap, an ordering’s item in its place, a hotspot’s correct area, a calculated answer’s error band) its figures',
      ),
  })
  .meta({ id: 'QuestionAnalytics' });

const DifficultyFigures = z.object({
  questions: z.number().int().describe('Questions of this difficulty in the version'),
  answered: z.number().int().describe('Σ times_answered over those questions'),
  correct: z.number().int().describe('Σ times_correct over those questions'),
  correct_rate: nullableNumber('correct / answered; null when nothing was answered'),
});

export const TestAnalytics = z
  .object({
    test_id: z.string(),
    client_id: z.string(),
    test_name: z.string().describe('As frozen in the version'),
    class_id: z
      .string()
      .optional()
      .describe('Present when ?class_id= asked for one class: every figure is then over its attempts only'),
    version: z
      .number()
      .int()
      .nullable()
      .describe('The frozen version the figures describe; null when the test was never published'),
    latest_version: z.number().int().nullable().describe('The latest published version; pick another with ?version='),
    total_marks: z
      .number()
      .nullable()
      .describe(
        'The most an attempt of this version can score: the fixed questions’ marks plus, per pool, its draw’s largest marks (= total_marks_max)',
      ),
    total_marks_min: z
      .number()
      .nullable()
      .describe(
        'The least total an attempt can have: the fixed marks plus, per pool, the sum of its draw’s smallest marks; equal to total_marks_max unless a pool mixes marks',
      ),
    total_marks_max: z.number().nullable().describe('The largest total an attempt can have (see total_marks_min)'),
    question_count: z
      .number()
      .int()
      .describe('The questions each attempt holds (the fixed ones and every pool’s draw)'),
    total_attempts: z
      .number()
      .int()
      .describe('Attempts started on the version: completed + pending_grading + in_progress'),
    completed: z
      .number()
      .int()
      .describe(
        'Attempts submitted, by the taker or automatically at the deadline, whose score is complete (every essay graded): every other figure is over these',
      ),
    pending_grading: z
      .number()
      .int()
      .describe(
        'Attempts submitted whose essays are not all graded yet: counted in the figures once their last grade is given',
      ),
    in_progress: z
      .number()
      .int()
      .describe(
        'Attempts started and not yet submitted (one past its deadline counts until it is closed: by the next read or write that meets it, or the 5-minute closer)',
      ),
    auto_submitted: z.number().int().describe('Of completed, submitted automatically at the deadline'),
    average_score: nullableNumber(
      'Σ score / completed over the completed attempts (score is never below 0); null when none',
    ),
    average_percentage: nullableNumber(
      'average_score / total_marks × 100; with pools, the mean of each attempt’s score over its own total × 100; null when none',
    ),
    highest_score: nullableNumber(
      'Highest score of a completed attempt (one pending grading is not final); null when none',
    ),
    lowest_score: nullableNumber(
      'Lowest score of a completed attempt (one pending grading is not final); null when none',
    ),
    standard_deviation: nullableNumber(
      'Sample standard deviation of the scores: √((Σs² − (Σs)²/n)/(n − 1)); null when n < 2',
    ),
    score_distribution: z
      .array(z.object({ from_percent: z.number(), to_percent: z.number(), count: z.number().int() }))
      .describe('Ten bands of score / total_marks × 100: [0,10), [10,20) … [90,100] (the last band includes 100)'),
    cronbach_alpha: nullableNumber(
      'Cronbach’s alpha over the k questions: k/(k − 1) · (1 − Σ V(x_i) / V(T)), T = the raw total (Σ of the marks per question, before the floor at 0), ' +
        'variances over (n − 1). Null when k < 2, n < 2 or V(T) = 0, and for a version with pools (attempts answer different questions).',
    ),
    difficulty_analysis: z
      .record(z.string(), DifficultyFigures)
      .describe('Keyed by the questions’ difficulty (easy, medium, hard)'),
    questions: z
      .array(QuestionAnalytics)
      .describe(
        'Per question, in the version’s order: the fixed questions, then the pool questions some complete attempt drew',
      ),
  })
  .meta({ id: 'TestAnalytics' });
export type TestAnalytics = z.infer<typeof TestAnalytics>;

export const RecomputeReply = z
  .object({
    test_id: z.string(),
    version: z.number().int(),
    attempts_read: z.number().int().describe('Attempts of the version the figures were recomputed from'),
    changed: z
      .boolean()
      .describe('Whether the maintained sums differed from the recomputed ones (beyond float rounding)'),
    analytics: TestAnalytics,
  })
  .meta({ id: 'AnalyticsRecompute' });

// ---- students

export const StudentAnalyticsParams = z.strictObject({ studentId: Uid });

export const StudentAnalyticsQuery = pagedQuery({
  client_id: ClientId.optional().describe(
    'A Super Admin names the student’s organization when the student’s account has none (a Guest)',
  ),
});

export const StudentAttemptRow = z
  .object({
    attempt_id: z.string(),
    test_id: z.string(),
    test_name: z.string(),
    version: z.number().int(),
    score: z.number().describe('The score, or while grading is pending the marks awarded so far'),
    total_marks: z.number(),
    percentage: z
      .number()
      .nullable()
      .describe('score / total_marks × 100; null while grading is pending (the score is not final)'),
    submitted_at: z.string(),
    auto_submitted: z.boolean(),
    grading: z
      .enum(['pending', 'complete'])
      .nullable()
      .describe(
        'null without essays; "pending" while an answered essay waits for its grade (not counted in the figures), then "complete"',
      ),
    pending_marks: z.number().describe('The marks of the essays still to be graded (0 unless pending)'),
  })
  .meta({ id: 'StudentAttemptRow' });

export const StudentAnalytics = z
  .object({
    student_id: z.string(),
    client_id: z.string(),
    total_attempts: z
      .number()
      .int()
      .describe('Attempts the student started: in progress, pending_grading and completed'),
    completed: z
      .number()
      .int()
      .describe(
        'Attempts submitted whose score is final (every answered essay graded): the averages and the best are over these',
      ),
    pending_grading: z
      .number()
      .int()
      .describe(
        'Attempts submitted whose essays are not all graded yet: in no average or best until their last grade, then counted once in completed',
      ),
    average_score: nullableNumber('Mean score over the completed attempts; null when none'),
    average_percentage: nullableNumber('Mean of score / total_marks × 100 over the completed attempts; null when none'),
    best_percentage: nullableNumber('Highest score / total_marks × 100 of a completed attempt; null when none'),
    data: z
      .array(StudentAttemptRow)
      .describe('One row per submitted attempt (pending ones too, marked by grading), newest submission first'),
    pagination: Pagination,
  })
  .meta({ id: 'StudentAnalytics' });
export type StudentAnalytics = z.infer<typeof StudentAnalytics>;

// ---- results export

/** @alias The export takes the same query as the report it exports. */
export const ResultsCsvQuery = AnalyticsQuery;
