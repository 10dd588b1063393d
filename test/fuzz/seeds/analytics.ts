import { randomUUID } from 'node:crypto';
import { adminDb } from '../../support/admin';
import { fuzzClass, publishedTest } from './attempts';
import type { FuzzSeedGroup, FuzzWorld } from './types';

// Seeds for analytics: a published test (the attempts seeds' shape) with one
// submitted attempt of the tenant's student, written straight into Firestore.
// The repair seed recomputes its sums, so every analytics read has figures to show.

interface Prepared {
  testId: string;
  classId: string;
}

async function submittedAttempt(clientId: string, testId: string, questionIds: string[], studentId: string, classId: string): Promise<void> {
  const id = `${clientId}.${randomUUID()}`;
  const now = new Date().toISOString();
  await adminDb.collection('clients').doc(clientId).collection('attempts').doc(id).set({
    id, client_id: clientId, test_id: testId, test_name: 'Fuzz attempts test', version: 1, student_id: studentId, guest: false, guest_name: null,
    share_code: null, class_ids: [classId], started_by: studentId, status: 'submitted', started_at: now, expires_at: now, submitted_at: now, auto_submitted: false,
    answers: { [questionIds[0]]: { answer: 'A', saved_at: now } }, question_order: questionIds, token_hash: 'x', score: 1, total_marks: 2, percentage: 50,
    results: questionIds.map((qid, i) => ({ question_id: qid, answered: i === 0, correct: i === 0, marks_awarded: i === 0 ? 1 : 0 })),
  });
}

export const seeds: FuzzSeedGroup = {
  async prepare(world: FuzzWorld): Promise<Prepared> {
    const clientId = world.tenant.clientId;
    const { testId, questionIds } = await publishedTest(clientId, world.tenant.admin.uid);
    const classId = await fuzzClass(clientId);
    await submittedAttempt(clientId, testId, questionIds, world.tenant.student.uid, classId);
    return { testId, classId };
  },
  seeds: [
    {
      operation: 'get /api/analytics/tests/{testId}',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.testId }, query: { version: '1', class_id: p.classId } }),
    },
    {
      operation: 'post /api/analytics/tests/{testId}/recompute',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.testId }, query: { version: '1' } }),
    },
    {
      operation: 'get /api/analytics/tests/{testId}/results.csv',
      request: (w, p: Prepared) => ({ token: w.superAdmin.token, params: { testId: p.testId }, query: { version: '1', class_id: p.classId } }),
    },
    {
      operation: 'get /api/analytics/students/{studentId}',
      request: (w) => ({
        token: w.superAdmin.token,
        params: { studentId: w.tenant.student.uid },
        query: { client_id: w.tenant.clientId, page: '1', limit: '5' },
      }),
    },
  ],
};
