import assert from 'node:assert/strict';
import { createTenant, createUser } from '../support/fixtures';
import { freshIp, get, post, type RequestOptions } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { attemptDoc, publishTest, startOk } from '../attempts/fixtures';
import { as, writeFolder, writeQuestion } from '../exams/fixtures';

// After a regrade, the review of an attempt whose score did not change (so the
// regrade did not rewrite it) shows the corrected key, to its taker and to an
// administrator, on the instance that applied the regrade and on another one;
// both had cached the version before it. The regrade is applied in process;
// the Hosting emulator's function is the other instance.

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
});
after(() => server.close());

const inProcess = (token: string): RequestOptions => ({ token, ip: freshIp(), baseUrl: server.baseUrl });
const instances = { 'the instance that applied the regrade': inProcess, 'another instance': as };

type Review = Array<{ question_id: string; correct_answer: string | null; marks_awarded: number }>;

/** What each caller is shown as the key of `questionId`, on each instance. */
async function keysShown(
  attemptId: string,
  questionId: string,
  callers: Record<string, string>,
): Promise<Record<string, string | null>> {
  const shown: Record<string, string | null> = {};
  for (const [instance, at] of Object.entries(instances)) {
    for (const [who, token] of Object.entries(callers)) {
      const res = await get(`/api/attempts/${attemptId}`, at(token));
      assert.equal(res.status, 200, res.text);
      const item = (res.body.review as Review).find((r) => r.question_id === questionId);
      shown[`${who} on ${instance}`] = item?.correct_answer ?? null;
    }
  }
  return shown;
}

describe('GET /api/attempts/{attemptId} after a regrade of its version', () => {
  it('shows the corrected key of a fixed question to the taker and an admin, on both instances, when the attempt’s score did not change', async function () {
    this.timeout(60_000);
    const wrong = await writeQuestion(tenant.client.id, { options: ['3', '4', '5'], correct_answer: '5', marks: 2 });
    const { test } = await publishTest(tenant.admin.token, tenant.client.id, { questions: [wrong] });
    const student = await createUser('student', tenant.client.id);
    const started = await startOk(student.token, { test_id: test.id });
    // "3" is wrong under either key: the regrade leaves this attempt's score as it is.
    await post(
      `/api/attempts/${started.attempt_id}/answers`,
      { question_id: wrong.id, student_answer: '3' },
      as(student.token),
    );
    assert.equal((await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token))).status, 200);
    const callers = { taker: student.token, admin: tenant.admin.token };
    // Both instances cache the version as published.
    for (const shown of Object.values(await keysShown(started.attempt_id, wrong.id, callers))) assert.equal(shown, '5');

    const res = await post(
      `/api/tests/${test.id}/versions/1/regrade`,
      { question_id: wrong.id, correct_answer: '4' },
      inProcess(tenant.admin.token),
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.changed, [], 'the attempt’s score did not change');
    assert.equal((await attemptDoc(tenant.client.id, started.attempt_id).get()).get('score'), 0);

    const shown = await keysShown(started.attempt_id, wrong.id, callers);
    assert.deepEqual(shown, Object.fromEntries(Object.keys(shown).map((k) => [k, '4'])));
  });

  it('shows the corrected key of a pool question to the taker and an admin, on both instances, when the attempt’s score did not change', async function () {
    this.timeout(60_000);
    const folder = await writeFolder(tenant.client.id, `Review pool ${Math.random()}`);
    const pooled = await writeQuestion(tenant.client.id, {
      folder_id: folder.id,
      question_text: 'Pooled',
      options: ['a', 'b', 'c'],
      correct_answer: 'a',
      marks: 1,
    });
    const fixed = await writeQuestion(tenant.client.id, {
      question_text: 'Fixed',
      options: ['x', 'y'],
      correct_answer: 'x',
      marks: 1,
    });
    const { test } = await publishTest(tenant.admin.token, tenant.client.id, {
      questions: [fixed],
      extra: { pools: [{ folder_id: folder.id, draw: 1 }] },
    });
    const student = await createUser('student', tenant.client.id);
    const started = await startOk(student.token, { test_id: test.id });
    // "c" is wrong under either key.
    await post(
      `/api/attempts/${started.attempt_id}/answers`,
      { question_id: pooled.id, student_answer: 'c' },
      as(student.token),
    );
    assert.equal((await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token))).status, 200);
    const callers = { taker: student.token, admin: tenant.admin.token };
    for (const shown of Object.values(await keysShown(started.attempt_id, pooled.id, callers)))
      assert.equal(shown, 'a');

    const res = await post(
      `/api/tests/${test.id}/versions/1/regrade`,
      { question_id: pooled.id, correct_answer: 'b' },
      inProcess(tenant.admin.token),
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.changed, [], 'the attempt’s score did not change');

    const shown = await keysShown(started.attempt_id, pooled.id, callers);
    assert.deepEqual(shown, Object.fromEntries(Object.keys(shown).map((k) => [k, 'b'])));
  });
});
