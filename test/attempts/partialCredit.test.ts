import assert from 'node:assert/strict';
import { createRoleMatrix, createUser, type RoleMatrix } from '../support/fixtures';
import { get, post } from '../support/http';
import { as, versionDoc, type QuestionFixture } from '../exams/fixtures';
import { publishTest, startOk } from './fixtures';
import { fromNow, MIN, patchTest, saveAnswer, submit } from '../sittings/httpFixtures';

// A test whose questions carry the bank's optional fields, from POST /api/questions
// to the review: partial credit scored, HTML shown to the taker (titles never),
// feedback held back until the review is released.

let m: RoleMatrix;

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
});

const FEEDBACK_FIELDS = /"(question_feedback|option_feedback|option_credits|alternatives|feedback)"\s*:\s*(?!null)/;

async function createQuestion(body: Record<string, unknown>) {
  const res = await post('/api/questions', { marks: 2, difficulty: 'medium', ...body }, as(m.tenant.admin.token));
  assert.equal(res.status, 201, res.text);
  return res.body as QuestionFixture;
}

/** Three questions: partial-credit multiple select (2 marks), short answer with alternatives (2), case-sensitive HTML short answer (2). */
async function extrasTest(extra: Record<string, unknown>) {
  const select = await createQuestion({
    question_type: 'multiple_select',
    title: 'Primes',
    question_text: 'Which are prime?',
    options: ['2', '3', '4', '9'],
    correct_answer: '2|3',
    option_credits: [50, 50, -50, -50],
    option_feedback: ['Yes, 2 is prime', 'Yes', 'No: 2 × 2', 'No: 3 × 3'],
    feedback: 'A prime has exactly two divisors.',
  });
  const short = await createQuestion({
    question_type: 'short_answer',
    question_text: 'Spell the British word for color',
    correct_answer: 'colour',
    alternatives: [{ answer: 'color', credit: 25 }],
  });
  const html = await createQuestion({
    question_type: 'short_answer',
    text_format: 'html',
    question_text: '<p>Formula of <b>table salt</b>?</p><img src="x" onerror="alert(1)">',
    correct_answer: 'NaCl',
    case_sensitive: true,
    feedback: '<p>Sodium <i>chloride</i></p><script>alert(2)</script>',
  });
  const { test } = await publishTest(m.tenant.admin.token, m.tenant.clientId, {
    questions: [select, short, html],
    extra: { timer: 30, allow_review: 1, negative_marking: 1, ...extra },
  });
  return { test, select, short, html };
}

