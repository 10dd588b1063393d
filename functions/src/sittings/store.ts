import { FieldPath, FieldValue, type DocumentSnapshot, type Transaction } from 'firebase-admin/firestore';
import { addAudit, type AuditMeta } from '../audit';
import { applyDeadline, recordSweep, sourcesFrom, type DeadlineChange, type DeadlineSources } from './sweeps';
import type { AttemptSlot, FoundAttempt, StoredAttempt } from '../attempts';
import { audienceOf, type StoredClassOverride, type StoredTest } from '../exams';
import { MAX_CLASSES_PER_TEST } from '../classes';
import { buildQuery, db, fetchPage, paths } from '../firestore';
import { badRequest, conflict, isDocumentId, notFound, type PageRequest, type QuerySpec } from '../shared';
import { startWindow } from '../sittingRules';
import type { StoredAccommodation, StoredCount, StoredOverride } from './documents';
import type { AudienceProfile } from './notStarted';
import { overrideQuerySpec } from './overrideQuery';
import { MAX_ACCOMMODATIONS_PER_CLIENT, MAX_OVERRIDES_PER_TEST } from './schemas';

// Overrides and accommodations, each written in one transaction with its
// bound's counter, its audit record, and what it changes on running attempts:
// an override concerns at most one attempt (the slot names it), brought in
// line in the same transaction; an accommodation every attempt in progress of
// the student, through a recorded sweep the caller runs after the commit.

const countOf = (snap: DocumentSnapshot): number => (snap.exists ? ((snap.data() as StoredCount).count ?? 0) : 0);

function assertStudent(profile: DocumentSnapshot | undefined, field: string): void {
  if (!profile?.exists || profile.get('role') !== 'student') {
    throw badRequest('Overrides and accommodations are for students of this organization', [
      { path: field, message: 'Not a student of this organization' },
    ]);
  }
}

/**
 * The student's attempt in progress on the test (the slot names it), read in
 * `tx` before anything is written (a Firestore transaction reads first): the
 * second read of the transaction, made only when there is one.
 */
async function readRunning(
  tx: Transaction,
  clientId: string,
  slot: AttemptSlot | undefined,
): Promise<FoundAttempt | undefined> {
  const running = slot?.in_progress;
  if (!running) return undefined;
  const ref = paths.clientAttempt(clientId, running.attempt_id);
  const snap = await tx.get(ref);
  return snap.exists ? { ref, attempt: snap.data() as StoredAttempt } : undefined;
}

export interface OverrideWrite {
  clientId: string;
  testId: string;
  studentId: string;
  /** The override's values, whole (PUT), or null to delete it. */
  values: Pick<StoredOverride, 'opens_at' | 'closes_at' | 'timer' | 'max_attempts'> | null;
  by: string;
  meta: AuditMeta;
}

/**
 * Sets (or deletes) an override and brings the student's attempt in progress
 * on the test to its new deadline, in one transaction: of two overrides racing,
 * the attempt follows the one that lands last.
 */
