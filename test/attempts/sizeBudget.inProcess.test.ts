import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { closeOverdueAttempts } from '../../functions/src/attempts/service';
import {
  answerOverBudget,
  ATTEMPT_BUDGET_BYTES,
  attemptBytes,
  submission,
  type VersionForAttempt,
} from '../../functions/src/attempts/rules';
import type { StoredAnswer, StoredAttempt } from '../../functions/src/attempts/documents';
import { hashAttemptToken, newAttemptToken } from '../../functions/src/attempts/tokens';
import { MAX_ANSWER_LENGTH } from '../../functions/src/attempts/schemas';
import { MAX_QUESTIONS_PER_TEST } from '../../functions/src/exams/schemas';
import type { FrozenQuestion, StoredTest, TestVersion } from '../../functions/src/exams/documents';
import { MAX_DOCUMENT_BYTES } from '../../functions/src/exams/versionSize';
import { MAX_ID_LENGTH } from '../../functions/src/shared/ids';
import { expectError } from '../support/assertions';
import { loggedDuring } from '../support/faults';
import { createTenant, createUser } from '../support/fixtures';
import { freshIp, get, post, type RequestOptions } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { testDoc } from '../exams/fixtures';
import { attemptDoc } from './fixtures';

// One attempt must never outgrow Firestore's 1 MiB document: saves are
// measured against a budget, and an attempt that cannot be closed anyway
// (stored too large before there was a budget, its version missing) is
// isolated: the closer and the lists go on for every other attempt.
// The largest test the limits allow is written with the Admin SDK (500
// questions, 128-character ids); answers go through the real app in-process.

/** 2,000 characters of 3 UTF-8 bytes each: the longest answer in bytes the limits allow. */
const LONGEST = '語'.repeat(MAX_ANSWER_LENGTH);
const MARKS = 2;
const TOO_LARGE_ANSWERS = 155;

/** 500 question ids of 128 characters, unique to this run. */
function largestQuestionIds(): string[] {
  const run = randomUUID().replace(/-/g, '');
  return Array.from({ length: MAX_QUESTIONS_PER_TEST }, (_, i) =>
    `${String(i).padStart(3, '0')}${run}`.padEnd(MAX_ID_LENGTH, 'q'),
  );
}

/** A published test and its frozen version, in the shapes the exams feature stores: short answers, key "ok". */
async function writePublishedTest(
  clientId: string,
  publishedBy: string,
  questionIds: string[],
): Promise<{ testId: string; version: TestVersion }> {
  const now = new Date().toISOString();
  const questions: FrozenQuestion[] = questionIds.map((id, i) => ({
    id,
    question_text: `Question ${i + 1}`,
    question_type: 'short_answer',
    options: [],
    correct_answer: 'ok',
    tolerance: null,
    marks: MARKS,
    difficulty: 'easy',
  }));
  const test: StoredTest = {
    id: randomUUID(),
    client_id: clientId,
    test_name: 'Largest test',
    timer: 60,
    shuffle: 0,
    allow_review: 1,
    negative_marking: 0,
    status: 'published',
    folder_id: null,
    question_ids: questionIds,
    description: null,
    max_attempts: null,
    negative_mark_ratio: 0.25,
    created_at: now,
    updated_at: now,
    published_at: now,
    version: 1,
  };
  const version: TestVersion = {
    version: 1,
    test_id: test.id,
    client_id: clientId,
    published_at: now,
    published_by: publishedBy,
    test: {
      test_name: test.test_name,
      timer: test.timer,
      shuffle: test.shuffle,
      allow_review: test.allow_review,
      negative_marking: test.negative_marking,
      description: null,
      max_attempts: null,
      negative_mark_ratio: 0.25,
      question_ids: questionIds,
    },
    questions,
    total_marks: MARKS * questions.length,
  };
  await Promise.all([
    testDoc(clientId, test.id).set(test),
    testDoc(clientId, test.id).collection('versions').doc('1').set(version),
  ]);
  return { testId: test.id, version };
}

