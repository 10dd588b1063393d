import * as deadlines from './sweeps';
import { requestMeta } from '../audit';
import {
  assertCanFilterByClass,
  assertCanManageSitting,
  assertCanSetClassOverride,
  assertCanWatchSitting,
  type Principal,
} from '../auth';
import { classOrganization } from '../attempts';
import { requireTest, type StoredClassOverride } from '../exams';
import { errorText, isBackendFault, log } from '../platform';
import {
  ApiError,
  badRequest,
  type CallContext,
  conflict,
  decodeCursor,
  encodeCursor,
  notFound,
  type PageRequest,
  serviceUnavailable,
} from '../shared';
import { readUser } from '../users';
import type { StoredAccommodation, StoredOverride } from './documents';
import type {
  Accommodation,
  ClassOverride,
  NotStartedPage,
  Override,
  PutAccommodationInput,
  PutOverrideInput,
} from './schemas';
import { audienceQuerySpecs } from './audienceQuery';
import { audiencePage, inAudience, notStarted } from './notStarted';
import * as store from './store';
import { nameFields, namesOf } from '../people';
import { findClassOwner } from '../classes';

// A sitting's people and time: overrides per (test, student), standing
// accommodations per student, and extra time on running attempts. Every
// decision is the policy's (assertCanManageSitting); every change reaches the
// attempts in progress it concerns before the reply.

const iso = (text: string | null | undefined): string | null | undefined =>
  text ? new Date(text).toISOString() : text;

function overrideView(override: StoredOverride): Override {
  const { client_id: _client, ...fields } = override;
  return fields;
}

// ---------------------------------------------------------------- overrides

export async function putOverride(
  principal: Principal,
  testId: string,
  studentId: string,
  input: PutOverrideInput,
  call: CallContext,
): Promise<Override> {
  const test = await requireTest(principal, testId);
  assertCanManageSitting(principal, test.client_id);
  const { override } = await store.writeOverride({
    clientId: test.client_id,
    testId,
    studentId,
    values: {
      opens_at: iso(input.opens_at),
      closes_at: iso(input.closes_at),
      timer: input.timer,
      max_attempts: input.max_attempts,
    },
    by: principal.uid,
    meta: requestMeta(call),
  });
  return overrideView(override!);
}

export async function deleteOverride(
  principal: Principal,
  testId: string,
  studentId: string,
  call: CallContext,
): Promise<void> {
  const test = await requireTest(principal, testId);
  assertCanManageSitting(principal, test.client_id);
  await store.writeOverride({
    clientId: test.client_id,
    testId,
    studentId,
    values: null,
    by: principal.uid,
    meta: requestMeta(call),
  });
}

export async function listOverrides(principal: Principal, testId: string, page: PageRequest) {
  const test = await requireTest(principal, testId);
  assertCanManageSitting(principal, test.client_id);
  const { data, pagination } = await store.listOverrides(test.client_id, testId, page);
  const names = await namesOf(
    test.client_id,
    data.map((o) => o.student_id),
  );
  return { data: data.map((o) => ({ ...overrideView(o), ...nameFields('student', names, o.student_id) })), pagination };
}

// ---------------------------------------------------------------- class overrides

const classOverrideView = (testId: string, classId: string, stored: StoredClassOverride): ClassOverride => ({
  test_id: testId,
  class_id: classId,
  ...stored,
});

/**
 * A write naming a class that is not the test's organization's: another organization's
 * is 403 (policy), one that exists nowhere 404.
 */
async function withClassOf<T>(principal: Principal, clientId: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!(err instanceof store.UnknownClass)) throw err;
    const owner = await findClassOwner(err.classId);
    assertCanSetClassOverride(principal, { clientId }, owner === undefined ? undefined : { clientId: owner });
    throw notFound('Class not found');
  }
}

/** Carries a class override's change to the test's attempts in progress before the reply (as a moved closes_at is). */
async function runClassSweep(sweepId: string | undefined): Promise<void> {
  if (sweepId) await deadlines.runSweep(sweepId);
}

