import assert from 'node:assert/strict';
import { BASE_URL } from '../support/env';
import { freshIp, get, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { tenantWithPublishedTest } from './support/exams';

async function savedAnswers(attemptId: string, token: string): Promise<Record<string, string>> {
  const res = await get(`/api/attempts/${attemptId}`, { token, ip: freshIp() });
  assert.equal(res.status, 200, res.text);
  return Object.fromEntries(
    res.body.answers.map((a: { question_id: string; student_answer: string }) => [a.question_id, a.student_answer]),
  );
}

const attemptIdOf = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').pop()!);

describe('web app: a student takes a test', function () {
  this.timeout(120_000);
  const browser = browserPerTest();
  const sitting = tenantWithPublishedTest();

  it('reloads half way and finds every answer, then submits and sees the score', async function () {
    const visitor = browser();
    const { page } = visitor;
    const { tenant, test } = sitting();
    await signInAs(page, tenant.student.email, tenant.student.password);
    await page.getByRole('heading', { name: 'Your tests' }).waitFor();
    await page.getByRole('heading', { name: test.test_name }).waitFor();
    await checkPage(page, this, 'test list');
    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();
    await checkPage(page, this, 'attempt');

    await page
      .getByRole('group', { name: /capital of France/ })
      .getByLabel('Paris')
      .check();
    await page
      .getByRole('group', { name: /Red Planet/ })
      .getByLabel('Mars')
      .check();
    const primes = page.getByRole('group', { name: /numbers are prime/ });
    for (const n of ['2', '3', '11']) await primes.getByLabel(n, { exact: true }).check();
    await page.getByRole('textbox', { name: 'Answer to question 7' }).fill('Au');
    await page.getByRole('textbox', { name: 'Answer to question 7' }).blur();
    await page.getByText('All answers saved').waitFor();

    await page.reload();
    await page.getByRole('timer').waitFor();
    assert.equal(
      await page
        .getByRole('group', { name: /capital of France/ })
        .getByLabel('Paris')
        .isChecked(),
      true,
    );
    assert.equal(
      await page
        .getByRole('group', { name: /Red Planet/ })
        .getByLabel('Mars')
        .isChecked(),
      true,
    );
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

describe('web app: a student loses the network', function () {
  this.timeout(120_000);
  const browser = browserPerTest();
  const sitting = tenantWithPublishedTest();

  it('keeps three answers given offline through a reload, and saves them all once back online', async function () {
    const { page, context } = browser();
    const { tenant, test } = sitting();
    await signInAs(page, tenant.student.email, tenant.student.password);
    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();
    // The service worker must hold the app shell before the network goes.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const attemptId = attemptIdOf(page.url());

    await context.setOffline(true);
    await page
      .getByRole('group', { name: /capital of France/ })
      .getByLabel('Paris')
      .check();
    await page
      .getByRole('group', { name: /Red Planet/ })
      .getByLabel('Mars')
      .check();
    await page.getByRole('textbox', { name: 'Answer to question 7' }).fill('Au');
    await page.getByRole('textbox', { name: 'Answer to question 7' }).blur();
    await page.getByText('Offline: 3 answers kept in this browser').waitFor();
    await checkPage(page, this, 'offline with three answers queued');

    await page.reload();
    await page.getByRole('timer').waitFor();
    await page.getByText(/You are offline/).waitFor();
    assert.equal(
      await page
        .getByRole('group', { name: /capital of France/ })
        .getByLabel('Paris')
        .isChecked(),
      true,
    );
    assert.equal(
      await page
        .getByRole('group', { name: /Red Planet/ })
        .getByLabel('Mars')
        .isChecked(),
      true,
    );
    assert.equal(await page.getByRole('textbox', { name: 'Answer to question 7' }).inputValue(), 'Au');
    assert.deepEqual(
      await savedAnswers(attemptId, tenant.student.token),
      {},
      'nothing reached the service while offline',
    );
    await checkPage(page, this, 'reloaded offline');

    await context.setOffline(false);
    await page.getByText('All answers saved').waitFor();
    assert.deepEqual(Object.values(await savedAnswers(attemptId, tenant.student.token)).sort(), [
      'Au',
      'Mars',
      'Paris',
    ]);
    await checkPage(page, this, 'back online, all saved');
  });
});

describe('web app: a guest with a share code', function () {
  this.timeout(120_000);
  const browser = browserPerTest();
  const sitting = tenantWithPublishedTest();
  let code: string;
  before(async () => {
    const { tenant, test } = sitting();
    const issued = await post(`/api/tests/${test.id}/share-codes`, {}, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(issued.status, 201, issued.text);
    code = issued.body.code;
  });

  it('gets in with the share code and a name, answers and submits', async function () {
    const visitor = browser();
    const { page } = visitor;
    const { tenant, test } = sitting();
    await page.goto('/');
    await checkPage(page, this, 'sign-in page');
    await page.getByLabel('Share code').fill(code);
    await page.getByLabel('Your name').fill('Grace Guest');
    await page.getByRole('button', { name: 'Start as guest' }).click();
    await page.getByRole('timer').waitFor();
    const attemptId = attemptIdOf(page.url());
    await page
      .getByRole('group', { name: /capital of France/ })
      .getByLabel('Paris')
      .check();
    await page.getByText('All answers saved').waitFor();
    await checkPage(page, this, 'guest attempt');
    await page.getByRole('button', { name: 'Submit the test' }).click();
    await page.getByRole('button', { name: 'Submit now' }).click();
    await page.getByText(/Your score:/).waitFor();
    assert.match(await page.getByText(/Your score:/).innerText(), /Your score: 2 of 18/);
    await checkPage(page, this, 'guest score');

    const listed = await get(`/api/attempts?test_id=${test.id}`, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(listed.status, 200, listed.text);
    const attempt = listed.body.data.find((a: { attempt_id: string }) => a.attempt_id === attemptId);
    assert.equal(attempt.guest, true);
    assert.equal(attempt.guest_name, 'Grace Guest');
    assert.equal(attempt.status, 'submitted');
    assert.equal(attempt.score, 2);
    assert.deepEqual(visitor.errors, []);
  });
});

describe('web app: the API reference at /docs', function () {
  this.timeout(60_000);
  const browser = browserPerTest();

  it('renders the served OpenAPI document with the bundled viewer, loading nothing from another host', async function () {
    const { page } = browser();
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).origin !== new URL(BASE_URL).origin) foreign.push(request.url());
    });
    await page.goto('/docs');
    const served = await get('/api/openapi.json', { ip: freshIp() });
    await page
      .getByRole('heading', { name: new RegExp(served.body.info.title) })
      .first()
      // Swagger UI reads the whole document first: slow on a busy machine.
      .waitFor({ timeout: 60_000 });
    await page.getByText('/api/attempts/{attemptId}/answers').first().waitFor();
    await checkPage(page, this, 'api reference');
    assert.deepEqual(foreign, []);
  });
});
