import { defineRoute, type RouteDefinition } from '../http';
import { splitPageQuery } from '../shared';
import {
  BankChanges,
  CreateShareCodeBody,
  CreateTestBody,
  EditNewVersionBody,
  ListShareCodesQuery,
  ListTestsQuery,
  ReplaceTestBody,
  ShareCode,
  ShareCodePage,
  ShareCodeParams,
  Test,
  TestPageReply,
  TestParams,
  TestReply,
  TestVersionParams,
} from './schemas';
import { PatchTestBody } from '../sittingRules';
import * as service from './service';

const AUTHORS = ['super_admin', 'client_admin'] as const;
const READERS = ['super_admin', 'client_admin', 'student'] as const;

const moveRoute = (move: 'archive' | 'restore', summary: string, description: string) =>
  defineRoute({
    method: 'post',
    path: `/tests/{testId}/${move}`,
    summary,
    description,
    tag: 'Tests',
    access: AUTHORS,
    params: TestParams,
    success: { status: 200, description: 'The test after the move', schema: Test },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params }) => ({
      status: 200,
      body: await service.moveTest(principal, params.testId, move),
    }),
  });

const testRoutesList = [
  defineRoute({
    method: 'get',
    path: '/tests',
    summary: 'List tests',
    description:
      'Newest first. client_id is required for a Super Admin (404 when no such client); a Client Admin or Student may omit it, and naming another organization is 403. ' +
      'Students see published tests only, without question_ids; a Student asking for status draft or archived gets 403. ' +
      'A folder_id of another organization is 403.',
    tag: 'Tests',
    access: READERS,
    query: ListTestsQuery,
    success: { status: 200, description: 'A page of tests (StudentTestPage for a Student)', schema: TestPageReply },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, query }) => {
      const { page, filters } = splitPageQuery(query);
      return { status: 200, body: await service.listTests(principal, filters, page) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/tests',
    summary: 'Create a test (a draft)',
    description:
      'A test is created as a draft; only status "draft" is accepted. question_ids are questions of the same organization, in order, without repeats; ' +
      'folder_id a folder of the same organization. Another organization’s question or folder is 403; one that does not exist is 400 naming it. ' +
      'A Super Admin names client_id.',
    tag: 'Tests',
    access: AUTHORS,
    body: CreateTestBody,
    success: { status: 201, description: 'The new draft', schema: Test },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, body }) => ({ status: 201, body: await service.createTest(principal, body) }),
  }),
  defineRoute({
    method: 'get',
    path: '/tests/{testId}',
    summary: 'Read a test',
    description:
      'Authors get the whole test; a Student gets a published test’s public fields (no question_ids, never answer keys), and 404 for a draft or archived test.',
    tag: 'Tests',
    access: READERS,
    params: TestParams,
    success: { status: 200, description: 'The test (StudentTest for a Student)', schema: TestReply },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params }) => ({ status: 200, body: await service.readTest(principal, params.testId) }),
  }),
  defineRoute({
    method: 'put',
    path: '/tests/{testId}',
    summary: 'Replace a draft’s fields',
    description:
      'Replaces the content fields (absent optional ones return to their defaults) and keeps every delivery setting not sent ' +
      '(opens_at, closes_at, access_code, attempt_cooldown_minutes, review_opens_at, on_site_only, assigned_class_ids, the SEB keys: null or [] clears one); ' +
      'a window that closes before it opens, as it would stand, is 400 naming the field sent. Status, version and times are kept. ' +
      'Only a draft is edited: a published or archived test answers 409. A published test is edited as a new version (POST /tests/{testId}/new-version) ' +
      'while its live version stays live; an archived one is restored to a draft. Attempts keep the version they started on.',
    tag: 'Tests',
    access: AUTHORS,
    params: TestParams,
    body: ReplaceTestBody,
    success: { status: 200, description: 'The test as replaced', schema: Test },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body, call }) => ({
      status: 200,
      body: await service.replaceTest(principal, params.testId, body, call),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/tests/{testId}',
    summary: 'Change a test’s delivery settings',
    description:
      'opens_at, closes_at, access_code, attempt_cooldown_minutes, review_opens_at, on_site_only: on a draft or a published test, at any time; absent fields are left as they are. ' +
      'They are not frozen into versions: attempts in progress follow them, but for on_site_only, which an attempt keeps from its start until it is resumed (started again). Moving closes_at recomputes expires_at of the test’s attempts in progress ' +
      '(the earlier of started_at + effective timer and the effective closes_at, plus extensions), before the reply; one whose new deadline has already passed is closed ' +
      'now with every answer saved so far (submitted_by "deadline"). A window that closes before it opens, as it would stand, is 400 naming the field. ' +
      'Audited as test_settings_changed (the access code only as set or cleared). Should carrying the change to the attempts be cut short by an outage, the answer is 503; ' +
      'the change stands and the scheduled closer finishes carrying it within minutes. Content (questions, timer, marking) is changed with PUT on a draft. ' +
      'Sensitive: counts against the strict per-user limit (each change may sweep every attempt in progress of the test).',
    tag: 'Tests',
    access: AUTHORS,
    sensitive: true,
    params: TestParams,
    body: PatchTestBody,
    success: { status: 200, description: 'The test with its new settings', schema: Test },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, body, call }) => ({
      status: 200,
      body: await service.patchTest(principal, params.testId, body, call),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/tests/{testId}',
    summary: 'Delete a test',
    description:
      'A test with attempts cannot be deleted (409; archive it instead). Its frozen versions and share codes go with it.',
    tag: 'Tests',
    access: AUTHORS,
    params: TestParams,
    success: { status: 204, description: 'Deleted' },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params }) => {
      await service.deleteTest(principal, params.testId);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/tests/{testId}/publish',
    summary: 'Publish a draft',
    description:
      'draft → published. Needs at least one question, every question still existing in the organization, and a timer (else 400 naming what is missing); ' +
      'from another state 409. Freezes the next version of the test with its questions: attempts use it whatever is edited later.',
    tag: 'Tests',
    access: AUTHORS,
    params: TestParams,
    success: { status: 200, description: 'The published test, with its new version number', schema: Test },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params }) => ({
      status: 200,
      body: await service.publishTest(principal, params.testId),
    }),
  }),
  moveRoute(
    'archive',
    'Archive a test',
    'draft or published → archived; from archived 409. An archived test takes no new attempts, and no resumes (409). Its attempts in progress are stopped: ' +
      'they take no more answers (409 naming the archive) but can still be read and submitted, which scores the answers saved so far (or the deadline closes them). ' +
      'Restoring the test does not reopen them. Should stopping them fail part way the answer is 503, and archiving again (409) finishes it.',
  ),
  moveRoute(
    'restore',
    'Restore an archived test to a draft',
    'archived → draft, to be edited and published as the next version; from another state 409. A new version left pending at the archive becomes the draft’s content.',
  ),
];

