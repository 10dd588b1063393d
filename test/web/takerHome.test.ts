import assert from 'node:assert/strict';
import { createTenant } from '../support/fixtures';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { createTestWith } from './support/exams';

describe('web app: a test that is not open yet, on the taker’s home', function () {
  this.timeout(120_000);
  const browser = browserPerTest();

  it('shows "Opens at" in local time and no start button, then the button once opens_at passes on the server’s clock, without a reload', async function () {
    const tenant = await createTenant();
    const opensAt = new Date(Date.now() + 20_000).toISOString();
    const test = await createTestWith(tenant, { settings: { opens_at: opensAt } });
    const { page } = browser();
    // The browser's clock runs ten minutes late: only the server's clock (the API's Date header) opens it on time.
    await page.clock.install({ time: Date.now() - 10 * 60_000 });
    let loads = 0;
    page.on('load', () => loads++);
    await signInAs(page, tenant.student.email, tenant.student.password);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: test.test_name }) });
    await card.waitFor();
    const local = await page.evaluate((iso) => new Date(iso).toLocaleString(), opensAt);
    await card.getByText(`Opens at ${local}`).waitFor();
    assert.ok(Date.now() < Date.parse(opensAt), 'still before opens_at when checked');
    assert.equal(await card.getByRole('button', { name: `Start ${test.test_name}` }).count(), 0);
    await checkPage(page, this, 'not open yet');
    const loadsBefore = loads;

    await card.getByRole('button', { name: `Start ${test.test_name}` }).waitFor({ timeout: 40_000 });
    assert.ok(Date.now() >= Date.parse(opensAt), 'the button appeared once opens_at had surely passed, not before');
    assert.equal(loads, loadsBefore, 'the page was not reloaded');
    assert.equal(await card.getByText('Opens at').count(), 0);
    await checkPage(page, this, 'open');
    await card.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();
    assert.deepEqual(browser().errors, []);
  });
});