/** An attempt in progress as the service stores it, written directly (its answers and deadline as given). */
function attemptRecord(
  clientId: string,
  testId: string,
  studentId: string,
  questionIds: string[],
  fields: Partial<StoredAttempt> = {},
): StoredAttempt {
  const id = `${clientId}.${randomUUID().replace(/-/g, '')}`;
  const started = new Date();
  return {
    id,
    client_id: clientId,
    test_id: testId,
    version: 1,
    student_id: studentId,
    guest: false,
    guest_name: null,
    share_code: null,
    started_by: studentId,
    status: 'in_progress',
    started_at: started.toISOString(),
    expires_at: new Date(started.getTime() + 3_600_000).toISOString(),
    submitted_at: null,
    auto_submitted: false,
    answers: {},
    question_order: questionIds,
    token_hash: hashAttemptToken(newAttemptToken()),
    score: null,
    total_marks: MARKS * questionIds.length,
    results: null,
    ...fields,
  };
}

/** `count` answers of the longest kind, saved at `savedAt`. */
const longAnswers = (questionIds: string[], count: number, savedAt: string): Record<string, StoredAnswer> =>
  Object.fromEntries(questionIds.slice(0, count).map((id) => [id, { answer: LONGEST, saved_at: savedAt }]));

const pathOf = (a: { client_id: string; id: string }) => `clients/${a.client_id}/attempts/${a.id}`;

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;
let questionIds: string[];
let largest: { testId: string; version: TestVersion };
const at = (token: string): RequestOptions => ({ token, ip: freshIp(), baseUrl: server.baseUrl });

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
  questionIds = largestQuestionIds();
  largest = await writePublishedTest(tenant.clientId, tenant.admin.uid, questionIds);
});
after(() => server.close());

describe('attempt size budget (rule)', () => {
  it('a full attempt of the largest test the limits allow, filled to its budget with the longest answers, still fits in one document once submitted', () => {
    const version = largest.version as VersionForAttempt;
    const attempt = attemptRecord('c'.repeat(MAX_ID_LENGTH), largest.testId, 'u'.repeat(MAX_ID_LENGTH), questionIds);
    const path = pathOf(attempt);
    const savedAt = new Date().toISOString();
    // Longest answers while they fit, then the longest that still fits: the attempt ends within bytes of its budget.
    let next = 0;
    for (; next < questionIds.length; next++) {
      const saved = { answer: LONGEST, saved_at: savedAt };
      if (answerOverBudget(path, attempt, questionIds[next], saved)) break;
      attempt.answers[questionIds[next]] = saved;
    }
    assert.ok(next < questionIds.length, 'the limits allow more answers than the budget holds');
    const fits = (length: number) =>
      !answerOverBudget(path, attempt, questionIds[next], { answer: LONGEST.slice(0, length), saved_at: savedAt });
    let [length, tooLong] = [0, MAX_ANSWER_LENGTH];
    while (tooLong - length > 1) {
      const middle = Math.floor((length + tooLong) / 2);
      if (fits(middle)) length = middle;
      else tooLong = middle;
    }
    attempt.answers[questionIds[next]] = { answer: LONGEST.slice(0, length), saved_at: savedAt };
    const inProgress = attemptBytes(path, attempt);
    assert.ok(
      inProgress <= ATTEMPT_BUDGET_BYTES && inProgress > ATTEMPT_BUDGET_BYTES - 10,
      `${inProgress} bytes in progress`,
    );
    const submitted = { ...attempt, ...submission(attempt, version, { nowMs: Date.now(), automatic: false }) };
    assert.equal(submitted.results.length, MAX_QUESTIONS_PER_TEST);
    const size = attemptBytes(path, submitted);
    assert.ok(size < MAX_DOCUMENT_BYTES, `submitted: ${size} bytes, at most ${MAX_DOCUMENT_BYTES} fit`);
  });

  it('a save that does not make an attempt larger is taken even past the budget (one stored before there was a budget can shrink)', () => {
    const savedAt = new Date().toISOString();
    const attempt = attemptRecord('c1', largest.testId, 'u1', questionIds, {
      answers: longAnswers(questionIds, 160, savedAt),
    });
    assert.ok(attemptBytes(pathOf(attempt), attempt) > ATTEMPT_BUDGET_BYTES);
    assert.equal(answerOverBudget(pathOf(attempt), attempt, questionIds[0], { answer: '', saved_at: savedAt }), false);
    assert.equal(
      answerOverBudget(pathOf(attempt), attempt, questionIds[200], { answer: 'ok', saved_at: savedAt }),
      true,
    );
  });
});