const NEW_VERSION = '/tests/{testId}/new-version';

const newVersionRoutes = [
  defineRoute({
    method: 'post',
    path: NEW_VERSION,
    summary: 'Edit a published test as a new version',
    description:
      'Opens the next version of a published test as a copy of its live content (pending_edit in the reply). The live version stays live: ' +
      'students keep starting it and reading its fields until the new one is published. 409 on a draft (edited in place with PUT), an archived test, ' +
      'or one whose new version is already open.',
    tag: 'Tests',
    access: AUTHORS,
    params: TestParams,
    success: { status: 201, description: 'The test, with its pending_edit', schema: Test },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params }) => ({
      status: 201,
      body: await service.openNewVersion(principal, params.testId),
    }),
  }),
  defineRoute({
    method: 'put',
    path: NEW_VERSION,
    summary: 'Replace the new version’s content',
    description:
      'Replaces the pending edit’s content fields, as PUT does a draft’s (absent optional ones return to their defaults). Delivery settings are not part of it: ' +
      'PATCH changes them on the live test at once. The live fields are untouched. 409 when no new version is open, or the test was archived meanwhile.',
    tag: 'Tests',
    access: AUTHORS,
    params: TestParams,
    body: EditNewVersionBody,
    success: { status: 200, description: 'The test, with its pending_edit as replaced', schema: Test },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body }) => ({
      status: 200,
      body: await service.editNewVersion(principal, params.testId, body),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: NEW_VERSION,
    summary: 'Discard the new version',
    description:
      'Drops the pending edit; the live version is untouched. 409 when none is open (published or discarded meanwhile). Audited as test_new_version_discarded.',
    tag: 'Tests',
    access: AUTHORS,
    params: TestParams,
    success: { status: 204, description: 'Discarded' },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, call }) => {
      await service.discardNewVersion(principal, params.testId, call);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: `${NEW_VERSION}/publish`,
    summary: 'Publish the new version',
    description:
      'Freezes the pending edit as version n+1 (with the bank’s questions as they are now) and makes it live, in one transaction: the test’s fields become it, ' +
      'status stays published, new starts take it, attempts in progress keep their version. Needs what a publish needs (else 400 naming it). ' +
      '409 when no new version is open or the test is not published; of two publishes at once one wins and the other gets 409. Audited as test_version_published.',
    tag: 'Tests',
    access: AUTHORS,
    params: TestParams,
    success: { status: 200, description: 'The test with its new live version', schema: Test },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, call }) => ({
      status: 200,
      body: await service.publishNewVersion(principal, params.testId, call),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/tests/{testId}/versions/{version}/bank-changes',
    summary: 'Bank questions changed since a version froze them',
    description:
      'The version’s fixed questions whose bank copy now differs from the frozen one (with the fields that differ), or was deleted. ' +
      'Students keep getting the frozen copy; publishing a new version freezes the bank’s. Pool questions are not compared. ' +
      'Costs one read of the version and one of each of its fixed questions.',
    tag: 'Tests',
    access: AUTHORS,
    params: TestVersionParams,
    success: { status: 200, description: 'The changed questions', schema: BankChanges },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params }) => ({
      status: 200,
      body: await service.versionBankChanges(principal, params.testId, params.version),
    }),
  }),
];