export async function putClassOverride(
  principal: Principal,
  testId: string,
  classId: string,
  input: PutOverrideInput,
  call: CallContext,
): Promise<ClassOverride> {
  const test = await requireTest(principal, testId);
  assertCanSetClassOverride(principal, { clientId: test.client_id }, undefined);
  const { override, sweepId } = await withClassOf(principal, test.client_id, () =>
    store.writeClassOverride({
      clientId: test.client_id,
      testId,
      classId,
      values: {
        opens_at: iso(input.opens_at),
        closes_at: iso(input.closes_at),
        timer: input.timer,
        max_attempts: input.max_attempts,
      },
      by: principal.uid,
      meta: requestMeta(call),
    }),
  );
  await runClassSweep(sweepId);
  return classOverrideView(testId, classId, override!);
}

export async function deleteClassOverride(
  principal: Principal,
  testId: string,
  classId: string,
  call: CallContext,
): Promise<void> {
  const test = await requireTest(principal, testId);
  assertCanSetClassOverride(principal, { clientId: test.client_id }, undefined);
  const { sweepId } = await withClassOf(principal, test.client_id, () =>
    store.writeClassOverride({
      clientId: test.client_id,
      testId,
      classId,
      values: null,
      by: principal.uid,
      meta: requestMeta(call),
    }),
  );
  await runClassSweep(sweepId);
}

export async function listClassOverrides(principal: Principal, testId: string): Promise<{ data: ClassOverride[] }> {
  const test = await requireTest(principal, testId);
  assertCanManageSitting(principal, test.client_id);
  const held = test.class_overrides ?? {};
  return {
    data: Object.keys(held)
      .sort()
      .map((classId) => classOverrideView(testId, classId, held[classId])),
  };
}

// ---------------------------------------------------------------- accommodations

/** The student an accommodation is for, in the organization its account says (another organization's: 403, by the policy). */
async function requireStudent(principal: Principal, uid: string): Promise<{ uid: string; clientId: string }> {
  const user = await readUser(principal, uid);
  if (user.role !== 'student' || user.client_id === null) {
    throw badRequest('Accommodations are for students', [
      { path: 'params.uid', message: 'Not a student of an organization' },
    ]);
  }
  assertCanManageSitting(principal, user.client_id);
  return { uid, clientId: user.client_id };
}

const accommodationView = (studentId: string, stored: StoredAccommodation | null | undefined): Accommodation => ({
  student_id: studentId,
  extra_time_percent: stored?.extra_time_percent ?? 0,
  extra_minutes: stored?.extra_minutes ?? 0,
  updated_at: stored?.updated_at ?? null,
});

export async function readAccommodation(principal: Principal, uid: string): Promise<Accommodation> {
  const student = await requireStudent(principal, uid);
  return accommodationView(uid, await store.findAccommodation(student.clientId, uid));
}

/** A student's own accommodation, for GET /api/me. */
export async function ownAccommodation(
  principal: Principal,
): Promise<{ extra_time_percent: number; extra_minutes: number } | null> {
  if (principal.role !== 'student' || !principal.clientId) return null;
  const stored = await store.findAccommodation(principal.clientId, principal.uid);
  return stored ? { extra_time_percent: stored.extra_time_percent, extra_minutes: stored.extra_minutes } : null;
}

/**
 * The standing accommodations of a page of students of the organization (the Users list's), by uid:
 * one getAll. The caller has already read them as users it may see.
 */
export async function standingAccommodations(
  clientId: string,
  uids: readonly string[],
): Promise<Map<string, { extra_time_percent: number; extra_minutes: number }>> {
  const held = await store.findAccommodations(clientId, uids);
  return new Map(
    [...held].map(([uid, stored]) => [
      uid,
      { extra_time_percent: stored.extra_time_percent, extra_minutes: stored.extra_minutes },
    ]),
  );
}

export async function putAccommodation(
  principal: Principal,
  uid: string,
  input: PutAccommodationInput,
  call: CallContext,
): Promise<Accommodation> {
  const student = await requireStudent(principal, uid);
  const { accommodation, sweepId } = await store.writeAccommodation({
    clientId: student.clientId,
    studentId: uid,
    extra_time_percent: input.extra_time_percent,
    extra_minutes: input.extra_minutes,
    by: principal.uid,
    meta: requestMeta(call),
  });
  if (sweepId) await deadlines.runSweep(sweepId);
  return accommodationView(uid, accommodation);
}