describe('POST /api/attempts/{attemptId}/answers past the attempt’s size budget', function () {
  this.timeout(300_000);

  it('on the largest test the limits allow, saves 2,000 three-byte characters until refused with 413 (nothing written); then submit scores right, and the list and the read answer 200', async () => {
    const student = await createUser('student', tenant.clientId);
    const started = await post('/api/attempts', { test_id: largest.testId }, at(student.token));
    assert.equal(started.status, 201, started.text);
    const attemptId: string = started.body.attempt_id;
    const order: string[] = started.body.test_details.questions.map((q: { id: string }) => q.id);
    assert.equal(order.length, MAX_QUESTIONS_PER_TEST);
    const save = (questionId: string, answer: string) =>
      post(
        `/api/attempts/${attemptId}/answers`,
        { question_id: questionId, student_answer: answer },
        at(student.token),
      );

    // Three right answers (key "ok"), then the longest answers until one is refused.
    for (const id of order.slice(0, 3)) assert.equal((await save(id, ' OK ')).status, 200);
    let next = 3;
    let refused: Awaited<ReturnType<typeof save>> | undefined;
    for (; next < order.length; next++) {
      const res = await save(order[next], LONGEST);
      if (res.status !== 200) {
        refused = res;
        break;
      }
    }
    assert.ok(refused, 'a save is refused before the 500th question');
    expectError(refused, 413, 'PAYLOAD_TOO_LARGE');
    assert.deepEqual(
      refused.body.details.map((d: { path: string }) => d.path),
      ['body.student_answer'],
    );
    const stored = (await attemptDoc(tenant.clientId, attemptId).get()).data() as StoredAttempt;
    assert.equal(stored.answers[order[next]], undefined, 'the refused answer is not written');
    assert.equal(Object.keys(stored.answers).length, next, 'every answer saved before stays');
    assert.ok(next > 100, `${next} answers saved before the budget ran out`);
    assert.ok(attemptBytes(pathOf(stored), stored) <= ATTEMPT_BUDGET_BYTES);
    // Refused again on a retry: the budget holds, it does not drift.
    expectError(await save(order[next + 1], LONGEST), 413, 'PAYLOAD_TOO_LARGE');

    const submitted = await post(`/api/attempts/${attemptId}/submit`, undefined, at(student.token));
    assert.equal(submitted.status, 200, submitted.text);
    assert.equal(submitted.body.score, 3 * MARKS);
    assert.equal(submitted.body.total_marks, MAX_QUESTIONS_PER_TEST * MARKS);
    const after = (await attemptDoc(tenant.clientId, attemptId).get()).data() as StoredAttempt;
    assert.equal(after.results?.length, MAX_QUESTIONS_PER_TEST);
    assert.ok(attemptBytes(pathOf(after), after) < MAX_DOCUMENT_BYTES);

    const list = await get(`/api/attempts?test_id=${largest.testId}&student_id=${student.uid}`, at(tenant.admin.token));
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.data.map((a: any) => [a.attempt_id, a.status, a.score]),
      [[attemptId, 'submitted', 3 * MARKS]],
    );
    const read = await get(`/api/attempts/${attemptId}`, at(tenant.admin.token));
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.answers.length, next);
    assert.equal(read.body.review.filter((r: any) => r.correct).length, 3);
  });
});

