import assert from 'node:assert/strict';
import { failReads, failWrites, holdFirstQuery } from '../support/faults';
import { createTenant, createUser, type TestUser } from '../support/fixtures';
import { freshIp, get, post, type RequestOptions } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { attemptDoc, expire, mixedQuestions, publishTest } from '../attempts/fixtures';

// The sums a test's analytics are read from are kept by the start and submit
// transactions themselves (analytics/store.ts). Here, with the real app
// in-process so that requests truly overlap: after any mix of submits,
// automatic submits and duplicate concurrent submits, the kept sums equal the
// sums recomputed from the attempts; a repair running among submits loses none
// of them; and a failed write of the sums fails the submit whole.

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;

const at = (token: string): RequestOptions => ({ token, ip: freshIp(), baseUrl: server.baseUrl });

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
});
after(() => server.close());

/** A small seeded generator, so a failing mix can be replayed (ANALYTICS_MIX_SEED). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CHOICES: Record<string, string[]> = {
  'Capital of France?': ['Paris', 'Rome', 'Oslo', 'paris ', 'Lyon'],
  'Primes?': ['2|3', '2', '3|4', '2|3|4', '4'],
  'Water is wet': ['true', 'false', 'TRUE'],
  'Spell cat': ['cat', 'dog', ' CAT'],
  'Pi to 2 places': ['3.14', '3.2', '3', 'pi'],
};

type Ending = 'submit' | 'concurrent submits' | 'automatic' | 'left open';

async function startAndAnswer(student: TestUser, testId: string, rand: () => number) {
  const started = await post('/api/attempts', { test_id: testId }, at(student.token));
  assert.equal(started.status, 201, started.text);
  const questions: Array<{ id: string; question_text: string }> = started.body.test_details.questions;
  const answered = questions.filter(() => rand() < 0.8);
  const saves = await Promise.all(
    answered.map((q) => {
      const choices = CHOICES[q.question_text];
      return post(
        `/api/attempts/${started.body.attempt_id}/answers`,
        { question_id: q.id, student_answer: choices[Math.floor(rand() * choices.length)] },
        at(student.token),
      );
    }),
  );
  for (const s of saves) assert.equal(s.status, 200, s.text);
  return started.body.attempt_id as string;
}

async function finish(student: TestUser, attemptId: string, ending: Ending): Promise<void> {
  const submit = () => post(`/api/attempts/${attemptId}/submit`, undefined, at(student.token));
  if (ending === 'submit') assert.equal((await submit()).status, 200);
  if (ending === 'concurrent submits') {
    const results = await Promise.all(Array.from({ length: 6 }, submit));
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 409, 409, 409, 409, 409]);
  }
  if (ending === 'automatic') {
    await expire(tenant.clientId, attemptId);
    // Any read meeting an overdue attempt submits it, with the answers saved in time.
    const read = await get(`/api/attempts/${attemptId}`, at(student.token));
    assert.equal(read.body.status, 'submitted', read.text);
    assert.equal(read.body.auto_submitted, true);
  }
}

async function keptAndRecomputed(testId: string) {
  const kept = await get(`/api/analytics/tests/${testId}`, at(tenant.admin.token));
  assert.equal(kept.status, 200, kept.text);
  const repaired = await post(`/api/analytics/tests/${testId}/recompute`, undefined, at(tenant.admin.token));
  assert.equal(repaired.status, 200, repaired.text);
  return { kept: kept.body, repaired: repaired.body };
}

describe('analytics kept by the submit transactions', function () {
  this.timeout(300_000);

  it('equal the sums recomputed from the attempts after a random mix of submits, automatic submits and concurrent submits', async () => {
    const seed = Number(process.env.ANALYTICS_MIX_SEED ?? Date.now() % 1_000_000);
    const rand = random(seed);
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, {
      questions: await mixedQuestions(tenant.clientId),
      extra: { negative_marking: 1, negative_mark_ratio: 0.5 },
    });
    const endings: Ending[] = ['submit', 'concurrent submits', 'automatic', 'left open'];
    const students = await Promise.all(Array.from({ length: 14 }, () => createUser('student', tenant.clientId)));
    const plan = students.map((student) => ({ student, ending: endings[Math.floor(rand() * endings.length)] }));
    // Everyone at once: starts, saves and the different endings overlap.
    await Promise.all(
      plan.map(async ({ student, ending }) => {
        const attemptId = await startAndAnswer(student, test.id, rand);
        await finish(student, attemptId, ending);
      }),
    );
    const { kept, repaired } = await keptAndRecomputed(test.id);
    const context = `seed ${seed}, endings ${JSON.stringify(plan.map((p) => p.ending))}`;
    assert.equal(repaired.changed, false, `the kept sums had drifted (${context})`);
    assert.deepEqual(repaired.analytics, kept, context);
    assert.equal(kept.total_attempts, plan.length, context);
    assert.equal(kept.completed, plan.filter((p) => p.ending !== 'left open').length, context);
    assert.equal(kept.auto_submitted, plan.filter((p) => p.ending === 'automatic').length, context);
  });

  it('loses no submit made while a repair is between reading the attempts and rewriting the sums', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, {
      questions: await mixedQuestions(tenant.clientId),
    });
    const students = await Promise.all(Array.from({ length: 16 }, () => createUser('student', tenant.clientId)));
    const rand = random(7);
    const attempts = await Promise.all(
      students.map(async (student) => ({ student, attemptId: await startAndAnswer(student, test.id, rand) })),
    );
    // Half submitted before, so the repair has attempts to read; the rest submit while it holds what it read.
    await Promise.all(attempts.slice(0, 8).map(({ student, attemptId }) => finish(student, attemptId, 'submit')));
    const hold = holdFirstQuery(new RegExp(`^clients/${tenant.clientId}/attempts$`), 2_000);
    let repair;
    try {
      const repairing = post(`/api/analytics/tests/${test.id}/recompute`, undefined, at(tenant.admin.token));
      await hold.reached;
      await Promise.all(attempts.slice(8).map(({ student, attemptId }) => finish(student, attemptId, 'submit')));
      repair = await repairing;
    } finally {
      hold.heal();
    }
    assert.equal(
      repair.status,
      200,
      `${repair.text} ${JSON.stringify(server.logs.filter((e) => e.severity === 'ERROR').slice(-3))}`,
    );
    const kept = (await get(`/api/analytics/tests/${test.id}`, at(tenant.admin.token))).body;
    assert.equal(kept.completed, 16, 'every submit counted once');
    assert.equal(kept.total_attempts, 16);
    const { repaired } = await keptAndRecomputed(test.id);
    assert.equal(repaired.changed, false);
  });

  it('fails the submit whole (503) when its sums cannot be written: the attempt stays in progress and nothing is counted', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
    const student = await createUser('student', tenant.clientId);
    const started = await post('/api/attempts', { test_id: test.id }, at(student.token));
    const heal = failWrites(/\/stats_shards\//);
    let refused;
    try {
      refused = await post(`/api/attempts/${started.body.attempt_id}/submit`, undefined, at(student.token));
    } finally {
      heal();
    }
    assert.equal(refused.status, 503, refused.text);
    assert.equal((await attemptDoc(tenant.clientId, started.body.attempt_id).get()).get('status'), 'in_progress');
    assert.equal((await get(`/api/analytics/tests/${test.id}`, at(tenant.admin.token))).body.completed, 0);
    const retried = await post(`/api/attempts/${started.body.attempt_id}/submit`, undefined, at(student.token));
    assert.equal(retried.status, 200, retried.text);
    assert.equal((await get(`/api/analytics/tests/${test.id}`, at(tenant.admin.token))).body.completed, 1);
  });

  it('answers 503 SERVICE_UNAVAILABLE, never a 401 or 403, when the sums cannot be read', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
    const heal = failReads(/\/stats_shards\//);
    let res;
    try {
      res = await get(`/api/analytics/tests/${test.id}`, at(tenant.admin.token));
    } finally {
      heal();
    }
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.error, 'SERVICE_UNAVAILABLE');
    assert.ok(res.headers.get('retry-after'));
  });
});
