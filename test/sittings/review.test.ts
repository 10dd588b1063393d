import assert from 'node:assert/strict';
import { createRoleMatrix, createUser, type RoleMatrix } from '../support/fixtures';
import { freshIp, get } from '../support/http';
import { as } from '../exams/fixtures';
import { startOk, tokenQuery } from '../attempts/fixtures';
import { fromNow, MIN, patchTest, sittingTest, submit } from './httpFixtures';

// review_opens_at over HTTP: a submitted attempt's review is held back from
// its taker (signed in, or holding its attempt token) until then, never from
// its organization's administrators.

const KEY_FIELDS = /"(correct_answer|tolerance)"/;

let m: RoleMatrix;

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
});

/** A submitted attempt of a fresh student on `testId`, with the token it was started with. */
async function submittedAttempt(testId: string) {
  const student = await createUser('student', m.tenant.clientId);
  const started = await startOk(student.token, { test_id: testId });
  // The token is read before the submit: a submit does not replace it.
  assert.equal((await submit(student.token, started.attempt_id)).status, 200);
  return { student, attemptId: started.attempt_id as string, token: started.attempt_token as string };
}

const readAs = (token: string, attemptId: string) => get(`/api/attempts/${attemptId}`, as(token));
const readWithToken = (attemptToken: string, attemptId: string) =>
  get(`/api/attempts/${attemptId}${tokenQuery(attemptToken)}`, { ip: freshIp() });

describe('GET /api/attempts/{attemptId}: review_opens_at', () => {
  it('holds the review back from the taker before review_opens_at: submitted, scored, no review and no keys', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, {
      allow_review: 1,
      review_opens_at: fromNow(60 * MIN),
    });
    const { student, attemptId } = await submittedAttempt(test.id);
    const res = await readAs(student.token, attemptId);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'submitted');
    assert.equal(typeof res.body.score, 'number');
    assert.equal(res.body.review, undefined);
    assert.ok(!KEY_FIELDS.test(res.text), res.text);
  });

  it('holds it back from the holder of the attempt token alike', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, {
      allow_review: 1,
      review_opens_at: fromNow(60 * MIN),
    });
    const { attemptId, token } = await submittedAttempt(test.id);
    const res = await readWithToken(token, attemptId);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.review, undefined);
    assert.ok(!KEY_FIELDS.test(res.text), res.text);
  });

  it('shows the review to the organization’s Client Admin and to a Super Admin before review_opens_at', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, {
      allow_review: 1,
      review_opens_at: fromNow(60 * MIN),
    });
    const { attemptId } = await submittedAttempt(test.id);
    for (const token of [m.tenant.admin.token, m.superAdmin.token]) {
      const res = await readAs(token, attemptId);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.review.length, 2);
      assert.equal(res.body.review[0].correct_answer, '4');
    }
  });

  it('shows the review to the taker and to the token holder once review_opens_at has come (moved into the past by PATCH)', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, {
      allow_review: 1,
      review_opens_at: fromNow(60 * MIN),
    });
    const { student, attemptId, token } = await submittedAttempt(test.id);
    assert.equal((await readAs(student.token, attemptId)).body.review, undefined);
    assert.equal((await patchTest(m.tenant.admin.token, test.id, { review_opens_at: fromNow(-1000) })).status, 200);
    const mine = await readAs(student.token, attemptId);
    assert.equal(mine.status, 200, mine.text);
    assert.equal(mine.body.review.length, 2);
    const viaToken = await readWithToken(token, attemptId);
    assert.equal(viaToken.status, 200, viaToken.text);
    assert.equal(viaToken.body.review.length, 2);
  });

  it('holds back again a review already released when review_opens_at moves into the future', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { allow_review: 1 });
    const { student, attemptId } = await submittedAttempt(test.id);
    assert.equal((await readAs(student.token, attemptId)).body.review.length, 2, 'null: released on submission');
    assert.equal((await patchTest(m.tenant.admin.token, test.id, { review_opens_at: fromNow(60 * MIN) })).status, 200);
    assert.equal((await readAs(student.token, attemptId)).body.review, undefined);
  });

  it('never shows the taker a review when allow_review is 0, even after review_opens_at', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, {
      allow_review: 0,
      review_opens_at: fromNow(-60 * MIN),
    });
    const { student, attemptId, token } = await submittedAttempt(test.id);
    assert.equal((await readAs(student.token, attemptId)).body.review, undefined);
    assert.equal((await readWithToken(token, attemptId)).body.review, undefined);
    assert.equal((await readAs(m.tenant.admin.token, attemptId)).body.review.length, 2);
  });
});