export async function writeOverride(
  write: OverrideWrite,
): Promise<{ override: StoredOverride | null; attempt: DeadlineChange | undefined }> {
  const { clientId, testId, studentId } = write;
  // An id that could name no document names no student of the organization, and has no override.
  if (!isDocumentId(studentId)) {
    if (write.values === null) throw notFound('This student has no override on this test');
    assertStudent(undefined, 'params.studentId');
  }
  return db.runTransaction(async (tx) => {
    const refs = {
      test: paths.clientTest(clientId, testId),
      override: paths.testOverride(clientId, testId, studentId),
      accommodation: paths.accommodation(clientId, studentId),
      slot: paths.attemptSlot(clientId, testId, studentId),
      profile: paths.clientUser(clientId, studentId),
      count: paths.testOverrideCount(clientId, testId),
    };
    const [testSnap, overrideSnap, accommodationSnap, slotSnap, profileSnap, countSnap] = await tx.getAll(
      refs.test,
      refs.override,
      refs.accommodation,
      refs.slot,
      refs.profile,
      refs.count,
    );
    if (!testSnap.exists) throw notFound('Test not found');
    const test = testSnap.data() as StoredTest;
    const running = await readRunning(tx, clientId, slotSnap.exists ? (slotSnap.data() as AttemptSlot) : undefined);
    const now = new Date().toISOString();
    // The fields sent (an absent one is the test's value; Firestore stores no undefined).
    const values = write.values && Object.fromEntries(Object.entries(write.values).filter(([, v]) => v !== undefined));
    let override: StoredOverride | null = null;
    if (values === null) {
      if (!overrideSnap.exists) throw notFound('This student has no override on this test');
      tx.delete(refs.override);
      tx.set(refs.count, { count: FieldValue.increment(-1) }, { merge: true });
    } else {
      assertStudent(profileSnap, 'params.studentId');
      const window = startWindow(test, values);
      if (window.opensAt && window.closesAt && Date.parse(window.closesAt) <= Date.parse(window.opensAt)) {
        const field = values.closes_at !== undefined ? 'closes_at' : 'opens_at';
        const message = `For this student the test would close (${window.closesAt}) before it opens (${window.opensAt})`;
        throw badRequest(message, [{ path: `body.${field}`, message }]);
      }
      if (!overrideSnap.exists) {
        if (countOf(countSnap) >= MAX_OVERRIDES_PER_TEST)
          throw conflict(`A test holds at most ${MAX_OVERRIDES_PER_TEST} overrides; delete one first`);
        tx.set(refs.count, { count: FieldValue.increment(1) }, { merge: true });
      }
      override = {
        ...values,
        test_id: testId,
        student_id: studentId,
        client_id: clientId,
        set_by: write.by,
        updated_at: now,
      };
      tx.set(refs.override, override);
    }
    // The settings as this transaction leaves them: the override just written (or none).
    const sources: DeadlineSources = {
      ...sourcesFrom([testSnap, overrideSnap, accommodationSnap, slotSnap]),
      override: override ?? undefined,
    };
    const attempt = running
      ? await applyDeadline(tx, running, sources, { nowMs: Date.now(), meta: write.meta })
      : undefined;
    addAudit(tx, write.meta, {
      type: override ? 'override_set' : 'override_deleted',
      userId: studentId,
      clientId,
      actorId: write.by,
      details: {
        test_id: testId,
        ...(override ? { override: values } : {}),
        ...(attempt && attempt.outcome !== 'unchanged'
          ? { attempt_id: attempt.attempt.id, expires_at: attempt.attempt.expires_at, attempt_outcome: attempt.outcome }
          : {}),
      },
    });
    return { override, attempt };
  });
}

export async function listOverrides(clientId: string, testId: string, page: PageRequest) {
  const { docs, pagination } = await fetchPage(paths.testOverrides(clientId, testId), overrideQuerySpec(), page);
  return { data: docs as StoredOverride[], pagination };
}

// ---------------------------------------------------------------- class overrides

/** The class named is not the test's organization's: the caller tells another organization's (403) from none (404). */
export class UnknownClass extends Error {
  constructor(readonly classId: string) {
    super(`No class ${classId} in this organization`);
  }
}

export interface ClassOverrideWrite {
  clientId: string;
  testId: string;
  classId: string;
  /** The override's values, whole (PUT), or null to delete it. */
  values: Pick<StoredOverride, 'opens_at' | 'closes_at' | 'timer' | 'max_attempts'> | null;
  by: string;
  meta: AuditMeta;
}

/**
 * Sets (or deletes) a class's override, kept on the test document (so a start reads it
 * with the test), in one transaction with its audit record and, when it changed, a
 * sweep of the test's attempts in progress: each is brought to the deadline its own
 * classes (as they were at its start) now give it. The class is read in the
 * transaction, so a class deleted at the same moment is either still there or 404.
 */
