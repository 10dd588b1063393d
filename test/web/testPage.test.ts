import assert from 'node:assert/strict';
import { createTenant } from '../support/fixtures';
import { freshIp, get } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { createTestWith } from './support/exams';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const DELIVERY = ['opens_at', 'closes_at', 'review_opens_at', 'attempt_cooldown_minutes', 'on_site_only'] as const;

async function readTest(tenant: Tenant, id: string): Promise<{ status: number; body: Record<string, any> }> {
  const res = await get(`/api/tests/${id}`, { token: tenant.admin.token, ip: freshIp() });
  return { status: res.status, body: res.body };
}

const deliveryOf = (test: Record<string, any>) => Object.fromEntries(DELIVERY.map((k) => [k, test[k]]));

describe('web app: an admin edits a draft test’s content and sitting', function () {
  this.timeout(180_000);
  const browser = browserPerTest();

  it('keeps an API-set closes_at to the millisecond through the sitting form and the content form, sends only what changed', async function () {
    const tenant = await createTenant();
    const settings = {
      opens_at: '2030-05-01T10:00:00.000Z',
      closes_at: '2030-05-01T12:00:30.250Z',
      review_opens_at: '2030-05-02T00:00:00.000Z',
      attempt_cooldown_minutes: 15,
    };
    const test = await createTestWith(tenant, { publish: false, settings });
    const before = (await readTest(tenant, test.id)).body;
    const { page } = browser();
    const patches: unknown[] = [];
    const puts: Array<Record<string, unknown>> = [];
    page.on('request', (request) => {
      if (!request.url().endsWith(`/api/tests/${test.id}`)) return;
      if (request.method() === 'PATCH') patches.push(request.postDataJSON());
      if (request.method() === 'PUT') puts.push(request.postDataJSON());
    });
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${encodeURIComponent(test.id)}`);
    await page.getByRole('heading', { name: test.test_name, level: 1 }).waitFor();

    // The input shows the seconds the API set (in the browser's local time).
    const closes = page.getByLabel('Closes at');
    // The local wall time of the instant, to the second (no helper function: tsx would name it, unknown in the page).
    const shown = await page.evaluate((iso) => {
      const d = new Date(iso);
      return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
    }, settings.closes_at);
    assert.equal(await closes.inputValue(), shown);
    await checkPage(page, this, 'sitting form with seconds');

    // Saved untouched: nothing is sent.
    await page.getByRole('button', { name: 'Save sitting settings' }).click();
    await page.getByText('Nothing changed: there is nothing to save.').waitFor();
    assert.deepEqual(patches, []);

    // Another field changed: only it is sent, and closes_at keeps its seconds and milliseconds.
    await page.getByLabel('Cooldown between attempts (minutes)').fill('20');
    await page.getByRole('button', { name: 'Save sitting settings' }).click();
    await page.getByText('Sitting settings saved.').waitFor();
    assert.deepEqual(patches, [{ attempt_cooldown_minutes: 20 }]);
    assert.deepEqual(deliveryOf((await readTest(tenant, test.id)).body), {
      ...deliveryOf(before),
      attempt_cooldown_minutes: 20,
    });

    // closes_at moved to another second: it is sent with its seconds.
    const later = shown.replace(/:30$/, ':45');
    await closes.fill(later);
    await page.getByRole('button', { name: 'Save sitting settings' }).click();
    await page.getByText('Sitting settings saved.').waitFor();
    const expected = await page.evaluate((value) => new Date(value).toISOString(), later);
    assert.deepEqual(patches[1], { closes_at: expected });
    assert.equal((await readTest(tenant, test.id)).body.closes_at, expected);

    // The content form's PUT sends no delivery setting, and every one stays as it was.
    const sitting = deliveryOf((await readTest(tenant, test.id)).body);
    await page.getByLabel('Test name').fill(`${test.test_name} (edited)`);
    await page.getByRole('button', { name: 'Save test' }).click();
    await page.getByText('Test saved.').waitFor();
    assert.equal(puts.length, 1);
    assert.deepEqual(
      DELIVERY.filter((k) => k in puts[0]),
      [],
      `the PUT body: ${JSON.stringify(puts[0])}`,
    );
    const after = (await readTest(tenant, test.id)).body;
    assert.equal(after.test_name, `${test.test_name} (edited)`);
    assert.deepEqual(deliveryOf(after), sitting);
    assert.deepEqual(browser().errors, []);
  });

  it('deletes a draft after a confirmation, and keeps it when the confirmation is dismissed', async function () {
    const tenant = await createTenant();
    const test = await createTestWith(tenant, { publish: false });
    const { page } = browser();
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${encodeURIComponent(test.id)}`);
    await page.getByRole('heading', { name: test.test_name, level: 1 }).waitFor();
    await checkPage(page, this, 'a draft with its delete button');

    // The confirmation is a modal dialog whose focus starts on Cancel: Escape keeps the test.
    await page.getByRole('button', { name: 'Delete draft' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete "${test.test_name}"?` });
    await dialog.getByText('this cannot be undone').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await readTest(tenant, test.id)).status, 200, 'dismissed: the test stays');

    await page.getByRole('button', { name: 'Delete draft' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Tests', level: 1 }).waitFor();
    await page.getByRole('status').getByText(`Test "${test.test_name}" deleted.`).waitFor();
    await checkPage(page, this, 'tests after deleting a draft');
    assert.equal((await readTest(tenant, test.id)).status, 404);

    // A published test has no delete button: it is archived instead.
    const published = await createTestWith(tenant);
    await page.goto(`/admin/tests/${encodeURIComponent(published.id)}`);
    await page.getByRole('heading', { name: published.test_name, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Archive' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Delete draft' }).count(), 0);
    assert.deepEqual(browser().errors, []);
  });
});
