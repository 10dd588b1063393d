import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { createTenant } from '../support/fixtures';
import { freshIp, get, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { createTestWith } from './support/exams';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** A student made through the API (so its profile carries the search keys): uid and email. */
async function student(tenant: Tenant, name: string): Promise<{ uid: string; email: string }> {
  const email = `${name.split(' ')[1].toLowerCase()}-${randomUUID().slice(0, 8)}@test.example`;
  const made = await post(
    '/api/users',
    { email, password: 'a-long-enough-password', display_name: name, role: 'student' },
    { token: tenant.admin.token, ip: freshIp() },
  );
  assert.equal(made.status, 201, made.text);
  return { uid: made.body.uid, email };
}

/** The test's page, signed in as the organization's admin. */
async function testPage(page: Page, tenant: Tenant, test: { id: string; test_name: string }): Promise<void> {
  await signInAs(page, tenant.admin.email, tenant.admin.password);
  await page.goto(`/admin/tests/${test.id}`);
  await page.getByRole('heading', { name: test.test_name, level: 1 }).waitFor();
}

describe('web app: a student picked by name (StudentCombobox)', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  let test: Awaited<ReturnType<typeof createTestWith>>;
  let hopper: { uid: string; email: string };
  let kelly: { uid: string; email: string };
  before(async () => {
    tenant = await createTenant();
    test = await createTestWith(tenant);
    [hopper, kelly] = await Promise.all([student(tenant, 'Grace Hopper'), student(tenant, 'Grace Kelly')]);
  });

  it('sets an override for a student found by typing the start of its name, picked with the keyboard', async function () {
    const { page } = browser();
    await testPage(page, tenant, test);
    const form = page.getByRole('region', { name: 'Overrides per student' });
    const box = form.getByRole('combobox', { name: 'Student to override' });
    await box.pressSequentially('grace');
    const list = form.getByRole('listbox');
    await list.getByRole('option', { name: `Grace Hopper (${hopper.email})` }).waitFor();
    await list.getByRole('option', { name: `Grace Kelly (${kelly.email})` }).waitFor();
    assert.equal(await box.getAttribute('aria-expanded'), 'true');
    await checkPage(page, this, 'the matches listed');

    // Down moves to the second match (the first is active), Up back; Enter picks without submitting.
    await box.press('ArrowDown');
    await box.press('ArrowUp');
    const first = await list.getByRole('option').first().textContent();
    await box.press('Enter');
    assert.equal(await box.inputValue(), first);
    assert.equal(await box.getAttribute('aria-expanded'), 'false');
    const picked = first?.startsWith('Grace Hopper') ? hopper : kelly;
    await form.getByText(`Chosen: ${first}`).waitFor();

    await form.getByLabel('Their timer (minutes)').fill('45');
    await form.getByRole('button', { name: 'Set override' }).click();
    await form.getByRole('cell', { name: '45 min', exact: true }).waitFor();
    await checkPage(page, this, 'override set');
    const overrides = await get(`/api/tests/${test.id}/overrides`, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(overrides.status, 200, overrides.text);
    assert.deepEqual(
      overrides.body.data.map((o: { student_id: string; timer?: number }) => [o.student_id, o.timer]),
      [[picked.uid, 45]],
    );
  });

  it('saves an accommodation for a student narrowed down by name and picked with the mouse', async function () {
    const { page } = browser();
    await testPage(page, tenant, test);
    const form = page.getByRole('region', { name: 'Accommodations' });
    const box = form.getByRole('combobox', { name: 'Student' });
    const save = form.getByRole('button', { name: 'Save accommodation' });
    assert.ok(await save.isDisabled(), 'nobody picked yet');
    await box.pressSequentially('GRACE K');
    const option = form.getByRole('option', { name: `Grace Kelly (${kelly.email})` });
    await option.waitFor();
    assert.equal(await form.getByRole('option').count(), 1, 'only Grace Kelly starts with "grace k"');
    const current = page.waitForResponse((r) => r.url().includes(`/api/users/${kelly.uid}/accommodations`));
    await option.click();
    assert.equal(await box.inputValue(), `Grace Kelly (${kelly.email})`);
    // The student's current values fill the form; its fields wait for them (fill waits until they are enabled).
    await current;

    await form.getByLabel('Extra time (%)').fill('25');
    await save.click();
    await form.getByRole('status').filter({ hasText: 'Accommodation saved.' }).waitFor();
    await checkPage(page, this, 'accommodation saved');
    const stored = await get(`/api/users/${kelly.uid}/accommodations`, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(stored.status, 200, stored.text);
    assert.equal(stored.body.extra_time_percent, 25);

    // Typing again forgets the pick; Escape closes the list, then clears the text.
    await box.press('End');
    await box.press('Backspace');
    // The pick is forgotten once the text changes: the button waits for another.
    await form.getByRole('button', { name: 'Save accommodation', disabled: true }).waitFor();
    await box.press('Escape');
    await box.press('Escape');
    assert.equal(await box.inputValue(), '');
    await form.getByText('Type the start of a name or email.').waitFor();
  });

  it('says so when no student starts with the text', async function () {
    const { page } = browser();
    await testPage(page, tenant, test);
    const form = page.getByRole('region', { name: 'Overrides per student' });
    await form.getByRole('combobox', { name: 'Student to override' }).pressSequentially('zzz');
    await form.getByText('No student starts with that.').waitFor();
    assert.equal(await form.getByRole('option').count(), 0);
  });
});