describe('an overdue attempt that cannot be closed (too large to score, or its version missing)', function () {
  this.timeout(300_000);
  let other: Awaited<ReturnType<typeof createTenant>>;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tooLarge: StoredAttempt;
  let versionless: StoredAttempt;
  let closable: StoredAttempt[];

  before(async () => {
    other = await createTenant();
    owner = await createUser('student', tenant.clientId);
    // At the head of the closer's order (expires_at ascending), ahead of every attempt other tests leave.
    const head = (ms: number) => new Date(Date.UTC(2000, 0, 1) + ms).toISOString();
    const savedAt = head(-60_000);
    // 155 longest answers: past the budget (as stored before there was one), under 1 MiB until the submit adds its results.
    tooLarge = attemptRecord(tenant.clientId, largest.testId, owner.uid, questionIds, {
      started_at: head(-3_600_000),
      expires_at: head(0),
      answers: longAnswers(questionIds, TOO_LARGE_ANSWERS, savedAt),
    });
    const size = attemptBytes(pathOf(tooLarge), tooLarge);
    assert.ok(size > ATTEMPT_BUDGET_BYTES && size < MAX_DOCUMENT_BYTES, `${size} bytes`);
    versionless = attemptRecord(tenant.clientId, largest.testId, owner.uid, questionIds.slice(0, 2), {
      version: 99,
      started_at: head(-3_600_000),
      expires_at: head(1),
    });
    // Behind them, in both organizations: attempts with one right answer saved in time.
    const small = await Promise.all(
      [tenant, other].map((t) => writePublishedTest(t.clientId, t.admin.uid, largestQuestionIds().slice(0, 2))),
    );
    closable = [tenant, other].map((t, k) =>
      attemptRecord(t.clientId, small[k].testId, t.student.uid, small[k].version.test.question_ids, {
        started_at: head(-3_600_000),
        expires_at: head(10 + k),
        answers: { [small[k].version.test.question_ids[0]]: { answer: 'ok', saved_at: savedAt } },
      }),
    );
    await Promise.all([tooLarge, versionless, ...closable].map((a) => attemptDoc(a.client_id, a.id).set(a)));
  });
  // Nothing in any later test's closer runs should meet them.
  after(() => Promise.all([tooLarge, versionless].filter(Boolean).map((a) => attemptDoc(a.client_id, a.id).delete())));

  const status = async (a: StoredAttempt) => (await attemptDoc(a.client_id, a.id).get()).get('status');
  const failuresLogged = (entries: Array<{ message: string; data: Record<string, unknown> }>) =>
    entries
      .filter((e) => /Closing an overdue attempt failed/.test(e.message))
      .map((e) => e.data.path as string)
      .sort();

  describe('closeOverdueAttempts (scheduled)', () => {
    it('closes every other overdue attempt of every organization past two that fail at the head of its order (batches of one), logs each failure with its path, and tries them again on the next run', async () => {
      const first = await loggedDuring(() => closeOverdueAttempts(Date.now(), 1));
      for (const a of closable) assert.equal(await status(a), 'submitted', pathOf(a));
      for (const a of closable) assert.equal((await attemptDoc(a.client_id, a.id).get()).get('score'), MARKS);
      assert.equal(await status(tooLarge), 'in_progress');
      assert.equal(await status(versionless), 'in_progress');
      assert.ok(first.result.closed >= 2 && first.result.failed >= 2, JSON.stringify(first.result));
      // Each tried once in a run: the batches page past them rather than finding them again.
      assert.deepEqual(
        failuresLogged(first.entries).filter((p) => [pathOf(tooLarge), pathOf(versionless)].includes(p)),
        [pathOf(tooLarge), pathOf(versionless)].sort(),
      );

      const second = await loggedDuring(() => closeOverdueAttempts(Date.now(), 200));
      assert.deepEqual(
        failuresLogged(second.entries).filter((p) => [pathOf(tooLarge), pathOf(versionless)].includes(p)),
        [pathOf(tooLarge), pathOf(versionless)].sort(),
      );
      assert.equal(await status(tooLarge), 'in_progress');
    });
  });

  describe('GET /api/attempts', () => {
    it('answers 200 for the page holding them, each listed as it stands (in progress), and logs the failures with their paths', async () => {
      const logged = server.logs.length;
      const list = await get(`/api/attempts?student_id=${owner.uid}`, at(tenant.admin.token));
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(
        list.body.data.map((a: any) => [a.attempt_id, a.status, a.score]).sort(),
        [
          [tooLarge.id, 'in_progress', null],
          [versionless.id, 'in_progress', null],
        ].sort(),
      );
      const failures = failuresLogged(server.logs.slice(logged));
      assert.deepEqual(failures, [pathOf(tooLarge), pathOf(versionless)].sort());
    });
  });

  describe('GET /api/attempts/{attemptId}', () => {
    it('answers the attempt too large to score as it stands (200, in progress, its answers) and its version missing as 503', async () => {
      const read = await get(`/api/attempts/${tooLarge.id}`, at(tenant.admin.token));
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.status, 'in_progress');
      assert.equal(read.body.answers.length, TOO_LARGE_ANSWERS);
      expectError(await get(`/api/attempts/${versionless.id}`, at(tenant.admin.token)), 503, 'SERVICE_UNAVAILABLE');
      assert.equal(await status(tooLarge), 'in_progress');
    });
  });

  describe('POST /api/attempts/{attemptId}/submit', () => {
    it('answers 409 for an attempt too large to score, and leaves it as it was', async () => {
      const res = await post(`/api/attempts/${tooLarge.id}/submit`, undefined, at(tenant.admin.token));
      expectError(res, 409, 'CONFLICT');
      assert.match(res.body.message, /too large/);
      const stored = (await attemptDoc(tooLarge.client_id, tooLarge.id).get()).data() as StoredAttempt;
      assert.equal(stored.status, 'in_progress');
      assert.equal(stored.results, null);
    });
  });
});
