import { newAttemptId } from '../../../functions/src/attempts/attemptLookup';
import type { AttemptSlot, StoredAttempt } from '../../../functions/src/attempts/documents';
import { hashAttemptToken, newAttemptToken } from '../../../functions/src/attempts/tokens';
import type { StoredOverride } from '../../../functions/src/sittings/documents';
import { adminDb } from '../../support/admin';
import { createUser } from '../../support/fixtures';
import { publishedTest } from './attempts';
import { writeClass } from './testsAndShareCodes';
import type { FuzzSeedGroup, FuzzWorld } from './types';

// Seeds for a sitting's delivery settings, people and time: PATCH of a test's
// delivery settings, overrides, accommodations and extra time. Each endpoint
// has published tests and students of its own, with attempts in progress
// (and their slots) written straight into Firestore in the shapes the service
// stores, so that every change reaches running attempts: the override's
// inline recompute, the sweeps of a moved closes_at, an accommodation and a
// sitting-wide extension. The seeds vary closes_at and extra_minutes per run,
// so each valid run moves a deadline (and records a sweep) again.

interface Prepared {
  /** How many override PUTs were handed out: the seed takes turns between bodies. */
  overridePuts: number;
  patchTest: string;
  overrideTest: string;
  overrideStudent: string;
  deleteTest: string;
  deleteStudent: string;
  accommodationStudent: string;
  extendTest: string;
  extendAttempt: string;
  /** A class of the organization: PATCH assigns the test to it. */
  classId: string;
}

const clientRef = (clientId: string) => adminDb.collection('clients').doc(clientId);
const MINUTE = 60_000;

/** An attempt in progress, started a minute ago on a 60-minute test, with the slot that names it. */
export async function runningAttempt(clientId: string, test: { testId: string; questionIds: string[] }, studentId: string): Promise<string> {
  const id = newAttemptId(clientId);
  const started = new Date(Date.now() - MINUTE);
  const expires = new Date(started.getTime() + 60 * MINUTE);
  const attempt: StoredAttempt = {
    id, client_id: clientId, test_id: test.testId, version: 1, student_id: studentId, guest: false, guest_name: null, share_code: null,
    started_by: studentId, status: 'in_progress', started_at: started.toISOString(), expires_at: expires.toISOString(), submitted_at: null,
    auto_submitted: false, answers: {}, question_order: test.questionIds, token_hash: hashAttemptToken(newAttemptToken()), submitted_by: null,
    score: null, total_marks: test.questionIds.length, results: null,
  };
  const slot: AttemptSlot = {
    test_id: test.testId, student_id: studentId, client_id: clientId, count: 1, last_submitted_at: null,
    in_progress: { attempt_id: id, version: 1, started_at: attempt.started_at, expires_at: attempt.expires_at },
  };
  const testRef = clientRef(clientId).collection('tests').doc(test.testId);
  await Promise.all([clientRef(clientId).collection('attempts').doc(id).set(attempt), testRef.collection('attempt_slots').doc(studentId).set(slot)]);
  return id;
}

/** An override as the service stores it, counted in its test's bound. */
async function writeOverride(clientId: string, testId: string, studentId: string, by: string): Promise<void> {
  const override: StoredOverride = {
    test_id: testId, student_id: studentId, client_id: clientId, timer: 90, max_attempts: null, set_by: by, updated_at: new Date().toISOString(),
  };
  const testRef = clientRef(clientId).collection('tests').doc(testId);
  await Promise.all([testRef.collection('overrides').doc(studentId).set(override), testRef.collection('sitting_counts').doc('overrides').set({ count: 1 })]);
}

/** An instant `minutes` from now, a few random seconds on: each run asks for a closing time the test did not have. */
const fromNow = (minutes: number) => new Date(Date.now() + minutes * MINUTE + Math.floor(Math.random() * 600) * 1000).toISOString();