export async function writeClassOverride(
  write: ClassOverrideWrite,
): Promise<{ override: StoredClassOverride | null; sweepId: string | undefined }> {
  const { clientId, testId, classId } = write;
  return db.runTransaction(async (tx) => {
    const testRef = paths.clientTest(clientId, testId);
    const [testSnap, classSnap] = await tx.getAll(testRef, paths.clientClass(clientId, classId));
    if (!testSnap.exists) throw notFound('Test not found');
    const test = testSnap.data() as StoredTest;
    const held = test.class_overrides ?? {};
    const before = Object.hasOwn(held, classId) ? held[classId] : undefined;
    const now = new Date().toISOString();
    const values = write.values && Object.fromEntries(Object.entries(write.values).filter(([, v]) => v !== undefined));
    let override: StoredClassOverride | null = null;
    if (values === null) {
      if (!before) {
        if (!classSnap.exists) throw new UnknownClass(classId);
        throw notFound('This class has no override on this test');
      }
    } else {
      if (!classSnap.exists) throw new UnknownClass(classId);
      const window = startWindow(test, values);
      if (window.opensAt && window.closesAt && Date.parse(window.closesAt) <= Date.parse(window.opensAt)) {
        const field = values.closes_at !== undefined ? 'closes_at' : 'opens_at';
        const message = `For this class the test would close (${window.closesAt}) before it opens (${window.opensAt})`;
        throw badRequest(message, [{ path: `body.${field}`, message }]);
      }
      if (!before && Object.keys(held).length >= MAX_CLASSES_PER_TEST)
        throw conflict(`A test holds at most ${MAX_CLASSES_PER_TEST} class overrides; delete one first`);
      override = { ...values, set_by: write.by, updated_at: now };
    }
    // Every write of a test keeps its audience (a test stored before assignments gets one here too).
    tx.update(
      testRef,
      new FieldPath('class_overrides', classId),
      override ?? FieldValue.delete(),
      'assigned_class_ids',
      test.assigned_class_ids ?? [],
      'audience',
      audienceOf(test.assigned_class_ids),
      // Beside the map, for a class's delete to find the tests holding an override for it (a map's keys cannot be queried).
      'class_override_ids',
      override ? FieldValue.arrayUnion(classId) : FieldValue.arrayRemove(classId),
    );
    addAudit(tx, write.meta, {
      type: override ? 'class_override_set' : 'class_override_deleted',
      userId: write.by,
      clientId,
      actorId: write.by,
      details: { test_id: testId, class_id: classId, ...(override ? { override: values } : {}) },
    });
    const valuesOf = (o: StoredClassOverride | null | undefined) =>
      o ? JSON.stringify([o.opens_at, o.closes_at, o.timer, o.max_attempts]) : null;
    const sweepId =
      valuesOf(before) !== valuesOf(override)
        ? recordSweep(tx, { clientId, testId, reason: 'class_override_changed', by: write.by, meta: write.meta }, now)
        : undefined;
    return { override, sweepId };
  });
}

// ---------------------------------------------------------------- accommodations

export async function findAccommodation(clientId: string, studentId: string): Promise<StoredAccommodation | undefined> {
  const snap = await paths.accommodation(clientId, studentId).get();
  return snap.exists ? (snap.data() as StoredAccommodation) : undefined;
}

/** The accommodations of these students that have one, by student id: one getAll, whatever their number. */
export async function findAccommodations(
  clientId: string,
  studentIds: readonly string[],
): Promise<Map<string, StoredAccommodation>> {
  if (studentIds.length === 0) return new Map();
  const snaps = await db.getAll(...studentIds.map((id) => paths.accommodation(clientId, id)));
  return new Map(snaps.filter((s) => s.exists).map((s) => [s.id, s.data() as StoredAccommodation]));
}

/**
 * Sets a student's accommodation (0 and 0 deletes it), with its audit record
 * and, when it changed, a sweep of the student's attempts in progress, in one
 * transaction. Answers the accommodation as stored and the sweep's id.
 */
