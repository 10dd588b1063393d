import assert from 'node:assert/strict';
import { createTenant, createUser, type TestUser } from '../support/fixtures';
import { freshIp, get, post, type RequestOptions } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { attemptDoc, publishTest } from '../attempts/fixtures';
import { writeQuestion } from '../exams/fixtures';
import { adminDb } from '../support/admin';
import { essayQuestion } from './fixtures';

// Two graders giving an attempt's last two grades at the same moment: with the
// real app in-process, so the requests truly overlap. The grade's transaction
// on the attempt orders them: the attempt completes exactly once, with both
// grades, and its score enters the analytics once.

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;
const at = (token: string): RequestOptions => ({ token, ip: freshIp(), baseUrl: server.baseUrl });

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
});
after(() => server.close());

describe('POST /api/attempts/{attemptId}/grades, two graders at once', () => {
  it('completes each attempt exactly once with both grades, and the analytics equal a recompute', async function () {
    this.timeout(120_000);
    const choice = await writeQuestion(tenant.client.id, { options: ['3', '4'], correct_answer: '4', marks: 1 });
    const [first, second] = await Promise.all([
      essayQuestion(tenant.client.id, { marks: 5 }),
      essayQuestion(tenant.client.id, { marks: 5 }),
    ]);
    const { test } = await publishTest(tenant.admin.token, tenant.client.id, { questions: [choice, first, second] });
    const graders: TestUser[] = await Promise.all([
      createUser('client_admin', tenant.client.id),
      createUser('client_admin', tenant.client.id),
    ]);
    const ATTEMPTS = 8;
    const attemptIds = await Promise.all(
      Array.from({ length: ATTEMPTS }, async () => {
        const student = await createUser('student', tenant.client.id);
        const started = await post('/api/attempts', { test_id: test.id }, at(student.token));
        assert.equal(started.status, 201, started.text);
        const answers = [first.id, second.id].map((id) => ({ question_id: id, student_answer: 'An answer' }));
        assert.equal(
          (await post(`/api/attempts/${started.body.attempt_id}/answers`, { answers }, at(student.token))).status,
          200,
        );
        assert.equal(
          (await post(`/api/attempts/${started.body.attempt_id}/submit`, undefined, at(student.token))).status,
          200,
        );
        return started.body.attempt_id as string;
      }),
    );
    // Every attempt's two grades sent together, by two graders, all attempts at once.
    const replies = await Promise.all(
      attemptIds.flatMap((id) => [
        post(`/api/attempts/${id}/grades`, { question_id: first.id, marks: 2 }, at(graders[0].token)),
        post(`/api/attempts/${id}/grades`, { question_id: second.id, marks: 3 }, at(graders[1].token)),
      ]),
    );
    for (const reply of replies) assert.equal(reply.status, 200, reply.text);
    // Exactly one of each pair saw the attempt complete: the one ordered second.
    for (let i = 0; i < ATTEMPTS; i++) {
      const pair = [replies[2 * i].body.grading, replies[2 * i + 1].body.grading].sort();
      assert.deepEqual(pair, ['complete', 'pending']);
    }
    for (const id of attemptIds) {
      const stored = (await attemptDoc(tenant.client.id, id).get()).data()!;
      assert.equal(stored.grading, 'complete');
      assert.equal(stored.score, 5);
      assert.deepEqual(Object.keys(stored.grades).sort(), [first.id, second.id].sort());
    }
    const analytics = await get(`/api/analytics/tests/${test.id}`, at(tenant.admin.token));
    assert.equal(analytics.body.completed, ATTEMPTS);
    assert.equal(analytics.body.pending_grading, 0);
    assert.equal(analytics.body.average_score, 5);
    const recomputed = await post(`/api/analytics/tests/${test.id}/recompute`, undefined, at(tenant.admin.token));
    assert.equal(recomputed.body.changed, false, recomputed.text);
    const queue = await adminDb
      .collection('clients')
      .doc(tenant.client.id)
      .collection('tests')
      .doc(test.id)
      .collection('grading_queue')
      .get();
    assert.equal(queue.size, 0);
  });
});