describe('An attempt on questions with partial credit, HTML and feedback', () => {
  it('freezes the optional fields into the version the attempt uses', async () => {
    const { test, select, html } = await extrasTest({});
    const version = (await versionDoc(m.tenant.clientId, test.id, 1).get()).data()!;
    const frozen = new Map<string, any>(version.questions.map((q: any) => [q.id, q]));
    assert.deepEqual(frozen.get(select.id).option_credits, [50, 50, -50, -50]);
    assert.equal(frozen.get(select.id).title, 'Primes');
    assert.equal(frozen.get(html.id).question_text, '<p>Formula of <b>table salt</b>?</p>');
    assert.equal(frozen.get(html.id).case_sensitive, true);
  });

  it('shows the taker sanitized HTML, never a title, feedback or credits, while in progress', async () => {
    const { test, select, html } = await extrasTest({});
    const student = await createUser('student', m.tenant.clientId);
    const started = await startOk(student.token, { test_id: test.id });
    const questions = new Map<string, any>(started.test_details.questions.map((q: any) => [q.id, q]));
    assert.equal(questions.get(select.id).title, undefined);
    assert.equal(questions.get(select.id).text_format, undefined);
    assert.equal(questions.get(html.id).text_format, 'html');
    assert.equal(questions.get(html.id).question_text, '<p>Formula of <b>table salt</b>?</p>');
    const read = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
    assert.equal(read.status, 200, read.text);
    assert.ok(!FEEDBACK_FIELDS.test(read.text), read.text);
    assert.ok(!/option_credits|alternatives|case_sensitive|Yes, 2 is prime|divisors/.test(read.text), read.text);
  });

  it('scores partial credit: credits summed and clamped, the best alternative, case for case; negative marks only for a wrong answer', async () => {
    const { test, select, short, html } = await extrasTest({});
    const student = await createUser('student', m.tenant.clientId);
    const started = await startOk(student.token, { test_id: test.id });
    const id = started.attempt_id as string;
    // 2 and 4: 50 − 50 = 0 (not negative); "color": 25 % of 2; "nacl": wrong under case_sensitive, −0.5.
    for (const [q, answer] of [
      [select, '2|4'],
      [short, 'Color'],
      [html, 'nacl'],
    ] as const)
      assert.equal((await saveAnswer(student.token, id, q.id, answer)).status, 200);
    const submitted = await submit(student.token, id);
    assert.equal(submitted.status, 200, submitted.text);
    const read = await get(`/api/attempts/${id}`, as(student.token));
    const review = new Map<string, any>(read.body.review.map((r: any) => [r.question_id, r]));
    assert.deepEqual(
      [select, short, html].map((q) => [review.get(q.id).marks_awarded, review.get(q.id).correct]),
      [
        [0, false],
        [0.5, false],
        [-0.5, false],
      ],
    );
    assert.equal(read.body.score, 0, 'the total, 0 − 0.5 + 0.5, is 0');

    const second = await createUser('student', m.tenant.clientId);
    const again = await startOk(second.token, { test_id: test.id });
    for (const [q, answer] of [
      [select, '2'],
      [short, 'colour'],
      [html, 'NaCl'],
    ] as const)
      assert.equal((await saveAnswer(second.token, again.attempt_id, q.id, answer)).status, 200);
    assert.equal((await submit(second.token, again.attempt_id)).status, 200);
    const full = await get(`/api/attempts/${again.attempt_id}`, as(second.token));
    assert.equal(full.body.score, 5, '1 (half the credits) + 2 + 2');
  });

  it('holds feedback back before review_opens_at and shows it, options in the attempt’s order, once released', async () => {
    const { test, select, html } = await extrasTest({ review_opens_at: fromNow(60 * MIN), shuffle: 1 });
    const student = await createUser('student', m.tenant.clientId);
    const started = await startOk(student.token, { test_id: test.id });
    assert.equal((await submit(student.token, started.attempt_id)).status, 200);
    const held = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
    assert.equal(held.status, 200, held.text);
    assert.equal(held.body.review, undefined);
    assert.ok(!/divisors|Sodium|Yes, 2 is prime/.test(held.text), held.text);

    assert.equal((await patchTest(m.tenant.admin.token, test.id, { review_opens_at: fromNow(-1000) })).status, 200);
    const released = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
    const review = new Map<string, any>(released.body.review.map((r: any) => [r.question_id, r]));
    const shown = new Map<string, any>(released.body.test_details.questions.map((q: any) => [q.id, q]));
    assert.equal(review.get(select.id).question_feedback, 'A prime has exactly two divisors.');
    const byOption: Record<string, string> = { '2': 'Yes, 2 is prime', '3': 'Yes', '4': 'No: 2 × 2', '9': 'No: 3 × 3' };
    const credits: Record<string, number> = { '2': 50, '3': 50, '4': -50, '9': -50 };
    const options = shown.get(select.id).options as string[];
    assert.deepEqual(
      review.get(select.id).option_feedback,
      options.map((o) => byOption[o]),
    );
    assert.deepEqual(
      review.get(select.id).option_credits,
      options.map((o) => credits[o]),
    );
    assert.equal(review.get(html.id).question_feedback, '<p>Sodium <i>chloride</i></p>', 'stored sanitized');
    assert.equal(review.get(html.id).case_sensitive, true);
  });
});
