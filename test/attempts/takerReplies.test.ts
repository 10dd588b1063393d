import assert from 'node:assert/strict';
import { createRoleMatrix, createUser, signInAnonymously, type RoleMatrix } from '../support/fixtures';
import { freshIp, get, post, type ApiResponse, type RequestOptions } from '../support/http';
import { as, type QuestionFixture } from '../exams/fixtures';
import { publishTest, writeShareCode } from './fixtures';
import { fromNow, MIN, patchTest } from '../sittings/httpFixtures';

// A question's title is the bank's name for it and may give the answer away
// (an imported `::Capital of France — Paris::`): no reply a taker receives
// carries one, by its ID token or by its attempt token, from the start to the
// released review (docs/api.md#taking-a-test).

const TITLES = ['Capital of France — Paris', 'Two plus two is four'];

let m: RoleMatrix;
let test: any;
let questions: QuestionFixture[];

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
  questions = [];
  for (const [i, title] of TITLES.entries()) {
    const res = await post(
      '/api/questions',
      {
        title,
        question_text: i === 0 ? 'Which city is the capital of France?' : 'What is 2 + 2?',
        question_type: 'multiple_choice',
        options: i === 0 ? ['Lyon', 'Paris'] : ['3', '4'],
        correct_answer: i === 0 ? 'Paris' : '4',
        marks: 1,
        difficulty: 'easy',
      },
      as(m.tenant.admin.token),
    );
    assert.equal(res.status, 201, res.text);
    questions.push(res.body);
  }
  ({ test } = await publishTest(m.tenant.admin.token, m.tenant.clientId, {
    questions,
    extra: { timer: 30, allow_review: 1, review_opens_at: fromNow(60 * MIN) },
  }));
});

/** Every path in `value` that ends in a key named `title`. */
function titlePaths(value: unknown, at = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => titlePaths(v, `${at}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [
      ...(k === 'title' ? [`${at}.title`] : []),
      ...titlePaths(v, `${at}.${k}`),
    ]);
  return [];
}

/** The reply, checked: a success, no `title` key anywhere, no title's words. */
function noTitle(what: string, res: ApiResponse, status = 200): ApiResponse {
  assert.equal(res.status, status, `${what}: ${res.text}`);
  assert.deepEqual(titlePaths(res.body), [], `${what} carries a title: ${res.text}`);
  for (const title of TITLES) assert.ok(!res.text.includes(title), `${what} names "${title}": ${res.text}`);
  return res;
}

/** Everything a taker does to one attempt, each reply checked, with `o` as its credential. */
async function walkAttempt(id: string, o: () => RequestOptions) {
  const [first, second] = questions;
  noTitle('GET while in progress', await get(`/api/attempts/${id}`, o()));
  noTitle(
    'a saved answer',
    await post(`/api/attempts/${id}/answers`, { question_id: first.id, student_answer: 'Paris' }, o()),
  );
  noTitle(
    'a saved batch',
    await post(`/api/attempts/${id}/answers`, { answers: [{ question_id: second.id, student_answer: '4' }] }, o()),
  );
  const ev = { events: [{ type: 'focus_lost', at: new Date().toISOString(), client_seq: 0 }] };
  noTitle('integrity events', await post(`/api/attempts/${id}/events`, ev, o()));
  noTitle('the submit', await post(`/api/attempts/${id}/submit`, undefined, o()));
  const held = noTitle('GET before the review is released', await get(`/api/attempts/${id}`, o()));
  assert.equal(held.body.review, undefined);
}

describe('Question titles in the replies a taker receives', () => {
  it('are in none, for a student by its ID token: start, resume, read, list, answers, events, submit, review before and after release', async () => {
    const student = await createUser('student', m.tenant.clientId);
    const started = noTitle('the start', await post('/api/attempts', { test_id: test.id }, as(student.token)), 201);
    assert.equal(started.body.test_details.questions.length, 2);
    const resumed = noTitle('the resume', await post('/api/attempts', { test_id: test.id }, as(student.token)));
    assert.equal(resumed.body.resumed, true);
    noTitle('the list', await get('/api/attempts', as(student.token)));
    const id = started.body.attempt_id as string;
    await walkAttempt(id, () => as(student.token));
    assert.equal((await patchTest(m.tenant.admin.token, test.id, { review_opens_at: fromNow(-1000) })).status, 200);
    try {
      const released = noTitle('the released review', await get(`/api/attempts/${id}`, as(student.token)));
      assert.equal(released.body.review.length, 2);
      assert.equal(released.body.score, 2);
    } finally {
      await patchTest(m.tenant.admin.token, test.id, { review_opens_at: fromNow(60 * MIN) });
    }
  });

  it('are in none, for a Guest by its attempt token: share-code start, resume, read, answers, events, submit, review', async () => {
    const code = await writeShareCode(m.tenant.clientId, test.id);
    const guest = await signInAnonymously();
    const body = { share_code: code, guest_name: 'Visitor' };
    const started = noTitle('the share-code start', await post('/api/attempts', body, as(guest.token)), 201);
    const resumed = noTitle('the share-code resume', await post('/api/attempts', body, as(guest.token)));
    const token = resumed.body.attempt_token as string;
    await walkAttempt(started.body.attempt_id, () => ({ ip: freshIp(), headers: { 'X-Attempt-Token': token } }));
  });

  it('are in none of the start an administrator makes for a student, whose token the student then uses', async () => {
    const student = await createUser('student', m.tenant.clientId);
    const started = noTitle(
      'the start for a student',
      await post('/api/attempts', { test_id: test.id, student_id: student.uid }, as(m.tenant.admin.token)),
      201,
    );
    const token = started.body.attempt_token as string;
    await walkAttempt(started.body.attempt_id, () => ({ ip: freshIp(), headers: { 'X-Attempt-Token': token } }));
  });

  it('stay in the bank: the author reads them there', async () => {
    const res = await get(`/api/questions/${questions[0].id}`, as(m.tenant.admin.token));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.title, TITLES[0]);
  });
});