// ---------------------------------------------------------------- extra time

/** An administrator of the attempt's organization gives it extra minutes; 409 once it is submitted, or closed because its time was up. */
export async function extendAttempt(
  principal: Principal,
  attemptId: string,
  minutes: number,
  call: CallContext,
): Promise<{ attempt_id: string; expires_at: string }> {
  const change = await deadlines.extendAttempt(
    attemptId,
    (attempt) => assertCanManageSitting(principal, attempt.client_id),
    minutes,
    principal.uid,
    requestMeta(call),
  );
  if (change.outcome === 'closed') {
    throw conflict(
      'Time was already up: the attempt passed its deadline (expires_at + 30 s) and was submitted with the answers saved in time',
    );
  }
  return { attempt_id: attemptId, expires_at: change.attempt.expires_at };
}

/**
 * Every attempt in progress of the test, created before the extension was
 * recorded, gets the minutes once. Should carrying it be cut short, the
 * extension still stands (recorded with its sweep) and the scheduled closer
 * finishes it: the 503 says so, because pressing again would extend again.
 */
export async function extendTest(
  principal: Principal,
  testId: string,
  minutes: number,
  call: CallContext,
  classId?: string,
): Promise<{ extended: number }> {
  const test = await requireTest(principal, testId);
  assertCanManageSitting(principal, test.client_id);
  const sweepId = await store.recordTestExtension({
    clientId: test.client_id,
    testId,
    minutes,
    classId,
    by: principal.uid,
    meta: requestMeta(call),
  });
  try {
    const { changed } = await deadlines.runSweep(sweepId);
    return { extended: changed };
  } catch (err) {
    if (!isBackendFault(err) && !(err instanceof ApiError && err.status === 503)) throw err;
    log.error('Carrying a sitting-wide extension was cut short; the scheduled closer finishes it', {
      sweep: sweepId,
      error: errorText(err),
    });
    throw serviceUnavailable(
      `The extension of ${minutes} minutes is recorded and reaches every attempt in progress within minutes (sweep ${sweepId}); do not extend again, or it is given twice`,
    );
  }
}

// ---------------------------------------------------------------- who has not started

/**
 * A page of the test's audience (the members of its classes, or the organization's
 * students) who have not started it, for the live view. Bounded whatever the
 * audience: at most `limit + 1` profiles per query (two queries at most), then one
 * getAll of their slots. The cursor is the last uid read, so a page filtered down to
 * few (or none) still walks on.
 */
export async function listNotStarted(
  principal: Principal,
  testId: string,
  query: { class_id?: string; limit: number; cursor?: string },
): Promise<NotStartedPage> {
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 0);
  if (query.cursor !== undefined && cursor === undefined) {
    throw badRequest('cursor is not valid for this list', [
      { path: 'query.cursor', message: 'Not a cursor from this list; start again from the first page' },
    ]);
  }
  const test = await requireTest(principal, testId);
  const clientId = test.client_id;
  assertCanWatchSitting(principal, { clientId });
  const classId = query.class_id;
  if (classId !== undefined) {
    assertCanFilterByClass(principal, { clientId, classId, classClientId: await classOrganization(clientId, classId) });
  }
  const assignedClassIds = test.assigned_class_ids ?? [];
  const answers = await store.readAudience(
    clientId,
    audienceQuerySpecs(assignedClassIds, classId),
    cursor?.after[0] as string | undefined,
    query.limit,
  );
  const { profiles, more } = audiencePage(answers, query.limit);
  const started = await store.startedOf(
    clientId,
    testId,
    profiles.filter((p) => inAudience(p, assignedClassIds, classId)).map((p) => p.uid),
  );
  const last = profiles[profiles.length - 1];
  return {
    data: notStarted({ profiles, started, assignedClassIds, classId }),
    next_cursor: more && last ? encodeCursor({ page: (cursor?.page ?? 0) + 1, after: [last.uid] }) : null,
  };
}
