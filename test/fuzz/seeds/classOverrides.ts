import { createUser } from '../../support/fixtures';
import { adminDb } from '../../support/admin';
import { publishedTest } from './attempts';
import { runningAttempt } from './sittings';
import { writeClass } from './testsAndShareCodes';
import type { FuzzSeedGroup, FuzzWorld } from './types';

// Seeds for a test's class overrides: a published test with a class override to delete,
// and one whose class override each valid run replaces (taking turns between bodies, so
// a field absent is stored as absent), with a student of the class in progress on it so
// that every change is swept to a running attempt.

interface Prepared {
  puts: number;
  testId: string;
  classId: string;
  deleteTestId: string;
  deleteClassId: string;
}

const MINUTE = 60_000;
const fromNow = (minutes: number) => new Date(Date.now() + minutes * MINUTE + Math.floor(Math.random() * 600) * 1000).toISOString();

export const seeds: FuzzSeedGroup = {
  async prepare(world: FuzzWorld): Promise<Prepared> {
    const clientId = world.tenant.clientId;
    const [test, deleteTest, classId, deleteClassId, student] = await Promise.all([
      publishedTest(clientId, world.tenant.admin.uid),
      publishedTest(clientId, world.tenant.admin.uid),
      writeClass(clientId),
      writeClass(clientId),
      createUser('student', clientId),
    ]);
    const client = adminDb.collection('clients').doc(clientId);
    const started = new Date(Date.now() - MINUTE).toISOString();
    await Promise.all([
      client.collection('users').doc(student.uid).update({ class_ids: [classId] }),
      client.collection('tests').doc(deleteTest.testId).update({
        [`class_overrides.${deleteClassId}`]: { timer: 90, set_by: world.tenant.admin.uid, updated_at: started },
      }),
    ]);
    // The student's attempt in progress on the test, started in the class: each override change reaches it.
    const attemptId = await runningAttempt(clientId, test, student.uid);
    await client.collection('attempts').doc(attemptId).update({ class_ids: [classId] });
    return { puts: 0, testId: test.testId, classId, deleteTestId: deleteTest.testId, deleteClassId };
  },
  seeds: [
    {
      operation: 'put /api/tests/{testId}/class-overrides/{classId}',
      request: (w, p: Prepared) => {
        const whole = { opens_at: new Date(Date.now() - 86_400_000).toISOString(), closes_at: fromNow(2 * 24 * 60), timer: 45 + Math.floor(Math.random() * 30), max_attempts: 5 };
        const bodies = [whole, { timer: whole.timer }, { closes_at: fromNow(50) }, { max_attempts: null }];
        return { token: w.tenant.admin.token, params: { testId: p.testId, classId: p.classId }, body: bodies[p.puts++ % bodies.length] };
      },
    },
    {
      operation: 'get /api/tests/{testId}/class-overrides',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.testId } }),
    },
    {
      operation: 'delete /api/tests/{testId}/class-overrides/{classId}',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.deleteTestId, classId: p.deleteClassId } }),
    },
  ],
};
