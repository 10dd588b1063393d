import assert from 'node:assert/strict';
import { createTenant } from '../support/fixtures';
import { get } from '../support/http';
import { checkPage, openBrowser, signInAs, type Visitor } from './support/browser';
import { createTestWith } from './support/exams';

async function savedAnswers(attemptId: string, token: string): Promise<Record<string, string>> {
  const res = await get(`/api/attempts/${attemptId}`, { token });
  assert.equal(res.status, 200, res.text);
  return Object.fromEntries(res.body.answers.map((a: { question_id: string; student_answer: string }) => [a.question_id, a.student_answer]));
}

const attemptIdOf = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').pop()!);

describe('web app: a student takes a test', function () {
  this.timeout(120_000);
  let visitor: Visitor;
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let test: Awaited<ReturnType<typeof createTestWith>>;
  before(async () => {
    tenant = await createTenant();
    test = await createTestWith(tenant);
  });
  beforeEach(async () => {
    visitor = await openBrowser();
  });
  afterEach(async () => visitor.close());

  it('reloads half way and finds every answer, then submits and sees the score', async function () {
    const { page } = visitor;
    await signInAs(page, tenant.student.email, tenant.student.password);
    await page.getByRole('heading', { name: 'Your tests' }).waitFor();
    await page.getByRole('heading', { name: test.test_name }).waitFor();
    await checkPage(page, this, 'test list');
    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();
    await checkPage(page, this, 'attempt');

    await page.getByRole('group', { name: /capital of France/ }).getByLabel('Paris').check();
    await page.getByRole('group', { name: /Red Planet/ }).getByLabel('Mars').check();
    const primes = page.getByRole('group', { name: /numbers are prime/ });
    for (const n of ['2', '3', '11']) await primes.getByLabel(n, { exact: true }).check();
    await page.getByRole('textbox', { name: 'Answer to question 7' }).fill('Au');
    await page.getByRole('textbox', { name: 'Answer to question 7' }).blur();
    await page.getByText('All answers saved').waitFor();

    await page.reload();
    await page.getByRole('timer').waitFor();
    assert.equal(await page.getByRole('group', { name: /capital of France/ }).getByLabel('Paris').isChecked(), true);
    assert.equal(await page.getByRole('group', { name: /Red Planet/ }).getByLabel('Mars').isChecked(), true);
    for (const n of ['2', '3', '11']) assert.equal(await primes.getByLabel(n, { exact: true }).isChecked(), true, n);
    assert.equal(await primes.getByLabel('4', { exact: true }).isChecked(), false);
    assert.equal(await page.getByRole('textbox', { name: 'Answer to question 7' }).inputValue(), 'Au');
    await checkPage(page, this, 'attempt after reload');

    const attemptId = attemptIdOf(page.url());
    const saved = await savedAnswers(attemptId, tenant.student.token);
    assert.deepEqual(Object.values(saved).sort(), ['2|3|11', 'Au', 'Mars', 'Paris']);

    await page.getByRole('button', { name: 'Submit the test' }).click();
    await page.getByText('5 questions are unanswered.').waitFor();
    await page.getByRole('button', { name: 'Submit now' }).click();
    await page.getByText(/Your score:/).waitFor();
    assert.match(await page.getByText(/Your score:/).innerText(), /Your score: 9 of 18/);
    await checkPage(page, this, 'submitted with review');
    assert.deepEqual(visitor.errors, []);
  });
});
