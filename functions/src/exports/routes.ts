import { z } from 'zod';
import { QUESTION_BANK_ROLES } from '../auth';
import { defineRoute, type RouteDefinition } from '../http';
import { TestParams } from '../exams';
import { ExportQuestionsQuery, ExportTestQuery, MAX_EXPORT_QUESTIONS } from './schemas';

const FORMATS =
  'format=moodle_xml answers application/xml (Moodle XML: a category question per folder, media embedded as base64 files, ' +
  'credits rounded to Moodle’s grades with a comment saying so), format=gift text/plain (GIFT: $CATEGORY lines; what GIFT cannot ' +
  'say, difficulty and marks among them, as [tag:…] comments; media stay links to /api/media/…), format=qti application/zip ' +
  '(a QTI 3.0 content package: imsmanifest.xml, one qti-assessment-item per question, media beside them, an assessment test whose ' +
  'sections carry the folders). Content-Disposition: attachment with a file name. Streamed: an error once the file has started cuts it short.';

export const exportRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'get',
    path: '/questions/export',
    summary: 'Export questions (Moodle XML, GIFT or a QTI 3.0 package)',
    description:
      `The questions GET /api/questions would list with the same filters (client_id for a Super Admin, folder_id, difficulty, question_type), ` +
      `newest first, at most ${MAX_EXPORT_QUESTIONS}: more answers 400 asking for narrower filters. ${FORMATS} ` +
      'Administrators only (Students and Guests 403); it reads every selected question, so it counts against the strict per-user limit.',
    tag: 'Questions',
    access: QUESTION_BANK_ROLES,
    sensitive: true,
    query: ExportQuestionsQuery,
    success: {
      status: 200,
      description: 'The file',
      schema: z.string(),
      mediaType: ['application/xml', 'text/plain', 'application/zip'],
    },
    errors: ['NOT_FOUND'],
    // The writers (XML, zip) load on their first use, not in every cold instance.
    handler: async ({ principal, query }) => {
      const { exportQuestions } = await import('./service');
      return { status: 200, stream: await exportQuestions(principal, query) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/tests/{testId}/export',
    summary: 'Export a test’s questions (Moodle XML, GIFT or a QTI 3.0 package)',
    description:
      'The test’s current questions from the bank: its own in order, then each pool’s (its folder’s questions of its difficulty, less ' +
      'those already fixed or in an earlier pool). Pools become qti-selection sections in QTI, Moodle random questions in their ' +
      `category in Moodle XML (a pool of one difficulty gets a subcategory named after it), and a comment in GIFT. ${FORMATS} ` +
      'Super Admin any test, Client Admin its organization’s (another’s → 403); Students and Guests 403.',
    tag: 'Tests',
    access: QUESTION_BANK_ROLES,
    sensitive: true,
    params: TestParams,
    query: ExportTestQuery,
    success: {
      status: 200,
      description: 'The file',
      schema: z.string(),
      mediaType: ['application/xml', 'text/plain', 'application/zip'],
    },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, query }) => {
      const { exportTest } = await import('./service');
      return { status: 200, stream: await exportTest(principal, params.testId, query.format) };
    },
  }),
];
