import { defineRoute, type RouteDefinition } from '../http';
import { splitPageQuery } from '../shared';
import { AttemptParams } from '../attempts';
import { TestParams } from '../exams';
import { Me } from '../users';
import { MAX_CLASSES_PER_TEST } from '../classes';
import {
  Accommodation,
  AccommodationParams,
  ClassOverride,
  ClassOverrideList,
  ClassOverrideParams,
  ExtendBody,
  ExtendedAttempt,
  ExtendedTest,
  ExtendTestBody,
  ListOverridesQuery,
  MAX_ACCOMMODATIONS_PER_CLIENT,
  MAX_EXTENSIONS_PER_ATTEMPT,
  MAX_NOT_STARTED_LIMIT,
  MAX_OVERRIDES_PER_TEST,
  NotStartedPage,
  NotStartedQuery,
  Override,
  OverrideParams,
  OverridePage,
  PutAccommodationBody,
  PutOverrideBody,
} from './schemas';
import * as service from './service';

const ADMINS = ['super_admin', 'client_admin'] as const;
const DEADLINE_NOTE =
  ' expires_at of the attempts in progress it concerns is recomputed before the reply, from their started_at: the earlier of started_at + the effective timer ' +
  '(the override’s or the version’s, with the accommodation added: ceil(timer × 60 × (1 + extra_time_percent / 100)) s + extra_minutes × 60 s) and the effective closes_at, ' +
  'plus extensions. One whose new deadline has already passed is closed at once with every answer saved so far (submitted_by "deadline").';

/**
 * Who am I, with a student's standing accommodation: a Users endpoint kept
 * here, beside the accommodation it reads, so that users/ does not import
 * sittings/ (which reads users). app.ts lists it just before userRoutes.
 */
export const meRoute = defineRoute({
  method: 'get',
  path: '/me',
  summary: 'Who am I',
  description:
    'Open to any signed-in user, including one with no role yet and anonymous guests. A student also sees its standing accommodation (null when none): ' +
    'the extra time it gets on every test of its organization.',
  tag: 'Users',
  access: 'signed_in',
  success: { status: 200, description: 'The caller as the service sees it', schema: Me },
  handler: async ({ principal }) => ({
    status: 200,
    body: {
      uid: principal.uid,
      email: principal.email,
      role: principal.role,
      client_id: principal.clientId,
      guest: principal.guest,
      accommodation: await service.ownAccommodation(principal),
    },
  }),
});

