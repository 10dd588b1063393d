import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { createSuperAdmin } from '../support/fixtures';
import { freshIp, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { tenantWithPublishedTest } from './support/exams';

// Where each person lands, what the header shows them, and where the focus goes
// when the page's content changes under them (a start, a submit).

/** What has the focus: its tag and its text. */
const focused = (page: Page) =>
  page.evaluate(() => ({
    tag: document.activeElement?.tagName ?? '',
    text: document.activeElement?.textContent ?? '',
  }));

async function waitForFocus(page: Page, tag: string, text: RegExp): Promise<void> {
  await page.waitForFunction(
    ([t, source]) =>
      document.activeElement?.tagName === t && new RegExp(source).test(document.activeElement?.textContent ?? ''),
    [tag, text.source] as const,
  );
}

/** Submits the attempt open on the page, confirming. */
async function submitAttempt(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Submit the test' }).click();
  await page.getByRole('button', { name: 'Submit now' }).click();
  await page.getByText(/Your score:/).waitFor();
}

describe('web app: landing pages', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  const sitting = tenantWithPublishedTest();

  it('lands a Super Admin on the organizations list, with the API reference link', async function () {
    const superAdmin = await createSuperAdmin();
    const { page, errors } = browser();
    await signInAs(page, superAdmin.email, superAdmin.password);
    await page.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/admin/organizations');
    assert.equal(await page.getByText('Choose an organization first').count(), 0);
    await page.getByRole('link', { name: 'API reference' }).waitFor();
    await checkPage(page, this, 'super admin landing');
    assert.deepEqual(errors, []);
  });

  it('shows the API reference link to a visitor not signed in, not to a student; focus goes to the test after a start and to the score after a submit', async function () {
    const { tenant, test } = sitting();
    const { page, errors } = browser();
    await page.goto('/');
    await page.getByRole('link', { name: 'API reference' }).waitFor();
    await signInAs(page, tenant.student.email, tenant.student.password);
    await page.getByRole('heading', { name: 'Your tests' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'API reference' }).count(), 0);
    await checkPage(page, this, 'student home');

    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();
    await waitForFocus(page, 'H1', new RegExp(test.test_name));
    await checkPage(page, this, 'started, heading focused');
    await submitAttempt(page);
    await waitForFocus(page, 'P', /Your score:/);
    assert.match((await focused(page)).text, /Your score: \d+ of \d+/);
    await checkPage(page, this, 'submitted, score focused');
    await page.getByRole('link', { name: 'Back to your tests' }).click();
    await page.getByRole('heading', { name: 'Your tests' }).waitFor();
    assert.deepEqual(errors, []);
  });

  it('shows a guest its own name and no API reference link; its way out ends the guest session and leaves nothing behind', async function () {
    const { tenant, test } = sitting();
    const issued = await post(`/api/tests/${test.id}/share-codes`, {}, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(issued.status, 201, issued.text);
    const { page, errors } = browser();
    await page.goto('/');
    await page.getByLabel('Share code').fill(issued.body.code);
    await page.getByLabel('Your name').fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Start as guest' }).click();
    await page.getByRole('timer').waitFor();
    const header = page.getByRole('navigation', { name: 'Account' });
    await header.getByText('Ada Lovelace').waitFor();
    assert.equal(await page.getByRole('link', { name: 'API reference' }).count(), 0);
    await waitForFocus(page, 'H1', new RegExp(test.test_name));
    await checkPage(page, this, 'guest attempt');
    // Its name is kept with its (anonymous) account: a reload still shows it.
    await page.reload();
    await page.getByRole('timer').waitFor();
    await header.getByText('Ada Lovelace').waitFor();

    await submitAttempt(page);
    await waitForFocus(page, 'P', /Your score:/);
    assert.equal(await page.getByRole('link', { name: 'Back to your tests' }).count(), 0);
    await checkPage(page, this, 'guest submitted');
    await page.getByRole('button', { name: 'Finish and leave' }).click();
    // Signed out: the sign-in page, with no one in the header and nothing of the guest kept.
    await page.getByRole('heading', { name: 'Take a test as a guest' }).waitFor();
    await page.getByLabel('Email').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Sign out' }).count(), 0);
    assert.equal(await header.getByText('Ada Lovelace').count(), 0);
    const kept = await page.evaluate(() => Object.keys(localStorage).filter((k) => /^(attempt-token|me):/.test(k)));
    assert.deepEqual(kept, []);
    await page.getByRole('link', { name: 'API reference' }).waitFor();
    await checkPage(page, this, 'guest left');
    assert.deepEqual(errors, []);
  });
});