export async function writeAccommodation(write: {
  clientId: string;
  studentId: string;
  extra_time_percent: number;
  extra_minutes: number;
  by: string;
  meta: AuditMeta;
}): Promise<{ accommodation: StoredAccommodation | null; sweepId: string | undefined }> {
  const { clientId, studentId } = write;
  return db.runTransaction(async (tx) => {
    const ref = paths.accommodation(clientId, studentId);
    const countRef = paths.accommodationCount(clientId);
    const [snap, profileSnap, countSnap] = await tx.getAll(ref, paths.clientUser(clientId, studentId), countRef);
    assertStudent(profileSnap, 'params.uid');
    const before = snap.exists ? (snap.data() as StoredAccommodation) : undefined;
    const removing = write.extra_time_percent === 0 && write.extra_minutes === 0;
    const now = new Date().toISOString();
    let accommodation: StoredAccommodation | null = null;
    if (removing) {
      if (before) {
        tx.delete(ref);
        tx.set(countRef, { count: FieldValue.increment(-1) }, { merge: true });
      }
    } else {
      if (!before) {
        if (countOf(countSnap) >= MAX_ACCOMMODATIONS_PER_CLIENT) {
          throw conflict(
            `An organization holds at most ${MAX_ACCOMMODATIONS_PER_CLIENT} accommodations; remove one first`,
          );
        }
        tx.set(countRef, { count: FieldValue.increment(1) }, { merge: true });
      }
      accommodation = {
        student_id: studentId,
        client_id: clientId,
        extra_time_percent: write.extra_time_percent,
        extra_minutes: write.extra_minutes,
        set_by: write.by,
        updated_at: now,
      };
      tx.set(ref, accommodation);
    }
    const changed =
      (before?.extra_time_percent ?? 0) !== write.extra_time_percent ||
      (before?.extra_minutes ?? 0) !== write.extra_minutes;
    addAudit(tx, write.meta, {
      type: 'accommodation_set',
      userId: studentId,
      clientId,
      actorId: write.by,
      details: {
        extra_time_percent: { from: before?.extra_time_percent ?? 0, to: write.extra_time_percent },
        extra_minutes: { from: before?.extra_minutes ?? 0, to: write.extra_minutes },
      },
    });
    const sweepId = changed
      ? recordSweep(tx, { clientId, studentId, reason: 'accommodation_changed', by: write.by, meta: write.meta }, now)
      : undefined;
    return { accommodation, sweepId };
  });
}

// ---------------------------------------------------------------- extensions

/**
 * Records a sitting-wide extension (its sweep and its audit record) on an existing test, in one
 * transaction; with a class, only that class's attempts: a class that is not the test's
 * organization's is 404, as any unknown id (a class the test is not assigned to is fine).
 */
export async function recordTestExtension(write: {
  clientId: string;
  testId: string;
  minutes: number;
  classId?: string;
  by: string;
  meta: AuditMeta;
}): Promise<string> {
  const { classId } = write;
  if (classId !== undefined && !isDocumentId(classId)) throw notFound(`Class not found: ${classId}`);
  return db.runTransaction(async (tx) => {
    const [testSnap, classSnap] = await tx.getAll(
      paths.clientTest(write.clientId, write.testId),
      ...(classId !== undefined ? [paths.clientClass(write.clientId, classId)] : []),
    );
    if (!testSnap.exists) throw notFound('Test not found');
    if (classSnap && !classSnap.exists) throw notFound(`Class not found: ${classId}`);
    const sweepId = recordSweep(
      tx,
      {
        clientId: write.clientId,
        testId: write.testId,
        extensionMinutes: write.minutes,
        classId,
        reason: 'test_extended',
        by: write.by,
        meta: write.meta,
      },
      new Date().toISOString(),
    );
    addAudit(tx, write.meta, {
      type: 'test_extended',
      userId: write.by,
      clientId: write.clientId,
      actorId: write.by,
      details: {
        test_id: write.testId,
        minutes: write.minutes,
        sweep_id: sweepId,
        ...(classId !== undefined ? { class_id: classId } : {}),
      },
    });
    return sweepId;
  });
}

// ---------------------------------------------------------------- who has not started

const AUDIENCE_FIELDS = ['role', 'display_name', 'email', 'candidate_number', 'class_ids'];

/**
 * The audience's profiles after `afterUid` (by uid), for each query at most `limit + 1`
 * and only the fields a page shows: the queries run in parallel, one round trip.
 */
export async function readAudience(
  clientId: string,
  specs: readonly QuerySpec[],
  afterUid: string | undefined,
  limit: number,
): Promise<AudienceProfile[][]> {
  const snaps = await Promise.all(
    specs.map((spec) => {
      let query = buildQuery(paths.clientUsers(clientId), spec).orderBy(FieldPath.documentId());
      if (afterUid !== undefined) query = query.startAfter(afterUid);
      return query
        .limit(limit + 1)
        .select(...AUDIENCE_FIELDS)
        .get();
    }),
  );
  return snaps.map((snap) => snap.docs.map((doc) => ({ ...doc.data(), uid: doc.id })));
}

/** Of these students, those whose attempt slot on the test exists (they started it): one getAll. */
export async function startedOf(clientId: string, testId: string, uids: readonly string[]): Promise<Set<string>> {
  if (uids.length === 0) return new Set();
  const snaps = await db.getAll(...uids.map((uid) => paths.attemptSlot(clientId, testId, uid)), {
    fieldMask: ['count'],
  });
  return new Set(snaps.filter((snap) => snap.exists).map((snap) => snap.id));
}
