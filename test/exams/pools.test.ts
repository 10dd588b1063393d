import assert from 'node:assert/strict';
import { expectError, expectValidation } from '../support/assertions';
import { createTenant, createUser } from '../support/fixtures';
import { get, post } from '../support/http';
import { as, createTestAs, validTest, versionDoc, writeFolder, writeQuestion } from './fixtures';
import { attemptDoc, slotDoc } from '../attempts/fixtures';

// Pools: a test draws its own questions per attempt from a folder, frozen at
// publish, never repeating one, preferring those the student has not seen.

describe('Pools: POST /api/tests with pools, publish, and the draw at start', () => {
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  before(async function () {
    this.timeout(30_000);
    tenant = await createTenant();
  });

  async function poolTest(opts: { poolSize: number; draw: number; fixed?: number; extra?: Record<string, unknown> }) {
    const folder = await writeFolder(tenant.client.id, `Pool ${Math.random()}`);
    const pool = await Promise.all(
      Array.from({ length: opts.poolSize }, (_, i) =>
        writeQuestion(tenant.client.id, { folder_id: folder.id, question_text: `Pool ${i}`, marks: 1 + (i % 3) }),
      ),
    );
    const fixed = await Promise.all(
      Array.from({ length: opts.fixed ?? 1 }, (_, i) =>
        writeQuestion(tenant.client.id, { question_text: `Fixed ${i}`, marks: 5 }),
      ),
    );
    const test = await createTestAs(
      tenant.admin.token,
      validTest(
        fixed.map((q) => q.id),
        { shuffle: 0, pools: [{ folder_id: folder.id, draw: opts.draw }], ...opts.extra },
      ),
    );
    return { folder, pool, fixed, test };
  }

  it('keeps pools on the test and counts each attempt’s questions in question_count', async () => {
    const { test, folder } = await poolTest({ poolSize: 4, draw: 2 });
    assert.deepEqual(test.pools, [{ folder_id: folder.id, difficulty: null, draw: 2 }]);
    assert.equal(test.question_count, 3);
  });

  it('refuses a pool whose folder is not the organization’s (400 naming the pool)', async () => {
    const res = await post(
      '/api/tests',
      validTest([], { pools: [{ folder_id: 'no-such-folder', draw: 1 }] }),
      as(tenant.admin.token),
    );
    expectValidation(res, ['body.pools.0.folder_id']);
  });

  it('refuses another organization’s folder as a pool (403)', async () => {
    const other = await createTenant();
    const folder = await writeFolder(other.client.id);
    const res = await post(
      '/api/tests',
      validTest([], { pools: [{ folder_id: folder.id, draw: 1 }] }),
      as(tenant.admin.token),
    );
    expectError(res, 403, 'FORBIDDEN');
  });

  it('refuses to publish a draw larger than its pool (400 naming pools.0), writing no version', async () => {
    const { test } = await poolTest({ poolSize: 2, draw: 3 });
    const res = await post(`/api/tests/${test.id}/publish`, undefined, as(tenant.admin.token));
    expectValidation(res, ['pools.0'], ['draws 3']);
    assert.equal((await versionDoc(tenant.client.id, test.id, 1).get()).exists, false);
  });

  it('freezes the pool at publish: a question added to the folder later is never drawn', async () => {
    const { test, folder, pool } = await poolTest({ poolSize: 3, draw: 3, extra: { max_attempts: 3 } });
    const published = await post(`/api/tests/${test.id}/publish`, undefined, as(tenant.admin.token));
    assert.equal(published.status, 200, published.text);
    const late = await writeQuestion(tenant.client.id, { folder_id: folder.id, question_text: 'Added later' });
    const version = (await versionDoc(tenant.client.id, test.id, 1).get()).data()!;
    assert.deepEqual([...version.pools[0].question_ids].sort(), pool.map((q) => q.id).sort());
    const student = await createUser('student', tenant.client.id);
    const started = await post('/api/attempts', { test_id: test.id }, as(student.token));
    assert.equal(started.status, 201, started.text);
    const ids = started.body.test_details.questions.map((q: { id: string }) => q.id);
    assert.ok(!ids.includes(late.id));
  });

  it('draws per attempt without repeats, stores the draw, shows the same questions on every read, and totals the attempt’s own marks', async () => {
    const { test, pool, fixed } = await poolTest({ poolSize: 6, draw: 3, extra: { max_attempts: 3 } });
    assert.equal((await post(`/api/tests/${test.id}/publish`, undefined, as(tenant.admin.token))).status, 200);
    const student = await createUser('student', tenant.client.id);
    const started = await post('/api/attempts', { test_id: test.id }, as(student.token));
    assert.equal(started.status, 201, started.text);
    const questions: Array<{ id: string; marks: number }> = started.body.test_details.questions;
    const ids = questions.map((q) => q.id);
    assert.equal(ids.length, 4);
    assert.equal(new Set(ids).size, 4);
    assert.equal(ids[0], fixed[0].id);
    const poolIds = new Set(pool.map((q) => q.id));
    assert.ok(ids.slice(1).every((id) => poolIds.has(id)));
    const total = questions.reduce((sum, q) => sum + q.marks, 0);
    assert.equal(started.body.test_details.total_marks, total);
    const stored = (await attemptDoc(tenant.client.id, started.body.attempt_id).get()).data()!;
    assert.deepEqual(stored.drawn, ids.slice(1));
    assert.equal(stored.total_marks, total);
    const read = await get(`/api/attempts/${started.body.attempt_id}`, as(student.token));
    assert.deepEqual(
      read.body.test_details.questions.map((q: { id: string }) => q.id),
      ids,
    );
    // Resuming shows the same draw.
    const resumed = await post('/api/attempts', { test_id: test.id }, as(student.token));
    assert.equal(resumed.status, 200, resumed.text);
    assert.deepEqual(
      resumed.body.test_details.questions.map((q: { id: string }) => q.id),
      ids,
    );
  });

  it('prefers the questions the student has not seen: a second attempt draws the other three of six', async () => {
    const { test, pool } = await poolTest({ poolSize: 6, draw: 3, extra: { max_attempts: 3 } });
    assert.equal((await post(`/api/tests/${test.id}/publish`, undefined, as(tenant.admin.token))).status, 200);
    const student = await createUser('student', tenant.client.id);
    const drawnOf = async () => {
      const started = await post('/api/attempts', { test_id: test.id }, as(student.token));
      assert.equal(started.status, 201, started.text);
      const submitted = await post(`/api/attempts/${started.body.attempt_id}/submit`, undefined, as(student.token));
      assert.equal(submitted.status, 200, submitted.text);
      return started.body.test_details.questions.slice(1).map((q: { id: string }) => q.id) as string[];
    };
    const first = await drawnOf();
    const second = await drawnOf();
    assert.deepEqual([...first, ...second].sort(), pool.map((q) => q.id).sort());
    const slot = (await slotDoc(tenant.client.id, test.id, student.uid).get()).data()!;
    assert.ok(Array.isArray(slot.seen));
  });

  it('scores a pooled attempt on its own questions and counts each pool question over the attempts that saw it', async () => {
    const { test, pool } = await poolTest({ poolSize: 4, draw: 2, fixed: 1 });
    assert.equal((await post(`/api/tests/${test.id}/publish`, undefined, as(tenant.admin.token))).status, 200);
    const seen = new Map<string, number>();
    for (let i = 0; i < 3; i++) {
      const student = await createUser('student', tenant.client.id);
      const started = await post('/api/attempts', { test_id: test.id }, as(student.token));
      const questions: Array<{ id: string; marks: number }> = started.body.test_details.questions;
      for (const q of questions) seen.set(q.id, (seen.get(q.id) ?? 0) + 1);
      await post(
        `/api/attempts/${started.body.attempt_id}/answers`,
        { answers: questions.map((q) => ({ question_id: q.id, student_answer: '4' })) },
        as(student.token),
      );
      const submitted = await post(`/api/attempts/${started.body.attempt_id}/submit`, undefined, as(student.token));
      assert.equal(submitted.status, 200, submitted.text);
      assert.equal(
        submitted.body.score,
        questions.reduce((sum, q) => sum + q.marks, 0),
      );
      assert.equal(submitted.body.total_marks, submitted.body.score);
    }
    const analytics = await get(`/api/analytics/tests/${test.id}`, as(tenant.admin.token));
    assert.equal(analytics.status, 200, analytics.text);
    assert.equal(analytics.body.completed, 3);
    assert.equal(analytics.body.average_percentage, 100);
    assert.equal(analytics.body.cronbach_alpha, null);
    for (const item of analytics.body.questions)
      assert.equal(item.times_seen, seen.get(item.question_id), item.question_id);
    const listedPool = analytics.body.questions.filter((q: { question_id: string }) =>
      pool.some((p) => p.id === q.question_id),
    );
    assert.equal(listedPool.length, [...seen.keys()].filter((id) => pool.some((p) => p.id === id)).length);
    const recomputed = await post(`/api/analytics/tests/${test.id}/recompute`, undefined, as(tenant.admin.token));
    assert.equal(recomputed.status, 200, recomputed.text);
    assert.equal(recomputed.body.changed, false);
  });
});
