import assert from 'node:assert/strict';
import { as, createTestAs, validTest } from '../exams/fixtures';
import { startOk } from '../attempts/fixtures';
import { expectValidation } from '../support/assertions';
import { createTenant, createUser } from '../support/fixtures';
import { get, post } from '../support/http';

// HTML options and mathematics through the API, on the emulators: an html question's options are
// sanitized HTML (an image option stays an image), MathML is kept and TeX is made MathML on write;
// a taker sees and answers the options as stored, and is scored on them (docs/question-types.md).

const flag = (country: string) => `<img src="https://example.org/flags/${country}.png" alt="flag">`;
const storedFlag = (country: string) => `<img src="https://example.org/flags/${country}.png" alt="flag" />`;

describe('HTML options and mathematics through the API', function () {
  this.timeout(60_000);
  let tenant: Awaited<ReturnType<typeof createTenant>>;

  before(async () => {
    tenant = await createTenant();
  });

  it('stores four image options with one alt text as four options, and TeX as MathML; a taker answers one and is scored on it', async () => {
    const created = await post(
      '/api/questions',
      {
        question_type: 'multiple_choice',
        text_format: 'html',
        question_text: '<p>Which flag is France’s? And what is \\(x^2\\) for \\(x = 3\\)?</p>',
        options: [flag('fr'), flag('it'), flag('de'), flag('be')],
        correct_answer: flag('fr'),
        marks: 2,
        difficulty: 'easy',
      },
      as(tenant.admin.token),
    );
    assert.equal(created.status, 201, created.text);
    const read = (await get(`/api/questions/${created.body.id}`, as(tenant.admin.token))).body;
    assert.deepEqual(read.options, ['fr', 'it', 'de', 'be'].map(storedFlag));
    assert.equal(read.correct_answer, storedFlag('fr'));
    assert.match(read.question_text, /<math><semantics><msup><mi>x<\/mi><mn>2<\/mn><\/msup>/);
    assert.doesNotMatch(read.question_text, /\\\(/);

    const ordering = await post(
      '/api/questions',
      {
        question_type: 'ordering',
        text_format: 'html',
        question_text: '<p>Smallest first</p>',
        options: ['\\(\\frac{1}{4}\\)', '<math><mn>0.5</mn></math>', '\\(1\\)'],
        marks: 1,
        difficulty: 'easy',
      },
      as(tenant.admin.token),
    );
    assert.equal(ordering.status, 201, ordering.text);
    assert.ok(
      ordering.body.options.every((o: string) => o.startsWith('<math>')),
      ordering.text,
    );

    const draft = await createTestAs(
      tenant.admin.token,
      validTest([created.body.id, ordering.body.id], { shuffle: 0, allow_review: 1 }),
    );
    assert.equal((await post(`/api/tests/${draft.id}/publish`, undefined, as(tenant.admin.token))).status, 200);
    const student = await createUser('student', tenant.clientId);
    const started = await startOk(student.token, { test_id: draft.id });
    const shown = started.test_details.questions.find((q: { id: string }) => q.id === created.body.id);
    assert.equal(shown.text_format, 'html');
    assert.deepEqual([...shown.options].sort(), ['fr', 'it', 'de', 'be'].map(storedFlag).sort());
    const saved = await post(
      `/api/attempts/${started.attempt_id}/answers`,
      { question_id: created.body.id, student_answer: storedFlag('fr') },
      as(student.token),
    );
    assert.equal(saved.status, 200, saved.text);
    const submitted = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
    assert.equal(submitted.status, 200, submitted.text);
    assert.equal(submitted.body.score, 2);
    const review = (await get(`/api/attempts/${started.attempt_id}`, as(student.token))).body.review;
    const reviewed = review.find((r: { question_id: string }) => r.question_id === created.body.id);
    assert.equal(reviewed.correct_answer, storedFlag('fr'));
    assert.equal(reviewed.correct, true);
  });

  it('keeps TeX that cannot be read as written (201), and refuses an option that shows nothing once sanitized (400 at its path)', async () => {
    const kept = await post(
      '/api/questions',
      {
        question_type: 'multiple_choice',
        text_format: 'html',
        question_text: '<p>Broken: \\(\\frac{1\\)</p>',
        options: ['a', 'b'],
        correct_answer: 'a',
        marks: 1,
        difficulty: 'easy',
      },
      as(tenant.admin.token),
    );
    assert.equal(kept.status, 201, kept.text);
    assert.equal(kept.body.question_text, '<p>Broken: \\(\\frac{1\\)</p>');

    const refused = await post(
      '/api/questions',
      {
        question_type: 'multiple_choice',
        text_format: 'html',
        question_text: '<p>Pick</p>',
        options: ['a', '<script>alert(1)</script>'],
        correct_answer: 'a',
        marks: 1,
        difficulty: 'easy',
      },
      as(tenant.admin.token),
    );
    expectValidation(refused, ['body.options.1'], ['Shows nothing once sanitized']);
  });
});
