import assert from 'node:assert/strict';
import { expectError, expectValidation } from '../support/assertions';
import { auditRecordsFor, createTenant, createUser } from '../support/fixtures';
import { get, post } from '../support/http';
import { as } from '../exams/fixtures';
import { attemptDoc, startOk } from '../attempts/fixtures';
import { essayTest } from './fixtures';

// Essays: scored on submit for everything else, pending until a person grades
// them through the test's grading queue; the analytics count a score once it
// is complete.

describe('Essays, GET /api/tests/{testId}/grading and POST /api/attempts/{attemptId}/grades', () => {
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  before(async function () {
    this.timeout(30_000);
    tenant = await createTenant();
  });

  /** A student's attempt on the test, answered (choice right, each essay a sentence) and submitted. */
  async function submitted(
    testId: string,
    essayIds: string[],
    choiceId: string,
    essayAnswer = 'Plants turn light into sugar.',
  ) {
    const student = await createUser('student', tenant.client.id);
    const started = await startOk(student.token, { test_id: testId });
    const answers = [
      { question_id: choiceId, student_answer: '4' },
      ...essayIds.map((id) => ({ question_id: id, student_answer: essayAnswer })),
    ];
    const saved = await post(`/api/attempts/${started.attempt_id}/answers`, { answers }, as(student.token));
    assert.equal(saved.status, 200, saved.text);
    const done = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
    assert.equal(done.status, 200, done.text);
    return { student, attemptId: started.attempt_id as string, submit: done.body };
  }

  it('scores the rest on submit and marks the attempt pending with the essay’s marks', async () => {
    const { test, essays, choice } = await essayTest(tenant.admin.token, tenant.client.id);
    const { submit, attemptId, student } = await submitted(test.id, [essays[0].id], choice.id);
    assert.deepEqual(submit, {
      status: 'submitted',
      score: 2,
      total_marks: 12,
      submitted_at: submit.submitted_at,
      grading: 'pending',
      pending_marks: 10,
    });
    const read = await get(`/api/attempts/${attemptId}`, as(student.token));
    assert.equal(read.body.grading, 'pending');
    assert.equal(read.body.pending_marks, 10);
    const essay = read.body.test_details.questions.find((q: { id: string }) => q.id === essays[0].id);
    assert.equal(essay.max_words, 50);
  });

  it('takes an essay answer of up to 10,000 characters, and refuses one past max_words (400 naming it)', async () => {
    const { test, essays } = await essayTest(tenant.admin.token, tenant.client.id);
    const student = await createUser('student', tenant.client.id);
    const started = await startOk(student.token, { test_id: test.id });
    const long = await post(
      `/api/attempts/${started.attempt_id}/answers`,
      { question_id: essays[0].id, student_answer: 'word '.repeat(51) },
      as(student.token),
    );
    expectValidation(long, ['body.student_answer'], ['at most 50 words']);
    const fits = await post(
      `/api/attempts/${started.attempt_id}/answers`,
      { question_id: essays[0].id, student_answer: 'x'.repeat(10_000) },
      as(student.token),
    );
    assert.equal(fits.status, 200, fits.text);
    const choice = test.question_ids[0];
    const tooLong = await post(
      `/api/attempts/${started.attempt_id}/answers`,
      { question_id: choice, student_answer: 'x'.repeat(2_001) },
      as(student.token),
    );
    expectValidation(tooLong, ['body.student_answer'], ['2000']);
  });

  it('completes an attempt whose essays were all left blank at submit: nothing to grade', async () => {
    const { test } = await essayTest(tenant.admin.token, tenant.client.id);
    const student = await createUser('student', tenant.client.id);
    const started = await startOk(student.token, { test_id: test.id });
    const done = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
    assert.equal(done.body.grading, 'complete');
    assert.equal(done.body.pending_marks, 0);
    const queue = await get(`/api/tests/${test.id}/grading`, as(tenant.admin.token));
    assert.equal(queue.body.pagination.total, 0);
  });

  it('lists the ungraded answers oldest first, with names unless blind', async () => {
    const { test, essays, choice } = await essayTest(tenant.admin.token, tenant.client.id, 2);
    const first = await submitted(
      test.id,
      essays.map((e) => e.id),
      choice.id,
      'First answer',
    );
    const queue = await get(`/api/tests/${test.id}/grading?limit=10`, as(tenant.admin.token));
    assert.equal(queue.status, 200, queue.text);
    assert.equal(queue.body.pagination.total, 2);
    assert.deepEqual(
      queue.body.data.map((i: { question_id: string }) => i.question_id).sort(),
      essays.map((e) => e.id).sort(),
    );
    assert.equal(queue.body.data[0].student_id, first.student.uid);
    assert.equal(queue.body.data[0].student_answer, 'First answer');
    const blind = await get(
      `/api/tests/${test.id}/grading?blind=true&question_id=${essays[1].id}`,
      as(tenant.admin.token),
    );
    assert.equal(blind.body.pagination.total, 1);
    assert.equal(blind.body.data[0].student_id, null);
    assert.equal(blind.body.data[0].guest_name, null);
    assert.equal(blind.body.data[0].question_id, essays[1].id);
  });

  it('refuses the queue to a student (403) and to another organization’s admin (403)', async () => {
    const { test } = await essayTest(tenant.admin.token, tenant.client.id);
    expectError(await get(`/api/tests/${test.id}/grading`, as(tenant.student.token)), 403, 'FORBIDDEN');
    const other = await createTenant();
    expectError(await get(`/api/tests/${test.id}/grading`, as(other.admin.token)), 403, 'FORBIDDEN');
  });

  it('grades: the score completes, the queue empties, the grade is audited, and the analytics count it once', async () => {
    const { test, essays, choice } = await essayTest(tenant.admin.token, tenant.client.id);
    const { attemptId, student } = await submitted(test.id, [essays[0].id], choice.id);
    let analytics = await get(`/api/analytics/tests/${test.id}`, as(tenant.admin.token));
    assert.equal(analytics.body.completed, 0);
    assert.equal(analytics.body.pending_grading, 1);
    const graded = await post(
      `/api/attempts/${attemptId}/grades`,
      { question_id: essays[0].id, marks: 7.5, feedback: 'Good, but name chlorophyll.' },
      as(tenant.admin.token),
    );
    assert.equal(graded.status, 200, graded.text);
    assert.deepEqual(graded.body, {
      attempt_id: attemptId,
      question_id: essays[0].id,
      marks: 7.5,
      feedback: 'Good, but name chlorophyll.',
      previous_marks: null,
      score: 9.5,
      total_marks: 12,
      grading: 'complete',
      pending_marks: 0,
    });
    const stored = (await attemptDoc(tenant.client.id, attemptId).get()).data()!;
    assert.equal(stored.score, 9.5);
    assert.equal(stored.grading, 'complete');
    const queue = await get(`/api/tests/${test.id}/grading`, as(tenant.admin.token));
    assert.equal(queue.body.pagination.total, 0);
    analytics = await get(`/api/analytics/tests/${test.id}`, as(tenant.admin.token));
    assert.equal(analytics.body.completed, 1);
    assert.equal(analytics.body.pending_grading, 0);
    assert.equal(analytics.body.average_score, 9.5);
    const audit = await auditRecordsFor(student.uid, 'essay_graded');
    assert.equal(audit.length, 1);
    assert.equal(audit[0].details.marks, 7.5);
    // The student sees the feedback in its review.
    const read = await get(`/api/attempts/${attemptId}`, as(student.token));
    const item = read.body.review.find((r: { question_id: string }) => r.question_id === essays[0].id);
    assert.equal(item.feedback, 'Good, but name chlorophyll.');
    assert.equal(item.correct_answer, null);
    assert.equal(item.marks_awarded, 7.5);
  });

  it('leaves a pending attempt out of the highest and lowest scores, the distribution and the item analysis, then counts it once when graded', async () => {
    const { test, essays, choice } = await essayTest(tenant.admin.token, tenant.client.id);
    const { attemptId } = await submitted(test.id, [essays[0].id], choice.id); // 2 so far, the essay pending
    const blank = await createUser('student', tenant.client.id);
    const other = await startOk(blank.token, { test_id: test.id });
    assert.equal((await post(`/api/attempts/${other.attempt_id}/submit`, undefined, as(blank.token))).body.score, 0); // nothing answered: complete, 0
    const count = (bands: Array<{ count: number }>) => bands.reduce((sum, band) => sum + band.count, 0);
    const question = (body: any, id: string) =>
      body.questions.find((q: { question_id: string }) => q.question_id === id);

    let analytics = (await get(`/api/analytics/tests/${test.id}`, as(tenant.admin.token))).body;
    assert.deepEqual([analytics.total_attempts, analytics.completed, analytics.pending_grading], [2, 1, 1]);
    assert.deepEqual(
      [analytics.average_score, analytics.highest_score, analytics.lowest_score],
      [0, 0, 0],
      'only the complete attempt',
    );
    assert.equal(count(analytics.score_distribution), 1);
    assert.deepEqual(
      [question(analytics, choice.id).times_seen, question(analytics, choice.id).times_answered],
      [1, 0],
    );
    assert.equal(question(analytics, essays[0].id).times_answered, 0);

    assert.equal(
      (await post(`/api/attempts/${attemptId}/grades`, { question_id: essays[0].id, marks: 5 }, as(tenant.admin.token)))
        .status,
      200,
    );
    analytics = (await get(`/api/analytics/tests/${test.id}`, as(tenant.admin.token))).body;
    assert.deepEqual([analytics.total_attempts, analytics.completed, analytics.pending_grading], [2, 2, 0]);
    assert.deepEqual([analytics.average_score, analytics.highest_score, analytics.lowest_score], [3.5, 7, 0]);
    assert.equal(count(analytics.score_distribution), 2);
    assert.deepEqual(
      [question(analytics, choice.id).times_seen, question(analytics, choice.id).times_answered],
      [2, 1],
    );
    assert.deepEqual(
      [question(analytics, essays[0].id).times_answered, question(analytics, essays[0].id).mean_mark],
      [1, 2.5],
    );
    const recomputed = await post(`/api/analytics/tests/${test.id}/recompute`, undefined, as(tenant.admin.token));
    assert.equal(recomputed.body.changed, false, recomputed.text);
    assert.equal(recomputed.body.analytics.highest_score, 7);
  });

  it('changes a grade later: the analytics follow without counting the attempt twice (equal to a recompute)', async () => {
    const { test, essays, choice } = await essayTest(tenant.admin.token, tenant.client.id);
    const { attemptId } = await submitted(test.id, [essays[0].id], choice.id);
    assert.equal(
      (await post(`/api/attempts/${attemptId}/grades`, { question_id: essays[0].id, marks: 4 }, as(tenant.admin.token)))
        .status,
      200,
    );
    const changed = await post(
      `/api/attempts/${attemptId}/grades`,
      { question_id: essays[0].id, marks: 10 },
      as(tenant.admin.token),
    );
    assert.equal(changed.body.previous_marks, 4);
    assert.equal(changed.body.score, 12);
    const analytics = await get(`/api/analytics/tests/${test.id}`, as(tenant.admin.token));
    assert.equal(analytics.body.completed, 1);
    assert.equal(analytics.body.average_score, 12);
    const recomputed = await post(`/api/analytics/tests/${test.id}/recompute`, undefined, as(tenant.admin.token));
    assert.equal(recomputed.body.changed, false, recomputed.text);
  });

  it('refuses marks above the question’s (400), a question that is not an essay (400), an attempt in progress (409), and a student (403)', async () => {
    const { test, essays, choice } = await essayTest(tenant.admin.token, tenant.client.id);
    const { attemptId, student } = await submitted(test.id, [essays[0].id], choice.id);
    expectValidation(
      await post(`/api/attempts/${attemptId}/grades`, { question_id: essays[0].id, marks: 11 }, as(tenant.admin.token)),
      ['body.marks'],
    );
    expectValidation(
      await post(`/api/attempts/${attemptId}/grades`, { question_id: choice.id, marks: 1 }, as(tenant.admin.token)),
      ['body.question_id'],
    );
    expectValidation(
      await post(`/api/attempts/${attemptId}/grades`, { question_id: essays[0].id, marks: -1 }, as(tenant.admin.token)),
      ['body.marks'],
    );
    expectError(
      await post(`/api/attempts/${attemptId}/grades`, { question_id: essays[0].id, marks: 1 }, as(student.token)),
      403,
      'FORBIDDEN',
    );
    const other = await createTenant();
    expectError(
      await post(`/api/attempts/${attemptId}/grades`, { question_id: essays[0].id, marks: 1 }, as(other.admin.token)),
      403,
      'FORBIDDEN',
    );
    const running = await startOk((await createUser('student', tenant.client.id)).token, { test_id: test.id });
    expectError(
      await post(
        `/api/attempts/${running.attempt_id}/grades`,
        { question_id: essays[0].id, marks: 1 },
        as(tenant.admin.token),
      ),
      409,
      'CONFLICT',
    );
    expectError(
      await post(
        `/api/attempts/${tenant.client.id}.nope/grades`,
        { question_id: essays[0].id, marks: 1 },
        as(tenant.admin.token),
      ),
      404,
      'NOT_FOUND',
    );
  });
});