export const sittingRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'put',
    path: '/tests/{testId}/overrides/{studentId}',
    summary: 'Set a student’s override on a test',
    description:
      'Replaces the test’s opens_at, closes_at, timer (the accommodation is still added) or max_attempts for one student; a field absent is the test’s own again, null lifts the limit. ' +
      `studentId must be a student of the test’s organization (else 400 naming params.studentId). A test holds at most ${MAX_OVERRIDES_PER_TEST} overrides (409 beyond). ` +
      'Audited as override_set.' +
      DEADLINE_NOTE,
    tag: 'Sittings',
    access: ADMINS,
    params: OverrideParams,
    body: PutOverrideBody,
    success: { status: 200, description: 'The override as stored', schema: Override },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body, call }) => ({
      status: 200,
      body: await service.putOverride(principal, params.testId, params.studentId, body, call),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/tests/{testId}/overrides',
    summary: 'List a test’s overrides',
    description: 'By student id.',
    tag: 'Sittings',
    access: ADMINS,
    params: TestParams,
    query: ListOverridesQuery,
    success: { status: 200, description: 'A page of overrides', schema: OverridePage },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, query }) => {
      const { page } = splitPageQuery(query);
      return { status: 200, body: await service.listOverrides(principal, params.testId, page) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/tests/{testId}/overrides/{studentId}',
    summary: 'Delete a student’s override',
    description:
      'The student takes the test’s own settings again (404 when it had no override). Audited as override_deleted.' +
      DEADLINE_NOTE,
    tag: 'Sittings',
    access: ADMINS,
    params: OverrideParams,
    success: { status: 204, description: 'Deleted' },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, call }) => {
      await service.deleteOverride(principal, params.testId, params.studentId, call);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/tests/{testId}/class-overrides/{classId}',
    summary: 'Set a class’s override on a test',
    description:
      'The same body as a student’s override, for every student of the class (classId: a class of the test’s organization; another organization’s → 403, none → 404). ' +
      'Per field, a student’s own override wins; else the most generous of its classes’ overrides that set the field (earliest opens_at, latest closes_at, longest timer, ' +
      'most attempts; null, no limit, is the most generous); else the test’s own. An attempt keeps the classes its student was in at its start (class_ids), so a later move ' +
      `between classes changes nothing of it. Kept on the test and never shown to students. A test holds at most ${MAX_CLASSES_PER_TEST} class overrides (409 beyond). ` +
      'Audited as class_override_set.' +
      DEADLINE_NOTE,
    tag: 'Sittings',
    access: ADMINS,
    params: ClassOverrideParams,
    body: PutOverrideBody,
    success: { status: 200, description: 'The class override as stored', schema: ClassOverride },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body, call }) => ({
      status: 200,
      body: await service.putClassOverride(principal, params.testId, params.classId, body, call),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/tests/{testId}/class-overrides',
    summary: 'List a test’s class overrides',
    description: `All of them (at most ${MAX_CLASSES_PER_TEST}), by class id.`,
    tag: 'Sittings',
    access: ADMINS,
    params: TestParams,
    success: { status: 200, description: 'The class overrides', schema: ClassOverrideList },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params }) => ({
      status: 200,
      body: await service.listClassOverrides(principal, params.testId),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/tests/{testId}/class-overrides/{classId}',
    summary: 'Delete a class’s override',
    description:
      'The class’s students take their own overrides, their other classes’ or the test’s settings again (404 when the class had no override). ' +
      'Audited as class_override_deleted.' +
      DEADLINE_NOTE,
    tag: 'Sittings',
    access: ADMINS,
    params: ClassOverrideParams,
    success: { status: 204, description: 'Deleted' },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, call }) => {
      await service.deleteClassOverride(principal, params.testId, params.classId, call);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/tests/{testId}/not-started',
    summary: 'List who has not started a test',
    description:
      'The live view’s other half: the students of the test’s audience who have not started it (no attempt ever, in progress or submitted: the test has no attempt slot for them). ' +
      'The audience is the members of the classes the test is assigned to (a student in two of them once), or every student of the organization when it is assigned to none; Guests never. ' +
      'With class_id (the live view’s class filter), only those of them in that class. By uid, paged by cursor: each page reads the next `limit` students of the audience ' +
      `(1 to ${MAX_NOT_STARTED_LIMIT}, default 50) and lists those who have not started, so a page may hold fewer than limit, even none, and still carry a next_cursor. ` +
      'Administrators of the test’s organization (Super Admin any), as for the live view’s attempts; another organization’s test → 403, none → 404.',
    tag: 'Sittings',
    access: ADMINS,
    params: TestParams,
    query: NotStartedQuery,
    success: { status: 200, description: 'A page of the students who have not started', schema: NotStartedPage },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, query }) => ({
      status: 200,
      body: await service.listNotStarted(principal, params.testId, query),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/users/{uid}/accommodations',
    summary: 'Read a student’s accommodation',
    description:
      'A student’s standing extra time on every test of its organization (0 and 0 when none). Client Admin of its organization or Super Admin; ' +
      'a student sees its own in GET /api/me. A user who is not a student → 400 naming params.uid.',
    tag: 'Sittings',
    access: ADMINS,
    params: AccommodationParams,
    success: { status: 200, description: 'The accommodation', schema: Accommodation },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params }) => ({
      status: 200,
      body: await service.readAccommodation(principal, params.uid),
    }),
  }),
  defineRoute({
    method: 'put',
    path: '/users/{uid}/accommodations',
    summary: 'Set a student’s accommodation',
    description:
      'extra_time_percent (0 to 400) and extra_minutes (0 to 1440), both sent; 0 and 0 removes it. Set once, it applies to every test of the organization, ' +
      `the student’s overrides included. An organization holds at most ${MAX_ACCOMMODATIONS_PER_CLIENT} accommodations (409 beyond). Audited as accommodation_set.` +
      DEADLINE_NOTE,
    tag: 'Sittings',
    access: ADMINS,
    params: AccommodationParams,
    body: PutAccommodationBody,
    success: { status: 200, description: 'The accommodation as stored', schema: Accommodation },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body, call }) => ({
      status: 200,
      body: await service.putAccommodation(principal, params.uid, body, call),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/attempts/{attemptId}/extend',
    summary: 'Give one attempt in progress extra time',
    description:
      'minutes (1 to 1440) are added to its deadline, after the closing time (a proctor’s extension outlasts closes_at). ' +
      `An attempt already submitted, or past its deadline and grace (which closes it now, with the answers saved in time), → 409. At most ${MAX_EXTENSIONS_PER_ATTEMPT} extensions per attempt. ` +
      'Administrators of the attempt’s organization only. Audited as attempt_extended.',
    tag: 'Sittings',
    access: ADMINS,
    params: AttemptParams,
    body: ExtendBody,
    success: { status: 200, description: 'The new deadline', schema: ExtendedAttempt },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body, call }) => ({
      status: 200,
      body: await service.extendAttempt(principal, params.attemptId, body.minutes, call),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/tests/{testId}/extend',
    summary: 'Give every attempt in progress of a test extra time',
    description:
      'What a proctor presses when the fire alarm goes off: every attempt in progress of the test, started before the press, gets the minutes once ' +
      '(kept by the extension’s id on each attempt, so a sweep resumed after a crash never gives them twice); saves and submits landing at the same moment are kept. ' +
      'Answers when all are extended. Audited as test_extended, and attempt_extended per attempt. Should an outage cut it short, the answer is 503 saying the extension is ' +
      'recorded: the scheduled closer finishes it, and pressing again would extend again. Sensitive: counts against the strict per-user limit. ' +
      'With class_id, only the attempts that started in that class (the live view’s class filter); a class not of the test’s organization → 404, one the test is not assigned to is fine. ' +
      'Audited with the class_id.',
    tag: 'Sittings',
    access: ADMINS,
    sensitive: true,
    params: TestParams,
    body: ExtendTestBody,
    success: { status: 200, description: 'How many attempts received the time', schema: ExtendedTest },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, body, call }) => ({
      status: 200,
      body: await service.extendTest(principal, params.testId, body.minutes, call, body.class_id),
    }),
  }),
];
