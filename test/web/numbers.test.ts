import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { createTenant, createUser } from '../support/fixtures';
import { freshIp, get } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { createTestWith } from './support/exams';

// A numeric answer as people type it, and the review a student reads afterwards.

const QUESTIONS = [
  {
    question_text: 'What is the square root of 2, to two decimal places?',
    question_type: 'numeric',
    options: [],
    correct_answer: '1.41',
    tolerance: 0.01,
    marks: 2,
    difficulty: 'easy',
  },
  {
    question_text: 'Which of these are programming languages?',
    question_type: 'multiple_select',
    options: ['Python', 'HTML', 'Rust', 'CSS'],
    correct_answer: 'Python|Rust',
    marks: 2,
    difficulty: 'easy',
  },
  {
    question_text: 'What is the capital of Italy?',
    question_type: 'multiple_choice',
    options: ['Rome', 'Paris'],
    correct_answer: 'Rome',
    marks: 1,
    difficulty: 'easy',
  },
  {
    question_text: 'The Earth orbits the Sun.',
    question_type: 'true_false',
    options: ['True', 'False'],
    correct_answer: 'True',
    marks: 1,
    difficulty: 'easy',
  },
];

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const attemptIdOf = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').pop()!);

async function savedAnswers(attemptId: string, token: string): Promise<string[]> {
  const res = await get(`/api/attempts/${attemptId}`, { token, ip: freshIp() });
  assert.equal(res.status, 200, res.text);
  return res.body.answers.map((a: { student_answer: string }) => a.student_answer).sort();
}

/** A new student of the organization signs in and starts the test: its id and token. */
async function startAsNewStudent(page: Page, tenant: Tenant, testName: string) {
  const student = await createUser('student', tenant.clientId);
  await signInAs(page, student.email, student.password);
  await page.getByRole('button', { name: `Start ${testName}` }).click();
  await page.getByRole('timer').waitFor();
  return { student, attemptId: attemptIdOf(page.url()) };
}

describe('web app: numbers as people type them, and the review a student reads', function () {
  this.timeout(120_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  let test: Awaited<ReturnType<typeof createTestWith>>;
  before(async () => {
    tenant = await createTenant();
    test = await createTestWith(tenant, {
      questions: QUESTIONS,
      settings: { negative_marking: 1, negative_mark_ratio: 0.25 },
    });
  });

  it('says at the numeric field that "Rome" and "1,234" are not numbers and sends neither; "1,41" is saved as typed', async function () {
    const visitor = browser();
    const { page } = visitor;
    const { student, attemptId } = await startAsNewStudent(page, tenant, test.test_name);
    const answerPosts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/answers')) answerPosts.push(request.url());
    });
    const field = page.getByRole('textbox', { name: 'Answer to question 1' });
    assert.equal(await field.getAttribute('inputmode'), 'decimal');

    await field.fill('Rome');
    await field.blur();
    const error = page.getByText(/This is not a number/);
    await error.waitFor();
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    const describedBy = await field.getAttribute('aria-describedby');
    assert.ok(describedBy);
    assert.match(
      await page.locator(`[id="${describedBy}"]`).innerText(),
      /not a number.*Not saved until it is a number/s,
    );
    await checkPage(page, this, 'numeric field with a word');

    await field.fill('1,234');
    await page.getByText('“1,234” could be 1.234 or 1234').waitFor();
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    await checkPage(page, this, 'numeric field with an ambiguous comma');
    assert.deepEqual(answerPosts, [], 'nothing is sent while the entry is not a number');

    const answered = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().endsWith('/answers'),
      { timeout: 60_000 },
    );
    await field.fill('1,41');
    await field.blur();
    assert.equal((await answered).status(), 200);
    assert.deepEqual(await savedAnswers(attemptId, student.token), ['1,41']);
    assert.equal(await field.getAttribute('aria-invalid'), null);
    assert.equal(await field.getAttribute('aria-describedby'), null);
    assert.equal(await error.count(), 0);
    await checkPage(page, this, 'numeric field with a decimal comma');
    assert.deepEqual(visitor.errors, []);
  });

  it('states negative marking and "select all that apply", scores "1,41", and reviews lists, "1 mark" and the answer as entered', async function () {
    const visitor = browser();
    const { page } = visitor;
    await startAsNewStudent(page, tenant, test.test_name);
    await page.getByText('Negative marking: a wrong answer costs 25% of the question’s marks.').waitFor();
    const languages = page.getByRole('group', { name: /programming languages\? \(2 marks\) Select all that apply\./ });
    await languages.waitFor();
    await page.getByRole('group', { name: /capital of Italy\? \(1 mark\)$/ }).waitFor();
    await checkPage(page, this, 'attempt with its scoring rules');

    const field = page.getByRole('textbox', { name: 'Answer to question 1' });
    await field.fill('1,41');
    await field.blur();
    for (const option of ['Python', 'Rust']) await languages.getByLabel(option, { exact: true }).check();
    await page
      .getByRole('group', { name: /capital of Italy/ })
      .getByLabel('Rome')
      .check();
    await page
      .getByRole('group', { name: /orbits the Sun/ })
      .getByLabel('False')
      .check();
    await page.getByText('All answers saved').waitFor();
    await page.getByRole('button', { name: 'Submit the test' }).click();
    await page.getByRole('button', { name: 'Submit now' }).click();

    // 2 + 2 + 1 − 0.25 × 1 for the wrong true/false.
    await page.getByText('Your score: 4.75 of 6').waitFor({ timeout: 60_000 });
    const review = page.getByRole('region', { name: 'Review' });
    await review.getByText('Your answer: 1,41 (read as 1.41) — correct, 2 marks').waitFor();
    await review.getByText('Correct answer: 1.41 (± 0.01)').waitFor();
    await review.getByText('Your answer: Python, Rust — correct, 2 marks').waitFor();
    await review.getByText('Correct answer: Python, Rust').waitFor();
    await review.getByText('Your answer: Rome — correct, 1 mark').waitFor();
    await review.getByText('Your answer: False — not correct, -0.25 marks').waitFor();
    assert.equal(await review.getByText('|').count(), 0, 'no option list shows its "|"');
    await checkPage(page, this, 'review with lists, marks and the answer as entered');
    assert.deepEqual(visitor.errors, []);
  });
});
