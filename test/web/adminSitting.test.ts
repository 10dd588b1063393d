import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { BASE_URL } from '../support/env';
import { createTenant, createUser, type TestUser } from '../support/fixtures';
import { freshIp, get, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { createTestWith } from './support/exams';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const attemptIdOf = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').pop()!);

/** An instant as a datetime-local input takes it: local time to the minute (the browser runs in this process's zone). */
function localInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
/** What the page sends for a datetime-local value: that local minute as ISO 8601 UTC. */
const isoOf = (local: string) => new Date(local).toISOString();

/**
 * Chooses `student` in the student field labelled `label` within `scope`: the one place that knows
 * how a page picks a student, so a different picker changes only this function.
 */
async function chooseStudent(scope: Page | Locator, label: string, student: TestUser): Promise<void> {
  // The picker searches by name or email prefix (StudentCombobox): type the email, pick its match.
  await scope.getByRole('combobox', { name: label }).pressSequentially(student.email);
  await scope.getByRole('option', { name: new RegExp(student.email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).click();
}

const asAdmin = (tenant: Tenant) => ({ token: tenant.admin.token, ip: freshIp() });

describe('web app: an administrator sets a test’s sitting settings', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  let test: Awaited<ReturnType<typeof createTestWith>>;
  before(async () => {
    tenant = await createTenant();
    test = await createTestWith(tenant);
  });

  it('saves the window, the review time, the cooldown and an access code, as the API then reads them, and clears the code', async function () {
    const visitor = browser();
    const { page } = visitor;
    const minute = 60_000;
    const now = Math.floor(Date.now() / minute) * minute;
    const opensAt = localInput(new Date(now - 60 * minute));
    const closesAt = localInput(new Date(now + 26 * 60 * minute));
    const reviewOpensAt = localInput(new Date(now + 27 * 60 * minute));

    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}`);
    const sitting = page.getByRole('region', { name: 'Sitting settings' });
    await sitting.getByText('No access code is set').waitFor();
    await sitting.getByLabel(/^Opens at/).fill(opensAt);
    await sitting.getByLabel('Closes at').fill(closesAt);
    await sitting.getByLabel('Review opens at').fill(reviewOpensAt);
    await sitting.getByLabel('Cooldown between attempts (minutes)').fill('15');
    await sitting.getByLabel(/^Access code/).fill('hall-B-4821');
    await checkPage(page, this, 'sitting settings filled');
    await sitting.getByRole('button', { name: 'Save sitting settings' }).click();
    await sitting.getByRole('status').filter({ hasText: 'Sitting settings saved.' }).waitFor();
    // The code is shown to the admin, for the proctor to read out; the field empties for a new one.
    await sitting.getByText('Access code: hall-B-4821').waitFor();
    assert.equal(await sitting.getByLabel('New access code').inputValue(), '');
    await checkPage(page, this, 'sitting settings saved');

    const saved = await get(`/api/tests/${test.id}`, asAdmin(tenant));
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.opens_at, isoOf(opensAt));
    assert.equal(saved.body.closes_at, isoOf(closesAt));
    assert.equal(saved.body.review_opens_at, isoOf(reviewOpensAt));
    assert.equal(saved.body.attempt_cooldown_minutes, 15);
    assert.equal(saved.body.access_code_required, true);
    assert.equal(saved.body.on_site_only, 0);
    assert.equal(saved.body.access_code, 'hall-B-4821');

    // A reload shows what the API holds, not what the form last had.
    await page.reload();
    await sitting.getByLabel(/^Opens at/).waitFor();
    assert.equal(await sitting.getByLabel(/^Opens at/).inputValue(), opensAt);
    assert.equal(await sitting.getByLabel('Closes at').inputValue(), closesAt);
    assert.equal(await sitting.getByLabel('Cooldown between attempts (minutes)').inputValue(), '15');

    await sitting.getByRole('button', { name: 'Clear the access code' }).click();
    await sitting.getByRole('status').filter({ hasText: 'Access code cleared.' }).waitFor();
    await sitting.getByText('No access code is set').waitFor();
    const cleared = await get(`/api/tests/${test.id}`, asAdmin(tenant));
    assert.equal(cleared.body.access_code_required, false);
    // Clearing the code leaves the rest of the sitting as it was.
    assert.equal(cleared.body.closes_at, isoOf(closesAt));
    assert.equal(cleared.body.attempt_cooldown_minutes, 15);
    assert.deepEqual(visitor.errors, []);
  });
});

describe('web app: a student starts a test that asks for an access code', function () {
  this.timeout(180_000);
  const browser = browserPerTest();

  it('shows the refusal of a wrong code under the test, then starts the attempt with the right one', async function () {
    const tenant = await createTenant();
    const test = await createTestWith(tenant, { settings: { access_code: 'north-wing-77' } });
    const visitor = browser();
    const { page } = visitor;
    await signInAs(page, tenant.student.email, tenant.student.password);
    const card = page.getByRole('listitem', { name: test.test_name });
    const code = card.getByLabel(`Access code for ${test.test_name}`);
    await code.waitFor();
    await checkPage(page, this, 'home asking for the code');

    await code.fill('south-wing-77');
    await card.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await card.getByRole('alert').filter({ hasText: 'This access code is not valid for this test' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/');
    await checkPage(page, this, 'wrong code refused');
    const none = await get(`/api/attempts?test_id=${test.id}`, asAdmin(tenant));
    assert.equal(none.status, 200, none.text);
    assert.equal(none.body.data.length, 0);

    await code.fill('north-wing-77');
    await card.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();
    const attempt = await get(`/api/attempts/${attemptIdOf(page.url())}`, {
      token: tenant.student.token,
      ip: freshIp(),
    });
    assert.equal(attempt.status, 200, attempt.text);
    assert.equal(attempt.body.test_id, test.id);
    assert.equal(attempt.body.status, 'in_progress');
    await checkPage(page, this, 'attempt started with the code');
    // The refused start is a failed request the page reported, not a page error.
    assert.deepEqual(visitor.errors, []);
  });
});

describe('web app: overrides and accommodations of a student', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  let test: Awaited<ReturnType<typeof createTestWith>>;
  let student: TestUser;
  before(async () => {
    tenant = await createTenant();
    test = await createTestWith(tenant);
    student = await createUser('student', tenant.clientId);
  });

  it('sets a student’s closing time, timer and attempts the API then lists, which the student’s attempt runs by, and removes it', async function () {
    const visitor = browser();
    const { page } = visitor;
    const closesAt = localInput(new Date(Date.now() + 3 * 24 * 3_600_000));
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}`);
    const overrides = page.getByRole('region', { name: 'Overrides per student' });
    await overrides.getByText('No override.').waitFor();
    await chooseStudent(overrides, 'Student to override', student);
    await overrides.getByLabel('Their closing time').fill(closesAt);
    await overrides.getByLabel('Their timer (minutes)').fill('45');
    await overrides.getByLabel('Their attempts').fill('2');
    await overrides.getByRole('button', { name: 'Set override' }).click();
    const row = overrides.getByRole('row', { name: new RegExp(student.email) });
    await row.getByRole('cell', { name: '45 min', exact: true }).waitFor();
    await row.getByRole('cell', { name: '2', exact: true }).waitFor();
    await checkPage(page, this, 'override set');

    const listed = await get(`/api/tests/${test.id}/overrides`, asAdmin(tenant));
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body.data.length, 1);
    const [override] = listed.body.data;
    assert.equal(override.student_id, student.uid);
    assert.equal(override.timer, 45);
    assert.equal(override.max_attempts, 2);
    assert.equal(override.closes_at, isoOf(closesAt));
    // Fields left empty keep the test's own value.
    assert.equal('opens_at' in override, false);

    // The student's attempt runs by the override's timer, not the test's 30 minutes.
    const started = await post('/api/attempts', { test_id: test.id }, { token: student.token, ip: freshIp() });
    assert.equal(started.status, 201, started.text);
    const attempt = await get(`/api/attempts/${started.body.attempt_id}`, { token: student.token, ip: freshIp() });
    assert.equal(Date.parse(attempt.body.expires_at) - Date.parse(attempt.body.started_at), 45 * 60_000);

    await row.getByRole('button', { name: new RegExp(`^Remove the override of .*${student.email}`) }).click();
    await overrides.getByText('No override.').waitFor();
    const after = await get(`/api/tests/${test.id}/overrides`, asAdmin(tenant));
    assert.deepEqual(after.body.data, []);
    assert.deepEqual(visitor.errors, []);
  });

  it('saves a student’s extra time the API then reads, shows it when the student is chosen again, and tells the student', async function () {
    const visitor = browser();
    const { page } = visitor;
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}`);
    const accommodations = page.getByRole('region', { name: 'Accommodations' });
    await chooseStudent(accommodations, 'Student', student);
    await accommodations.getByLabel('Extra time (%)').fill('25');
    await accommodations.getByLabel('Extra minutes').fill('10');
    await accommodations.getByRole('button', { name: 'Save accommodation' }).click();
    await accommodations.getByRole('status').filter({ hasText: 'Accommodation saved.' }).waitFor();
    await checkPage(page, this, 'accommodation saved');

    const saved = await get(`/api/users/${student.uid}/accommodations`, asAdmin(tenant));
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.extra_time_percent, 25);
    assert.equal(saved.body.extra_minutes, 10);

    // Chosen again on a fresh page, the form shows the stored values.
    await page.reload();
    await chooseStudent(accommodations, 'Student', student);
    await accommodations.getByText(/^Last set /).waitFor();
    assert.equal(await accommodations.getByLabel('Extra time (%)').inputValue(), '25');
    assert.equal(await accommodations.getByLabel('Extra minutes').inputValue(), '10');
    assert.deepEqual(visitor.errors, []);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').waitFor();
    await signInAs(page, student.email, student.password);
    await page.getByText('Your accommodation: +25% time and 10 extra minutes on every test.').waitFor();
    await checkPage(page, this, 'student home with the accommodation');
  });
});

describe('web app: share codes of a published test', function () {
  this.timeout(180_000);
  const browser = browserPerTest();

  it('copies a new code to the clipboard and says so, then revokes it, as the API then lists it', async function () {
    const tenant = await createTenant();
    const test = await createTestWith(tenant);
    const visitor = browser();
    const { page, context } = visitor;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}`);
    const codes = page.getByRole('region', { name: 'Share codes' });
    await codes.getByLabel('Most uses').fill('3');
    await codes.getByRole('button', { name: 'Issue a share code' }).click();
    const issued = await codes.getByTestId('issued-code').innerText();
    assert.match(issued, /^\S{6,}$/);

    await codes.getByRole('status').filter({ hasText: 'New share code' }).getByRole('button', { name: 'Copy' }).click();
    await codes.getByText(`Copied ${issued}.`).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), issued);
    const row = codes.getByRole('row', { name: new RegExp(issued) });
    await row.getByRole('cell', { name: '0 of 3', exact: true }).waitFor();
    await checkPage(page, this, 'code issued and copied');

    await row.getByRole('button', { name: `Revoke ${issued}` }).click();
    await row.getByText(`${issued} (revoked)`).waitFor();
    assert.equal(await row.getByRole('button', { name: `Copy ${issued}` }).count(), 0);
    assert.equal(await codes.getByTestId('issued-code').count(), 0);
    await checkPage(page, this, 'code revoked');

    const listed = await get(`/api/tests/${test.id}/share-codes`, asAdmin(tenant));
    assert.equal(listed.status, 200, listed.text);
    const stored = listed.body.data.find((c: { code: string }) => c.code === issued);
    assert.equal(stored.revoked, true);
    assert.equal(stored.max_uses, 3);
    assert.deepEqual(visitor.errors, []);
  });
});
