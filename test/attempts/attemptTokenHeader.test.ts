import assert from 'node:assert/strict';
import { expectError } from '../support/assertions';
import { createTenant, createUser } from '../support/fixtures';
import { freshIp, get, post, type RequestOptions } from '../support/http';
import { publishTest, startOk, tokenQuery } from './fixtures';

// The attempt token as the header X-Attempt-Token: the same door as
// ?attempt_token=, kept out of URLs and access logs.

let tenant: Awaited<ReturnType<typeof createTenant>>;
let testId: string;
let questionId: string;

before(async function () {
  this.timeout(60_000);
  tenant = await createTenant();
  const { test, questions } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
  testId = test.id;
  questionId = questions[0].id;
});

const withHeader = (token: string): RequestOptions => ({ ip: freshIp(), headers: { 'X-Attempt-Token': token } });

async function started() {
  const student = await createUser('student', tenant.clientId);
  return startOk(student.token, { test_id: testId });
}

describe('X-Attempt-Token', () => {
  it('reads, saves to and submits its attempt with no Authorization header and no query parameter', async () => {
    const { attempt_id: id, attempt_token: token } = await started();
    assert.equal((await get(`/api/attempts/${id}`, withHeader(token))).status, 200);
    const saved = await post(
      `/api/attempts/${id}/answers`,
      { question_id: questionId, student_answer: 'x' },
      withHeader(token),
    );
    assert.equal(saved.status, 200, saved.text);
    const submitted = await post(`/api/attempts/${id}/submit`, undefined, withHeader(token));
    assert.equal(submitted.status, 200, submitted.text);
    assert.equal(submitted.body.status, 'submitted');
  });

  it('is 403 with another attempt’s token, as the query parameter is', async () => {
    const [a, b] = await Promise.all([started(), started()]);
    expectError(await get(`/api/attempts/${a.attempt_id}`, withHeader(b.attempt_token)), 403, 'FORBIDDEN');
  });

  it('accepts the same token in the header and the query; refuses two that differ with 400 naming the header', async () => {
    const [a, b] = await Promise.all([started(), started()]);
    assert.equal(
      (await get(`/api/attempts/${a.attempt_id}${tokenQuery(a.attempt_token)}`, withHeader(a.attempt_token))).status,
      200,
    );
    const refused = await get(
      `/api/attempts/${a.attempt_id}${tokenQuery(a.attempt_token)}`,
      withHeader(b.attempt_token),
    );
    expectError(refused, 400, 'VALIDATION_ERROR');
    assert.equal(refused.body.details[0].path, 'header.x-attempt-token');
  });

  it('after submission still reads its attempt, and takes no more answers (409)', async () => {
    const { attempt_id: id, attempt_token: token } = await started();
    assert.equal((await post(`/api/attempts/${id}/submit`, undefined, withHeader(token))).status, 200);
    const read = await get(`/api/attempts/${id}`, withHeader(token));
    assert.equal(read.status, 200);
    assert.equal(read.body.status, 'submitted');
    expectError(
      await post(`/api/attempts/${id}/answers`, { question_id: questionId, student_answer: 'late' }, withHeader(token)),
      409,
      'CONFLICT',
    );
  });

  it('opens nothing but its attempt: other routes answer 401 as to a caller without credentials', async () => {
    const { attempt_token: token } = await started();
    expectError(await get('/api/me', withHeader(token)), 401, 'UNAUTHORIZED');
    expectError(await get(`/api/attempts?client_id=${tenant.clientId}`, withHeader(token)), 401, 'UNAUTHORIZED');
    expectError(await get(`/api/tests/${testId}`, withHeader(token)), 401, 'UNAUTHORIZED');
  });
});
