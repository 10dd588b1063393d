import assert from 'node:assert/strict';
import { failWrites } from '../support/faults';
import { createTenant, createUser } from '../support/fixtures';
import { freshIp, get, post, type RequestOptions } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { adminDb } from '../support/admin';
import { attemptDoc, publishTest } from '../attempts/fixtures';
import { writeQuestion } from '../exams/fixtures';
import { REGRADE_PAGE } from '../../functions/src/regrading/store';

// A regrade cut short half way (Firestore failing after its first page of
// attempts) answers 503; sent again, it finishes: every attempt is rescored
// once, audited once, and the analytics equal a recompute.

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;
const at = (token: string): RequestOptions => ({ token, ip: freshIp(), baseUrl: server.baseUrl });

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
});
after(() => server.close());

async function inBatches<T>(count: number, size: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += size)
    out.push(...(await Promise.all(Array.from({ length: Math.min(size, count - i) }, (_, j) => work(i + j)))));
  return out;
}

describe('POST /api/tests/{testId}/versions/{version}/regrade after a failure half way', () => {
  it('answers 503 when cut short, and sent again rescores every attempt once with one audit record each', async function () {
    this.timeout(300_000);
    const wrong = await writeQuestion(tenant.client.id, { options: ['3', '4', '5'], correct_answer: '5', marks: 2 });
    const { test } = await publishTest(tenant.admin.token, tenant.client.id, { questions: [wrong] });
    const COUNT = REGRADE_PAGE + 20;
    const attempts = await inBatches(COUNT, 20, async (i) => {
      const student = await createUser('student', tenant.client.id);
      const started = await post('/api/attempts', { test_id: test.id }, at(student.token));
      assert.equal(started.status, 201, started.text);
      const answer = i % 2 === 0 ? '4' : '5';
      await post(
        `/api/attempts/${started.body.attempt_id}/answers`,
        { question_id: wrong.id, student_answer: answer },
        at(student.token),
      );
      assert.equal(
        (await post(`/api/attempts/${started.body.attempt_id}/submit`, undefined, at(student.token))).status,
        200,
      );
      return { id: started.body.attempt_id as string, uid: student.uid, answer };
    });

    const heal = failWrites(/\/attempts\//, { skip: 1 });
    let cut;
    try {
      cut = await post(
        `/api/tests/${test.id}/versions/1/regrade`,
        { question_id: wrong.id, correct_answer: '4' },
        at(tenant.admin.token),
      );
    } finally {
      heal();
    }
    assert.equal(cut.status, 503, cut.text);
    const rescoredBefore = (
      await Promise.all(attempts.map(async (a) => (await attemptDoc(tenant.client.id, a.id).get()).get('score')))
    ).filter((score, i) => score === (attempts[i].answer === '4' ? 2 : 0)).length;
    assert.ok(rescoredBefore < COUNT, 'the failure left some attempts as they were');

    const again = await post(
      `/api/tests/${test.id}/versions/1/regrade`,
      { question_id: wrong.id, correct_answer: '4' },
      at(tenant.admin.token),
    );
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.corrected, false);
    assert.equal(again.body.attempts_checked, COUNT);
    for (const a of attempts)
      assert.equal((await attemptDoc(tenant.client.id, a.id).get()).get('score'), a.answer === '4' ? 2 : 0, a.id);
    const audits = await adminDb
      .collection('audit_logs')
      .where('event_type', '==', 'attempt_regraded')
      .where('client_id', '==', tenant.client.id)
      .get();
    const perAttempt = new Map<string, number>();
    for (const doc of audits.docs)
      perAttempt.set(doc.get('details.attempt_id'), (perAttempt.get(doc.get('details.attempt_id')) ?? 0) + 1);
    // Every attempt's score changed (right 0 → 2, wrong 2 → 0), each audited exactly once over both runs.
    assert.equal(perAttempt.size, COUNT);
    assert.ok([...perAttempt.values()].every((n) => n === 1));
    const analytics = await get(`/api/analytics/tests/${test.id}`, at(tenant.admin.token));
    assert.equal(analytics.body.completed, COUNT);
    const recomputed = await post(`/api/analytics/tests/${test.id}/recompute`, undefined, at(tenant.admin.token));
    assert.equal(recomputed.body.changed, false, recomputed.text);
  });
});
