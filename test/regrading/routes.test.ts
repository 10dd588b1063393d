import assert from 'node:assert/strict';
import { expectError, expectValidation } from '../support/assertions';
import { auditRecordsFor, createTenant, createUser } from '../support/fixtures';
import { get, post } from '../support/http';
import { as, versionDoc, writeFolder, writeQuestion } from '../exams/fixtures';
import { attemptDoc, publishTest, startOk } from '../attempts/fixtures';
import { essayQuestion } from '../grading/fixtures';

// Regrading: a key published wrong is corrected on the frozen version, and
// every submitted attempt is rescored (a dry run first, writing nothing).

describe('POST /api/tests/{testId}/versions/{version}/regrade', () => {
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  before(async function () {
    this.timeout(30_000);
    tenant = await createTenant();
  });

  /** A published test whose first question's key is wrong ("5" instead of "4"), and three takers: two answered "4", one "5". */
  async function wronglyKeyed() {
    const wrong = await writeQuestion(tenant.client.id, {
      question_text: 'What is 2 + 2?',
      options: ['3', '4', '5'],
      correct_answer: '5',
      marks: 2,
    });
    const other = await writeQuestion(tenant.client.id, {
      question_text: 'Capital of France?',
      options: ['Paris', 'Rome'],
      correct_answer: 'Paris',
      marks: 1,
    });
    const { test } = await publishTest(tenant.admin.token, tenant.client.id, { questions: [wrong, other] });
    const takers = [];
    for (const answer of ['4', '4', '5']) {
      const student = await createUser('student', tenant.client.id);
      const started = await startOk(student.token, { test_id: test.id });
      await post(
        `/api/attempts/${started.attempt_id}/answers`,
        {
          answers: [
            { question_id: wrong.id, student_answer: answer },
            { question_id: other.id, student_answer: 'Paris' },
          ],
        },
        as(student.token),
      );
      const done = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
      assert.equal(done.status, 200, done.text);
      takers.push({ student, attemptId: started.attempt_id as string, answer });
    }
    return { test, wrong, other, takers };
  }

  // Regrading counts against the strict per-user limit (10 a minute): each test regrades as an administrator of its own.
  let grader: Awaited<ReturnType<typeof createUser>>;
  beforeEach(async () => {
    grader = await createUser('client_admin', tenant.client.id);
  });

  const regrade = (testId: string, body: Record<string, unknown>, token = grader.token, version = 1) =>
    post(`/api/tests/${testId}/versions/${version}/regrade`, body, as(token));

  it('dry run: lists every attempt whose score would change, before and after, and writes nothing', async () => {
    const { test, wrong, takers } = await wronglyKeyed();
    const res = await regrade(test.id, { question_id: wrong.id, correct_answer: '4', dry_run: true });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.dry_run, true);
    assert.equal(res.body.attempts_checked, 3);
    const byId = new Map(res.body.changed.map((c: { attempt_id: string }) => [c.attempt_id, c]));
    assert.equal(byId.size, 3);
    assert.deepEqual((byId.get(takers[0].attemptId) as any).before, { score: 1, total_marks: 3, percentage: 33.3333 });
    assert.deepEqual((byId.get(takers[0].attemptId) as any).after, { score: 3, total_marks: 3, percentage: 100 });
    assert.deepEqual((byId.get(takers[2].attemptId) as any).after.score, 1);
    const version = (await versionDoc(tenant.client.id, test.id, 1).get()).data()!;
    assert.equal(version.questions[0].correct_answer, '5');
    assert.equal((await attemptDoc(tenant.client.id, takers[0].attemptId).get()).get('score'), 1);
  });

  it('applies: corrects the frozen key, rescores the attempts, audits each, and keeps the analytics equal to a recompute', async () => {
    const { test, wrong, takers } = await wronglyKeyed();
    const res = await regrade(test.id, { question_id: wrong.id, correct_answer: '4' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.corrected, true);
    assert.equal(res.body.revision, 1);
    assert.equal(res.body.changed.length, 3);
    const version = (await versionDoc(tenant.client.id, test.id, 1).get()).data()!;
    assert.equal(version.questions[0].correct_answer, '4');
    assert.equal(version.revision, 1);
    const scores = await Promise.all(
      takers.map(async (t) => (await attemptDoc(tenant.client.id, t.attemptId).get()).get('score')),
    );
    assert.deepEqual(scores, [3, 3, 1]);
    for (const taker of takers) assert.equal((await auditRecordsFor(taker.student.uid, 'attempt_regraded')).length, 1);
    const analytics = await get(`/api/analytics/tests/${test.id}`, as(tenant.admin.token));
    assert.equal(analytics.body.average_score, round(7 / 3));
    const recomputed = await post(`/api/analytics/tests/${test.id}/recompute`, undefined, as(tenant.admin.token));
    assert.equal(recomputed.body.changed, false, recomputed.text);
  });

  it('sent again: finds the question corrected, changes no attempt and writes no audit record twice', async () => {
    const { test, wrong, takers } = await wronglyKeyed();
    assert.equal((await regrade(test.id, { question_id: wrong.id, correct_answer: '4' })).status, 200);
    const again = await regrade(test.id, { question_id: wrong.id, correct_answer: '4' });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.corrected, false);
    assert.equal(again.body.revision, 1);
    assert.deepEqual(again.body.changed, []);
    for (const taker of takers) assert.equal((await auditRecordsFor(taker.student.uid, 'attempt_regraded')).length, 1);
  });

  it('changes marks: the attempts’ totals follow, and an attempt in progress is scored with the correction when submitted', async () => {
    const { test, wrong, takers } = await wronglyKeyed();
    const student = await createUser('student', tenant.client.id);
    const running = await startOk(student.token, { test_id: test.id });
    await post(
      `/api/attempts/${running.attempt_id}/answers`,
      { question_id: wrong.id, student_answer: '4' },
      as(student.token),
    );
    const res = await regrade(test.id, { question_id: wrong.id, correct_answer: '4', marks: 4 });
    assert.equal(res.status, 200, res.text);
    assert.equal((await attemptDoc(tenant.client.id, takers[0].attemptId).get()).get('total_marks'), 5);
    assert.equal((await attemptDoc(tenant.client.id, running.attempt_id).get()).get('key_revision'), 1);
    const done = await post(`/api/attempts/${running.attempt_id}/submit`, undefined, as(student.token));
    assert.equal(done.body.score, 4);
    assert.equal(done.body.total_marks, 5);
    const recomputed = await post(`/api/analytics/tests/${test.id}/recompute`, undefined, as(tenant.admin.token));
    assert.equal(recomputed.body.changed, false, recomputed.text);
  });

  it('regrades a pool question: the attempts that drew it are rescored', async () => {
    const folder = await writeFolder(tenant.client.id, `Regrade pool ${Math.random()}`);
    const pooled = await writeQuestion(tenant.client.id, {
      folder_id: folder.id,
      question_text: 'Pooled',
      options: ['a', 'b'],
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
    await post(
      `/api/attempts/${started.attempt_id}/answers`,
      { question_id: pooled.id, student_answer: 'b' },
      as(student.token),
    );
    assert.equal(
      (await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token))).body.score,
      0,
    );
    const res = await regrade(test.id, { question_id: pooled.id, correct_answer: 'b' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.changed.length, 1);
    assert.equal((await attemptDoc(tenant.client.id, started.attempt_id).get()).get('score'), 1);
    const recomputed = await post(`/api/analytics/tests/${test.id}/recompute`, undefined, as(tenant.admin.token));
    assert.equal(recomputed.body.changed, false, recomputed.text);
  });

  it('keeps the correction when an essay of a rescored attempt is graded afterwards (a cached version is not used)', async () => {
    const choice = await writeQuestion(tenant.client.id, { options: ['3', '4'], correct_answer: '4', marks: 2 });
    const essay = await essayQuestion(tenant.client.id, { marks: 10 });
    const { test } = await publishTest(tenant.admin.token, tenant.client.id, { questions: [choice, essay] });
    const student = await createUser('student', tenant.client.id);
    const started = await startOk(student.token, { test_id: test.id });
    const answers = [
      { question_id: choice.id, student_answer: '4' },
      { question_id: essay.id, student_answer: 'An essay' },
    ];
    await post(`/api/attempts/${started.attempt_id}/answers`, { answers }, as(student.token));
    assert.equal(
      (await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token))).body.score,
      2,
    );
    assert.equal((await regrade(test.id, { question_id: choice.id, correct_answer: '3' })).status, 200);
    const graded = await post(
      `/api/attempts/${started.attempt_id}/grades`,
      { question_id: essay.id, marks: 5 },
      as(tenant.admin.token),
    );
    assert.equal(graded.status, 200, graded.text);
    assert.equal(graded.body.score, 5);
    const review = await get(`/api/attempts/${started.attempt_id}`, as(tenant.admin.token));
    assert.equal(
      review.body.review.find((r: { question_id: string }) => r.question_id === choice.id).correct_answer,
      '3',
    );
  });

  it('refuses an invalid key for the type (400), an essay (400), nothing to change (400), a question or version the test lacks (404)', async () => {
    const { test, wrong } = await wronglyKeyed();
    expectValidation(await regrade(test.id, { question_id: wrong.id, correct_answer: 'seven' }), [
      'body.correct_answer',
    ]);
    expectValidation(await regrade(test.id, { question_id: wrong.id }), []);
    expectValidation(await regrade(test.id, { question_id: wrong.id, tolerance: 1 }), ['body.tolerance']);
    expectError(await regrade(test.id, { question_id: 'not-in-it', correct_answer: '4' }), 404, 'NOT_FOUND');
    expectError(
      await regrade(test.id, { question_id: wrong.id, correct_answer: '4' }, grader.token, 2),
      404,
      'NOT_FOUND',
    );
    const essay = await essayQuestion(tenant.client.id);
    const { test: essayTest } = await publishTest(tenant.admin.token, tenant.client.id, { questions: [essay] });
    expectValidation(await regrade(essayTest.id, { question_id: essay.id, marks: 3 }), ['body.question_id']);
  });

  it('refuses a student (403) and another organization’s admin (403)', async () => {
    const { test, wrong } = await wronglyKeyed();
    expectError(
      await regrade(test.id, { question_id: wrong.id, correct_answer: '4' }, tenant.student.token),
      403,
      'FORBIDDEN',
    );
    const other = await createTenant();
    expectError(
      await regrade(test.id, { question_id: wrong.id, correct_answer: '4' }, other.admin.token),
      403,
      'FORBIDDEN',
    );
  });
});

const round = (x: number) => Math.round(x * 10_000) / 10_000;