export const seeds: FuzzSeedGroup = {
  async prepare(world: FuzzWorld): Promise<Prepared> {
    const clientId = world.tenant.clientId;
    const by = world.tenant.admin.uid;
    const [first, second, third] = await Promise.all([1, 2, 3].map(() => createUser('student', clientId)));
    const [patchTest, overrideTest, deleteTest, accommodationOne, accommodationTwo, extendTest, extendOne] = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7].map(() => publishedTest(clientId, by)),
    );
    const [, , , , , extendAttempt] = await Promise.all([
      runningAttempt(clientId, patchTest, first.uid),
      runningAttempt(clientId, overrideTest, first.uid),
      runningAttempt(clientId, accommodationOne, second.uid),
      runningAttempt(clientId, accommodationTwo, second.uid),
      runningAttempt(clientId, extendTest, first.uid),
      runningAttempt(clientId, extendOne, third.uid),
      runningAttempt(clientId, extendTest, third.uid),
      writeOverride(clientId, deleteTest.testId, third.uid, by),
    ]);
    const classId = await writeClass(clientId);
    return {
      overridePuts: 0,
      patchTest: patchTest.testId,
      overrideTest: overrideTest.testId,
      overrideStudent: first.uid,
      deleteTest: deleteTest.testId,
      deleteStudent: third.uid,
      accommodationStudent: second.uid,
      extendTest: extendTest.testId,
      extendAttempt,
      classId,
    };
  },
  seeds: [
    {
      operation: 'patch /api/tests/{testId}',
      request: (w, p: Prepared) => ({
        token: w.tenant.admin.token,
        params: { testId: p.patchTest },
        // A closing time inside the running attempt's hour: its deadline moves on every valid run.
        body: {
          opens_at: new Date(Date.now() - 86_400_000).toISOString(), closes_at: fromNow(40), access_code: 'fuzz-room-42',
          attempt_cooldown_minutes: 5, review_opens_at: fromNow(120), assigned_class_ids: [p.classId],
          // Safe Exam Browser keys: fuzzed as fields; an empty list of browser exam keys leaves the attempts' starts free.
          seb_config_keys: [], seb_browser_exam_keys: [],
        },
      }),
    },
    {
      operation: 'put /api/tests/{testId}/overrides/{studentId}',
      // Every field, then one at a time: a field absent is the test's own value again, and must be stored (and audited) as absent.
      request: (w, p: Prepared) => {
        const whole = {
          opens_at: new Date(Date.now() - 86_400_000).toISOString(), closes_at: fromNow(2 * 24 * 60), timer: 45 + Math.floor(Math.random() * 30), max_attempts: 5,
        };
        const bodies = [whole, { timer: whole.timer }, { closes_at: fromNow(50) }, { max_attempts: null }];
        return { token: w.tenant.admin.token, params: { testId: p.overrideTest, studentId: p.overrideStudent }, body: bodies[p.overridePuts++ % bodies.length] };
      },
    },
    {
      operation: 'get /api/tests/{testId}/overrides',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.overrideTest }, query: { page: '1', limit: '5' } }),
    },
    {
      operation: 'delete /api/tests/{testId}/overrides/{studentId}',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.deleteTest, studentId: p.deleteStudent } }),
    },
    {
      // Who has not started: the override test is open to the organization, read with the live view's class filter.
      operation: 'get /api/tests/{testId}/not-started',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.overrideTest }, query: { class_id: p.classId, limit: '5' } }),
    },
    {
      operation: 'get /api/users/{uid}/accommodations',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { uid: p.accommodationStudent } }),
    },
    {
      operation: 'put /api/users/{uid}/accommodations',
      request: (w, p: Prepared) => ({
        token: w.tenant.admin.token,
        params: { uid: p.accommodationStudent },
        body: { extra_time_percent: 25, extra_minutes: 1 + Math.floor(Math.random() * 120) },
      }),
    },
    {
      operation: 'post /api/attempts/{attemptId}/extend',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { attemptId: p.extendAttempt }, body: { minutes: 5 } }),
    },
    {
      operation: 'post /api/tests/{testId}/extend',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.extendTest }, body: { minutes: 5 } }),
    },
  ],
};
