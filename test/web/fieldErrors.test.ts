import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { createTenant, uniqueName } from '../support/fixtures';
import { freshIp, get, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { createTestWith } from './support/exams';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** The plain message a control is described by, once it is marked invalid. */
async function problemOf(control: Locator): Promise<string> {
  await control.and(control.page().locator('[aria-invalid="true"]')).waitFor();
  const ids = (await control.getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(
    ids
      .split(' ')
      .filter(Boolean)
      .map((id) => control.page().locator(`[id="${id}"]`).innerText()),
  );
  return texts.join(' ');
}

/** Counts the requests of `method` to a path ending in `suffix`. */
function countRequests(page: Page, method: string, suffix: string): () => number {
  let n = 0;
  page.on('request', (r) => {
    if (r.method() === method && new URL(r.url()).pathname.endsWith(suffix)) n++;
  });
  return () => n;
}

describe('web app: the question form’s problems at their fields', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  before(async () => {
    tenant = await createTenant();
  });

  it('checks options, the correct option and a numeric key before sending, each at its field', async function () {
    const { page } = browser();
    const posts = countRequests(page, 'POST', '/api/questions');
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/admin/questions');
    await page.getByRole('button', { name: 'New question' }).click();
    const form = page.getByRole('form', { name: 'New question' });
    await form.getByLabel('Question text').fill('Capital of Italy?');

    // Two options that the service would read as the same one.
    await form.getByLabel(/^Options/).fill('Rome\nMilan\n rome ');
    await form.getByLabel('Correct option').selectOption('Milan');
    await form.getByRole('button', { name: 'Create question' }).click();
    assert.match(await problemOf(form.getByLabel(/^Options/)), /“rome” is written twice \(options 1 and 3\)/);
    await form.getByTestId('form-problems').getByText('Not saved: fix the field marked below (Options).').waitFor();
    await checkPage(page, this, 'duplicate options');

    // The correct option chosen, then taken out of the options.
    await form.getByLabel(/^Options/).fill('Rome\nTurin');
    await form.getByRole('button', { name: 'Create question' }).click();
    assert.match(await problemOf(form.getByLabel('Correct option')), /“Milan” is no longer an option/);
    assert.equal(await form.getByLabel(/^Options/).getAttribute('aria-invalid'), null);

    // A numeric key that is not a number, then one written with a decimal comma.
    await form.getByLabel('Type').selectOption('numeric');
    await form.getByLabel('Correct answer').fill('Rome');
    await form.getByRole('button', { name: 'Create question' }).click();
    assert.match(await problemOf(form.getByLabel('Correct answer')), /^Write a number, such as 3\.14/);
    await form.getByLabel('Correct answer').fill('1,41');
    await form.getByRole('button', { name: 'Create question' }).click();
    await form.getByText('Write the decimals with a point: 1.41.').waitFor();
    await checkPage(page, this, 'numeric key not a number');
    assert.equal(posts(), 0, 'nothing was sent while the form had problems');

    // A problem only the service knows (at most 1000 marks): its detail shown at Marks, in plain words.
    await form.getByLabel('Correct answer').fill('1.41');
    await form.getByLabel('Marks').fill('5000');
    await form.getByRole('button', { name: 'Create question' }).click();
    assert.equal(await problemOf(form.getByLabel('Marks')), 'Enter a number of at most 1000.');
    assert.equal(posts(), 1);
    const summary = form.getByTestId('form-problems');
    assert.equal(await summary.innerText(), 'Not saved: fix the field marked below (Marks).');
    await checkPage(page, this, 'marks refused by the API');

    await form.getByLabel('Marks').fill('1');
    await form.getByRole('button', { name: 'Create question' }).click();
    await page.getByText('Question created.').waitFor();
    assert.deepEqual(browser().errors, []);
  });
});

describe('web app: the test forms’ problems at their fields', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  before(async () => {
    tenant = await createTenant();
  });

  it('shows the new-test form’s refusal at the test name', async function () {
    const { page } = browser();
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.getByRole('heading', { name: 'Tests', level: 1 }).waitFor();
    await page.getByLabel('Test name').fill('x'.repeat(201));
    await page.getByRole('button', { name: 'Create test' }).click();
    assert.equal(await problemOf(page.getByLabel('Test name')), 'Shorten it to at most 200 characters.');
    await page.getByText('Not created: fix the field marked below (Test name).').waitFor();
    await checkPage(page, this, 'test name refused');
  });

  it('refuses to publish a test without a question or a timer before sending, at those fields', async function () {
    const created = await post(
      '/api/tests',
      {
        test_name: uniqueName('Empty'),
        timer: null,
        shuffle: 0,
        allow_review: 0,
        negative_marking: 0,
        question_ids: [],
      },
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(created.status, 201, created.text);
    const { page } = browser();
    const publishes = countRequests(page, 'POST', '/publish');
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${encodeURIComponent(created.body.id)}`);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page
      .getByText('Add at least one question from the bank below (or a random draw) before publishing.')
      .waitFor();
    assert.equal(
      await problemOf(page.getByRole('spinbutton', { name: 'Timer (minutes)', exact: true })),
      'Set a timer, in minutes, before publishing.',
    );
    await page
      .getByText('Not published: fix the 2 fields marked below (Questions of the test, Timer (minutes)).')
      .waitFor();
    await checkPage(page, this, 'publish checked in the form');
    assert.equal(publishes(), 0);
  });

  it('saves unsaved changes first when Publish is pressed, then publishes what the form shows', async function () {
    const test = await createTestWith(tenant, { publish: false });
    const extra = await post(
      '/api/questions',
      {
        question_text: uniqueName('Added before publishing'),
        question_type: 'short_answer',
        correct_answer: 'yes',
        marks: 1,
        difficulty: 'easy',
      },
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(extra.status, 201, extra.text);
    const { page } = browser();
    const order: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith(`/api/tests/${test.id}`) && r.method() !== 'GET')
        order.push(`${r.method()} ${new URL(r.url()).pathname.slice(`/api/tests/${test.id}`.length) || '/'}`);
    });
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${encodeURIComponent(test.id)}`);
    await page.getByRole('heading', { name: test.test_name, level: 1 }).waitFor();
    await page.getByRole('button', { name: `Add: ${extra.body.question_text}` }).click();
    await page.getByTestId('unsaved').waitFor();
    await checkPage(page, this, 'unsaved changes before publishing');
    await page.getByRole('button', { name: 'Save and publish' }).click();
    await page.getByTestId('test-status').filter({ hasText: 'published' }).waitFor();
    assert.deepEqual(order, ['PUT /', 'POST /publish']);
    const read = await get(`/api/tests/${test.id}`, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(read.body.status, 'published');
    assert.deepEqual(read.body.question_ids, [...test.question_ids, extra.body.id]);
  });

  it('checks the sitting window before sending, and shows the API’s refusal at Closes at in plain words', async function () {
    const test = await createTestWith(tenant, { publish: false });
    const { page } = browser();
    const patches = countRequests(page, 'PATCH', `/api/tests/${test.id}`);
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${encodeURIComponent(test.id)}`);
    const sitting = page.getByRole('region', { name: 'Sitting settings' });
    await sitting.getByLabel(/^Opens at/).fill('2030-05-02T10:00:00');
    await sitting.getByLabel(/^Closes at/).fill('2030-05-01T10:00:00');
    await sitting.getByRole('button', { name: 'Save sitting settings' }).click();
    assert.match(await problemOf(sitting.getByLabel(/^Closes at/)), /^Choose a closing time after the opening time/);
    await checkPage(page, this, 'closing before opening');
    assert.equal(patches(), 0);

    // The service's refusal, as docs/api.md shows it, replaced in the browser: shown at its field.
    await page.route(`**/api/tests/${test.id}`, (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({
              error: 'VALIDATION_ERROR',
              status: 400,
              message: 'Invalid request body: body.closes_at: Must be after opens_at',
              details: [{ path: 'body.closes_at', message: 'Must be after opens_at' }],
            }),
          })
        : route.fallback(),
    );
    await sitting.getByLabel(/^Closes at/).fill('2030-05-03T10:00:00');
    await sitting.getByRole('button', { name: 'Save sitting settings' }).click();
    assert.equal(await problemOf(sitting.getByLabel(/^Closes at/)), 'Choose a time after “Opens at”.');
    await sitting.getByText('Not saved: fix the field marked below (Closes at).').waitFor();
    assert.equal(await sitting.getByText('Invalid request body').count(), 0);
    await checkPage(page, this, 'closes_at refused by the API');
  });
});
