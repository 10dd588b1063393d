import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { createTenant, type TestUser } from '../support/fixtures';
import { decodePayload } from '../support/tokens';
import { browserPerTest, checkPage } from './support/browser';

/** Opens GET /api/me in the reference, presses "Try it out" (once) and "Execute": the live reply's status and body. */
async function tryMe(page: Page): Promise<{ status: number; body: string; authorization: string | undefined }> {
  const operation = page.locator('.opblock').filter({ has: page.locator('[data-path="/api/me"]') });
  if (!(await operation.locator('.opblock-body').isVisible())) {
    await operation.locator('.opblock-summary-control').click();
  }
  const tryOut = operation.getByRole('button', { name: 'Try it out' });
  if (await tryOut.isVisible()) await tryOut.click();
  const [request, response] = await Promise.all([
    page.waitForRequest((r) => new URL(r.url()).pathname === '/api/me'),
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/me'),
    operation.getByRole('button', { name: 'Execute' }).click(),
  ]);
  // The panel of an earlier call stays until this one's is drawn: wait for the status this call got.
  const live = operation.locator('.live-responses-table .response');
  const shown = live.locator('.response-col_status', { hasText: String(response.status()) });
  await shown.waitFor();
  return {
    status: Number((await shown.innerText()).trim()),
    body: await live.locator('.response-col_description pre').first().innerText(),
    authorization: await request.headerValue('authorization').then((v) => v ?? undefined),
  };
}

/** Opens /docs and waits for Swagger UI to have read the document (slow on a busy machine: a large document). */
async function openReference(page: Page): Promise<void> {
  await page.goto('/docs');
  await page.getByRole('form', { name: 'Sign in to try calls' }).waitFor({ timeout: 60_000 });
}

describe('web app: the API reference at /docs authorizes its calls', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let student: TestUser;
  before(async () => {
    ({ student } = await createTenant());
  });

  it('signs a reader in with email and password, sends its ID token with "Try it out" (GET /api/me answers 200), and signs out', async function () {
    const { page, errors } = browser();
    await openReference(page);
    const form = page.getByRole('form', { name: 'Sign in to try calls' });
    await form.getByLabel('Email').fill(student.email);
    await form.getByLabel('Password').fill(student.password);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(`Signed in as ${student.email}`).waitFor();
    await checkPage(page, this, 'signed in');

    const signedIn = await tryMe(page);
    assert.equal(signedIn.status, 200, signedIn.body);
    // The reader's own ID token, minted by the Auth SDK's sign-in on this page.
    assert.equal(decodePayload(String(signedIn.authorization).replace(/^Bearer /, '')).sub, student.uid);
    assert.equal(JSON.parse(signedIn.body).email, student.email);
    await checkPage(page, this, 'authorized call');

    // The page's session is its own: the web app in the same browser is still signed out.
    const app = await page.context().newPage();
    await app.goto('/');
    await app.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await app.close();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('form', { name: 'Sign in to try calls' }).waitFor();
    const signedOut = await tryMe(page);
    assert.equal(signedOut.status, 401, signedOut.body);
    assert.equal(signedOut.authorization, undefined);
    assert.deepEqual(
      errors.filter((e) => !/status of 401/.test(e)),
      [],
    );
  });

  it('takes a pasted ID token under Authorize, in a dialog that passes axe, and sends it', async function () {
    const { page } = browser();
    await openReference(page);
    await page.getByRole('button', { name: 'Authorize', exact: true }).click();
    const token = page.getByRole('textbox', { name: 'Bearer token' });
    await token.waitFor();
    await checkPage(page, this, 'authorize dialog');
    await token.fill(student.token);
    await page
      .locator('.auth-container')
      .filter({ has: token })
      .getByRole('button', { name: 'Authorize', exact: true })
      .click();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    await page.getByRole('button', { name: 'Close', exact: true }).first().click();

    const called = await tryMe(page);
    assert.equal(called.status, 200, called.body);
    assert.equal(called.authorization, `Bearer ${student.token}`);
    await checkPage(page, this, 'call with a pasted token');
  });
});
