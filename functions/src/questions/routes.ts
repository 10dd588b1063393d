import { QUESTION_BANK_ROLES } from '../auth';
import { defineRoute, type RouteDefinition } from '../http';
import { splitPageQuery } from '../shared';
import { REQUIRED_COLUMNS, OPTIONAL_COLUMNS } from './csvRows';
import { ImportQuery, ImportResult, MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from './importSchemas';
import {
  AdminQuestion,
  ListQuestionsQuery,
  QuestionInput,
  QuestionPage,
  QuestionParams,
  UpdateQuestionBody,
} from './schemas';
import * as service from './service';

const WHO =
  'The question bank is for administrators: Students and Guests get 403 on every question endpoint (they see questions only inside ' +
  'attempts, without answer keys). Replies carry the answer key (correct_answer, tolerance; an essay has none: correct_answer null, and its optional max_words). A question of another organization answers 403, an unknown one 404.';
const FOLDER =
  'folder_id must name a folder of the question’s organization: another organization’s folder answers 403 (400 for a Super Admin), an unknown one 404.';

export const questionRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'get',
    path: '/questions',
    summary: 'List questions',
    description:
      `Newest first. A Super Admin names client_id (400 without it); a Client Admin may omit it, and naming another organization answers 403. ` +
      `Filters: folder_id (a folder of the organization: 403/404 as for bodies), difficulty, question_type. ${WHO}`,
    tag: 'Questions',
    access: QUESTION_BANK_ROLES,
    query: ListQuestionsQuery,
    success: { status: 200, description: 'A page of questions, newest first', schema: QuestionPage },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, query }) => {
      const { page, filters } = splitPageQuery(query);
      return { status: 200, body: await service.listQuestions(principal, filters, page) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/questions',
    summary: 'Create a question',
    description:
      'question_type decides the shape: multiple_choice (2–10 distinct options, correct_answer one of them), multiple_select ' +
      '(correct_answer: the correct options joined by "|"), true_false (options True, False; may be omitted), short_answer (no options; ' +
      'answers compared trimmed, case- and space-insensitively), numeric (no options; correct_answer a number as text, optional tolerance). ' +
      `A Super Admin names client_id. ${FOLDER} ${WHO}`,
    tag: 'Questions',
    access: QUESTION_BANK_ROLES,
    body: QuestionInput,
    success: { status: 201, description: 'The new question', schema: AdminQuestion },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, body }) => ({ status: 201, body: await service.createQuestion(principal, body) }),
  }),
  defineRoute({
    method: 'post',
    path: '/questions/import',
    summary: 'Import questions from a CSV, GIFT, Aiken, Moodle XML or QTI file',
    description:
      'The format is ?format= (csv, gift, aiken, moodle_xml, qti) or else the file’s name and content: .csv; .gift; .txt (GIFT or Aiken by ' +
      'content); .xml (Moodle XML or a QTI 2.1/3.0 item by its root element); .zip (a QTI content package with imsmanifest.xml). Every format is ' +
      'UTF-8 (a BOM and CRLF are fine); another encoding, a DOCTYPE or entity declaration, QTI 1.2, a zip over 50 MB unpacked or 1,000 entries or ' +
      'with a path leaving the package are refused whole (400). The reply lists every question found in `questions` (index, line or path, title, ' +
      'question_type, status ok | error | unsupported, message, warnings), in file order; the 400 of an all-or-nothing refusal lists every one ' +
      'too, the ok ones beside those that cannot be imported, as a dry run with ?mode=partial would. An unsupported type ' +
      '(matching, cloze, calculated, drag and drop, hotspot, description…) is never imported as something else, and what was carried ' +
      'imperfectly is a warning. Categories (GIFT $CATEGORY, Moodle XML category questions, QTI sections) become folders named by their path ' +
      'joined with " / ", found by name or created with the import; ?folder_id= files every question in one folder instead. Media the file ' +
      'carries (Moodle XML base64 files, a package’s files: png, jpeg, gif, webp, mp3, ogg, wav, mp4, webm checked by content; at most 2 MB each (a video 20 MB) and 20 MB ' +
      'per import) are stored with the questions and served by GET /api/media/{mediaId}. ' +
      `CSV: multipart/form-data with exactly one file part named "file": UTF-8 CSV (a BOM, CRLF line ends, quoted fields with commas, quotes and ` +
      `line breaks, blank lines and blank spreadsheet rows are fine), at most 5 MB (413 PAYLOAD_TOO_LARGE) and ${MAX_IMPORT_ROWS} rows (400). ` +
      `Header row: ${REQUIRED_COLUMNS.join(', ')}, optionally ${OPTIONAL_COLUMNS.join(', ')}, in any order; options, option_feedback and option_credits separated by "|"; ` +
      `alternatives as "answer:credit" entries (numeric: "answer:credit" or "answer:credit:tolerance") separated by "|"; case_sensitive true or false. ` +
      'Each row is checked exactly as POST /api/questions checks a body. All or nothing by default: any invalid row answers 400 ' +
      'VALIDATION_ERROR whose details list every problem (row = the file line, field, message, path "row <line>.<field>") and nothing is written. ' +
      '?mode=partial writes the valid rows and reports the others; ?dry_run=true checks everything and writes nothing. ' +
      'The import becomes visible whole: a failure (or a crash) before its commit point leaves nothing, one after it is finished by the next import. ' +
      'A file is identified by its SHA-256 per organization: sending a file that was already imported answers 409 CONFLICT naming the earlier import ' +
      '(change the file to import its questions again), as does a second upload while the first is still running. ' +
      `A Super Admin names client_id in the query. ${WHO}`,
    tag: 'Questions',
    access: QUESTION_BANK_ROLES,
    sensitive: true,
    query: ImportQuery,
    upload: {
      field: 'file',
      description: 'The file (UTF-8 CSV, GIFT, Aiken, Moodle XML, a QTI item or a QTI zip package; at most 5 MB)',
    },
    success: { status: 201, description: 'What was imported (for a dry run, what would be)', schema: ImportResult },
    errors: ['NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE'],
    // A route that declares `upload` is always handed one. The import (CSV parser, multipart reader) loads on
    // its first use: a cold instance that serves an exam never pays for it. The organization is checked
    // before the upload is read; the service is handed the file.
    handler: async ({ principal, query, upload }) => {
      const { importScope, importQuestions } = await import('./importService');
      const { receiveFile } = await import('../transfer').then((door) => door.loadUpload());
      const clientId = await importScope(principal, query.client_id);
      const file = await receiveFile(upload!, MAX_IMPORT_BYTES);
      return { status: 201, body: await importQuestions(principal, clientId, query, file) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/questions/{questionId}',
    summary: 'Read a question',
    description: WHO,
    tag: 'Questions',
    access: QUESTION_BANK_ROLES,
    params: QuestionParams,
    success: { status: 200, description: 'The question with its answer key', schema: AdminQuestion },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params }) => ({
      status: 200,
      body: await service.readQuestion(principal, params.questionId),
    }),
  }),
  defineRoute({
    method: 'put',
    path: '/questions/{questionId}',
    summary: 'Replace a question',
    description:
      'The body is a whole question, checked as for POST; folder_id and tolerance left out are cleared. A question cannot move to another ' +
      `organization (client_id, if sent, must be its own). Published tests keep the version they froze. ${FOLDER} ${WHO}`,
    tag: 'Questions',
    access: QUESTION_BANK_ROLES,
    params: QuestionParams,
    body: QuestionInput,
    success: { status: 200, description: 'The question as replaced', schema: AdminQuestion },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body }) => ({
      status: 200,
      body: await service.replaceQuestion(principal, params.questionId, body),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/questions/{questionId}',
    summary: 'Change a question',
    description:
      'Only the fields sent change; the result must be a valid question of its (possibly new) type, checked as for POST. Changing question_type ' +
      'to one without options drops the old options and tolerance unless sent. Send folder_id or tolerance null to clear them. ' +
      `Published tests keep the version they froze. ${FOLDER} ${WHO}`,
    tag: 'Questions',
    access: QUESTION_BANK_ROLES,
    params: QuestionParams,
    body: UpdateQuestionBody,
    success: { status: 200, description: 'The question as changed', schema: AdminQuestion },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body }) => ({
      status: 200,
      body: await service.updateQuestion(principal, params.questionId, body),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/questions/{questionId}',
    summary: 'Delete a question',
    description:
      'Published tests keep the version they froze; a draft test that still names the question cannot be published until it is removed from it. ' +
      'A description that other questions name as their passage is not deleted (409): they name another passage or none first. ' +
      WHO,
    tag: 'Questions',
    access: QUESTION_BANK_ROLES,
    params: QuestionParams,
    success: { status: 204, description: 'Deleted' },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params }) => {
      await service.deleteQuestion(principal, params.questionId);
      return { status: 204 };
    },
  }),
];
