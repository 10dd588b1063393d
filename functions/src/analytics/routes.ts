import { z } from 'zod';
import { defineRoute, type RouteDefinition } from '../http';
import { splitPageQuery } from '../shared';
import {
  AnalyticsQuery,
  RecomputeReply,
  ResultsCsvQuery,
  StudentAnalytics,
  StudentAnalyticsParams,
  StudentAnalyticsQuery,
  TestAnalytics,
  TestAnalyticsParams,
  VersionQuery,
} from './schemas';
import * as service from './service';
import { studentAnalytics } from './studentService';

const TEST_READERS = ['super_admin', 'client_admin'] as const;

export const analyticsRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'get',
    path: '/analytics/tests/{testId}',
    summary: 'Analytics of a test (one frozen version)',
    description:
      'What a teacher reviewing the exam needs: attempts, scores and their spread, a ten-band distribution, Cronbach’s alpha, and per question how often it was answered, ' +
      'answered correctly and each option chosen, with Moodle’s facility and discrimination indices (formulas on each field). ' +
      'The figures describe one frozen version (default: the latest published; ?version= picks another), read from sums the submit maintains: the cost is the same whatever the number of attempts. ' +
      'A measure that is undefined (too few attempts, no spread) is null. Super Admin any test, Client Admin its organization’s (another’s → 403); Students and Guests → 403. ' +
      '?class_id= gives the same figures over the attempts of one class’s students (the classes each student was in when its attempt started), from the class’s own sums at the same cost; ' +
      'a class of another organization → 403, an unknown one → 404.',
    tag: 'Analytics',
    access: TEST_READERS,
    params: TestAnalyticsParams,
    query: AnalyticsQuery,
    success: { status: 200, description: 'The version’s analytics', schema: TestAnalytics },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, query }) => ({
      status: 200,
      body: await service.testAnalytics(principal, params.testId, query.version, query.class_id),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/analytics/tests/{testId}/recompute',
    summary: 'Recompute a test version’s analytics from its attempts (repair)',
    description:
      'Reads every attempt of the version and replaces the maintained sums (the version’s and each class’s) with the recomputed ones, in one transaction (starts and submits meanwhile are ordered before or after it, never lost). ' +
      'For repairs only: its cost grows with the attempts, so it counts against the strict per-user limit. Answers whether the maintained sums (the version’s or any class’s) had drifted, and the analytics as recomputed. ' +
      'It also writes percentage and test_name on submitted attempts that predate them, so a student’s averages and best count those too. ' +
      'One recompute of a version at a time: another asked while one runs → 409 CONFLICT (retry when it has finished); ' +
      'Firestore giving up on the transaction (contention, timeouts) → 503 with Retry-After. ' +
      'Super Admin any test, Client Admin its organization’s. No body; ?version= as for the analytics.',
    tag: 'Analytics',
    access: TEST_READERS,
    sensitive: true,
    params: TestAnalyticsParams,
    query: VersionQuery,
    success: { status: 200, description: 'The recomputed analytics', schema: RecomputeReply },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, query }) => ({
      status: 200,
      body: await service.recomputeTestAnalytics(principal, params.testId, query.version),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/analytics/tests/{testId}/results.csv',
    summary: 'Results of a test version as CSV',
    description:
      'A gradebook: UTF-8 with a byte order mark, records ended by CRLF. One row per submitted attempt, oldest submission first, streamed: attempt_id, student_id, student_name, ' +
      'student_email (empty for a Guest), classes (the student’s classes at its start, of the test’s audience, by name, "; "-joined), candidate_number (the school-issued one on the profile), ' +
      'score, total_marks (the attempt’s own), percentage, "Started (<zone>)" and "Submitted (<zone>)" (the organization’s time_zone, e.g. 2026-03-02 09:14:05; UTC until set), submitted_at (ISO 8601 UTC), auto_submitted, ' +
      'grading (pending while an essay waits for its grade: score is then the marks so far and percentage is empty; complete once graded; empty without essays), the integrity events counted, ' +
      'then one column per question the version’s attempts can hold (the fixed ones, then every frozen question of each pool, in the version’s order), headed "Q4 · <title or plain text>", with the marks awarded, ' +
      'so a row’s numbers add up to its score: "not drawn" when the attempt never drew it, "awaiting grading" for an essay not yet graded, empty when drawn and unanswered. ' +
      'Safe to open in a spreadsheet: a cell beginning with =, +, -, @, tab or carriage return is prefixed with a quote (csv-stringify’s formula escaping). ' +
      'Super Admin any test, Client Admin its organization’s; ?version= as for the analytics; ?class_id= keeps the attempts of one class’s students only (as for the analytics: another organization’s class → 403, none → 404). ' +
      'It reads every submitted attempt of the version (of the class), so it counts against the strict per-user limit.',
    tag: 'Analytics',
    access: TEST_READERS,
    sensitive: true,
    params: TestAnalyticsParams,
    query: ResultsCsvQuery,
    success: {
      status: 200,
      description: 'text/csv, UTF-8, header row first',
      schema: z.string(),
      mediaType: 'text/csv',
    },
    errors: ['NOT_FOUND'],
    // The export (its CSV writer) loads on its first use, not in every cold instance.
    handler: async ({ principal, params, query }) => {
      const { resultsCsv } = await import('./resultsExport');
      return { status: 200, stream: await resultsCsv(principal, params.testId, query.version, query.class_id) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/analytics/students/{studentId}',
    summary: 'Analytics of a student',
    description:
      'The student’s attempts (total, completed and pending_grading), average score and percentage and best percentage over the completed ones (an attempt whose essays await a grade is not final), ' +
      'and one row per submitted attempt, newest submission first, paginated. ' +
      'Super Admin any student (client_id names the organization when the account has none, e.g. a Guest’s), Client Admin its organization’s (another’s → 403), ' +
      'a Student only itself (another → 403); Guests → 403.',
    tag: 'Analytics',
    access: ['super_admin', 'client_admin', 'student'],
    params: StudentAnalyticsParams,
    query: StudentAnalyticsQuery,
    success: {
      status: 200,
      description: 'The student’s analytics and a page of its submitted attempts',
      schema: StudentAnalytics,
    },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, query }) => {
      const { page, filters } = splitPageQuery(query);
      return { status: 200, body: await studentAnalytics(principal, params.studentId, filters.client_id, page) };
    },
  }),
];