const shareCodeRoutes = [
  defineRoute({
    method: 'post',
    path: '/tests/{testId}/share-codes',
    summary: 'Issue a share code',
    description:
      'For a published test (else 409). The code is 13 characters of Crockford base32 (0-9, A-Z without I, L, O, U: 65 random bits). ' +
      'expires_at: in the future and at most a year ahead, absent = never; max_uses: 1 to 100000, absent = unlimited.',
    tag: 'Share codes',
    access: AUTHORS,
    sensitive: true,
    params: TestParams,
    body: CreateShareCodeBody,
    success: { status: 201, description: 'The new code', schema: ShareCode },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body }) => ({
      status: 201,
      body: await service.createShareCode(principal, params.testId, body),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/tests/{testId}/share-codes',
    summary: 'List a test’s share codes',
    description: 'Newest first, revoked ones included (revoked: true).',
    tag: 'Share codes',
    access: AUTHORS,
    params: TestParams,
    query: ListShareCodesQuery,
    success: { status: 200, description: 'A page of share codes', schema: ShareCodePage },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, query }) => {
      const { page } = splitPageQuery(query);
      return { status: 200, body: await service.listShareCodes(principal, params.testId, page) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/tests/{testId}/share-codes/{code}',
    summary: 'Revoke a share code',
    description:
      'The code is accepted in lower case and with hyphens. Revoking is final; revoking again is 204. A code of another test is 404. ' +
      'The attempts in progress started with the code are stopped: they take no more answers (409 naming the revocation) but can still be read and submitted, ' +
      'which scores the answers saved so far (or the deadline closes them); a Guest cannot resume with the code (403). ' +
      'Should stopping them fail part way the answer is 503, and revoking again (204) finishes it.',
    tag: 'Share codes',
    access: AUTHORS,
    sensitive: true,
    params: ShareCodeParams,
    success: { status: 204, description: 'Revoked' },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params }) => {
      await service.revokeShareCode(principal, params.testId, params.code);
      return { status: 204 };
    },
  }),
];

export const testRoutes: RouteDefinition[] = [...testRoutesList, ...newVersionRoutes, ...shareCodeRoutes];
