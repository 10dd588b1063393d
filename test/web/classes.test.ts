import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { createTenant, createUser, uniqueName, type TestUser } from '../support/fixtures';
import { api, freshIp, get, patch, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { createTestWith } from './support/exams';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** A class made through the API, with `members` added: its id. */
async function classWith(tenant: Tenant, members: TestUser[] = []): Promise<{ id: string; name: string }> {
  const name = uniqueName('Class');
  const made = await post('/api/classes', { name, code: null }, { token: tenant.admin.token, ip: freshIp() });
  assert.equal(made.status, 201, made.text);
  for (const m of members) {
    const added = await api('PUT', `/api/classes/${made.body.id}/members/${m.uid}`, {
      token: tenant.admin.token,
      ip: freshIp(),
    });
    assert.equal(added.status, 200, added.text);
  }
  return { id: made.body.id, name };
}

async function membersOf(tenant: Tenant, classId: string): Promise<Array<{ uid: string; email: string | null }>> {
  const res = await get(`/api/classes/${classId}/members?limit=100`, { token: tenant.admin.token, ip: freshIp() });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

/** A student's home page, once its list of tests is in. */
async function homeOf(page: Page, student: TestUser): Promise<void> {
  await signInAs(page, student.email, student.password);
  await page.getByRole('heading', { name: 'Your tests', level: 1 }).waitFor();
  await page.getByText('Loading your tests…').waitFor({ state: 'detached' });
}

/** The class filter (a select's name carries its chosen option, after the label). */
const classSelect = (page: Page) => page.getByRole('combobox', { name: /^Class/ });

/** The value shown beside a headline figure of the analytics page. */
const figure = (page: Page, label: string) =>
  page
    .locator('.figures div')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');

describe('web app: an admin manages classes and their members', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  before(async () => {
    tenant = await createTenant();
  });

  it('creates a class, adds a student chosen from the organization, checks a roster then imports it', async function () {
    const visitor = browser();
    const { page } = visitor;
    page.on('dialog', (d) => void d.accept());
    const name = uniqueName('Year 9 chemistry');
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.getByRole('link', { name: 'Classes' }).click();
    await page.getByRole('heading', { name: 'Classes', level: 1 }).waitFor();
    await page.getByText('No class yet.').waitFor();
    await checkPage(page, this, 'no class');

    const create = page.getByRole('form', { name: 'New class' });
    await create.getByLabel('Class name').fill(name);
    await create.getByLabel('Code').fill('9C');
    await create.getByRole('button', { name: 'Create class' }).click();
    await page.getByRole('heading', { name: `Class ${name}`, level: 1 }).waitFor();
    const classId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await page.getByText('No member yet.').waitFor();
    await checkPage(page, this, 'new class');

    await page.getByLabel('Student to add').selectOption({ label: `Test student (${tenant.student.email})` });
    await page.getByRole('button', { name: 'Add to class' }).click();
    await page.getByRole('cell', { name: tenant.student.email, exact: true }).waitFor();
    await page.getByTestId('member-count').filter({ hasText: '1' }).waitFor();
    assert.deepEqual(
      (await membersOf(tenant, classId)).map((m) => m.uid),
      [tenant.student.uid],
    );

    // A new student, the member already added, and a row that is not an email.
    const newcomer = `new-${Date.now()}@test.example`;
    const roster = [
      'email,name',
      `${newcomer},Nora Newcomer`,
      `${tenant.student.email},Test student`,
      'not-an-email,Bad Row',
    ].join('\n');
    await page
      .getByLabel('Roster file')
      .setInputFiles({ name: 'roster.csv', mimeType: 'text/csv', buffer: Buffer.from(roster) });
    await page.getByRole('button', { name: 'Check roster' }).click();
    const rows = page.getByRole('table', { name: /Rows of the roster/ }).locator('tbody tr');
    await rows.first().waitFor();
    assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-status'))), [
      'created',
      'already_member',
      'error',
    ]);
    // All or nothing (the default) would refuse the file: nothing to import in that mode.
    await page.getByTestId('roster-summary').filter({ hasText: 'all or nothing would refuse the file' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Import roster' }).isDisabled(), true);
    await checkPage(page, this, 'roster checked');
    assert.equal((await membersOf(tenant, classId)).length, 1);

    await page.getByLabel('Import the others (partial)').check();
    await page.getByRole('button', { name: 'Import roster' }).click();
    await page.getByText(/^Imported: 1 new student, 0 added, 1 already in the class, 1 with errors\.$/).waitFor();
    const memberTable = page.getByRole('table', { name: /^Members of/ });
    await memberTable.getByRole('cell', { name: newcomer, exact: true }).waitFor();
    await checkPage(page, this, 'roster imported');
    const members = await membersOf(tenant, classId);
    assert.deepEqual(members.map((m) => m.email).sort(), [newcomer, tenant.student.email].sort());

    // Removed from the class, still a student of the organization.
    await page
      .getByRole('button', { name: new RegExp(`^Remove .*${newcomer.replace(/[.]/g, '\\.')}.* from the class$`) })
      .click();
    await memberTable.getByRole('cell', { name: newcomer, exact: true }).waitFor({ state: 'detached' });
    assert.equal((await membersOf(tenant, classId)).length, 1);

    // Renamed.
    const renamed = `${name} (renamed)`;
    await page.getByRole('region', { name: 'Name and code' }).getByLabel('Class name').fill(renamed);
    await page.getByRole('button', { name: 'Save class' }).click();
    await page.getByRole('heading', { name: `Class ${renamed}`, level: 1 }).waitFor();
    const read = await get(`/api/classes/${classId}`, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(read.body.name, renamed);
    assert.equal(read.body.code, '9C');
    assert.deepEqual(visitor.errors, []);
  });
});

describe('web app: a test assigned to a class', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  let member: TestUser;
  let outsider: TestUser;
  let cls: { id: string; name: string };
  let test: Awaited<ReturnType<typeof createTestWith>>;
  before(async () => {
    tenant = await createTenant();
    [member, outsider] = await Promise.all([
      createUser('student', tenant.clientId),
      createUser('student', tenant.clientId),
    ]);
    cls = await classWith(tenant, [member]);
    test = await createTestWith(tenant);
  });

  it('is assigned in its sitting settings, with a class override, and refuses the class a delete saying which of the two holds it', async function () {
    const visitor = browser();
    const { page } = visitor;
    page.on('dialog', (d) => void d.accept());
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}`);
    await page.getByRole('heading', { name: test.test_name, level: 1 }).waitFor();
    await page.getByTestId('audience').filter({ hasText: 'every student of the organization' }).waitFor();
    await page.getByLabel('Only the chosen classes').check();
    await page.getByRole('checkbox', { name: new RegExp(`^${cls.name} `) }).check();
    await checkPage(page, this, 'choosing a class');
    await page.getByRole('button', { name: 'Save who can take it' }).click();
    await page.getByText(`Assigned to ${cls.name}.`).waitFor();
    await page
      .getByTestId('audience')
      .filter({ hasText: `the members of ${cls.name}` })
      .waitFor();
    const assigned = await get(`/api/tests/${test.id}`, { token: tenant.admin.token, ip: freshIp() });
    assert.deepEqual(assigned.body.assigned_class_ids, [cls.id]);

    const form = page.getByRole('form', { name: 'Class override' });
    await form.getByLabel('Class to override').selectOption({ label: cls.name });
    await form.getByLabel('Class timer (minutes)').fill('45');
    await form.getByLabel('Class attempts').fill('2');
    await form.getByRole('button', { name: 'Set class override' }).click();
    const row = page
      .getByRole('table', { name: 'Overrides per class' })
      .getByRole('row', { name: new RegExp(cls.name) });
    await row.getByRole('cell', { name: '45 min', exact: true }).waitFor();
    await checkPage(page, this, 'assigned with a class override');
    const overrides = await get(`/api/tests/${test.id}/class-overrides`, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(overrides.status, 200, overrides.text);
    assert.match(JSON.stringify(overrides.body), /"timer":45/);

    // The class holds the test: its delete is refused, naming the test.
    await page.goto('/admin/classes');
    await page.getByRole('button', { name: `Delete the class ${cls.name}` }).click();
    const refusal = page.getByRole('alert').filter({ has: page.getByRole('link', { name: test.test_name }) });
    await refusal.waitFor();
    await refusal.getByText('this test is assigned to it').waitFor();
    await checkPage(page, this, 'delete refused');
    assert.equal((await get(`/api/classes/${cls.id}`, { token: tenant.admin.token, ip: freshIp() })).status, 200);

    // Open to the organization again, the test still holds the class's override: the refusal says so.
    const opened = await patch(
      `/api/tests/${test.id}`,
      { assigned_class_ids: [] },
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(opened.status, 200, opened.text);
    await page.goto('/admin/classes');
    await page.getByRole('button', { name: `Delete the class ${cls.name}` }).click();
    await refusal.getByText('this test holds an override for it').waitFor();
    assert.equal((await get(`/api/classes/${cls.id}`, { token: tenant.admin.token, ip: freshIp() })).status, 200);
    assert.deepEqual(visitor.errors, []);
  });

  it('shows the test to a member of the class on its home page, and not to a student outside it', async function () {
    const patched = await patch(
      `/api/tests/${test.id}`,
      { assigned_class_ids: [cls.id] },
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(patched.status, 200, patched.text);
    const visitor = browser();
    const { page } = visitor;
    await homeOf(page, member);
    await page.getByRole('heading', { name: test.test_name, level: 2 }).waitFor();
    await checkPage(page, this, 'member home');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').waitFor();

    await homeOf(page, outsider);
    await page.getByText('No test is published for you yet.').waitFor();
    assert.equal(await page.getByRole('heading', { name: test.test_name }).count(), 0);
    await checkPage(page, this, 'outsider home');
    assert.deepEqual(visitor.errors, []);
  });
});

describe('web app: the live view, analytics and results filtered by class', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  let member: TestUser;
  let outsider: TestUser;
  let cls: { id: string; name: string };
  let test: Awaited<ReturnType<typeof createTestWith>>;
  const attempts = new Map<string, string>();
  before(async () => {
    tenant = await createTenant();
    [member, outsider] = await Promise.all([
      createUser('student', tenant.clientId),
      createUser('student', tenant.clientId),
    ]);
    // Both in the organization; only `member` in the class, before either starts (an attempt keeps its classes).
    cls = await classWith(tenant, [member]);
    test = await createTestWith(tenant);
    for (const s of [member, outsider]) {
      const started = await post('/api/attempts', { test_id: test.id }, { token: s.token, ip: freshIp() });
      assert.equal(started.status, 201, started.text);
      attempts.set(s.uid, started.body.attempt_id);
    }
  });

  it('lists only the class’s attempts in the live view, then its analytics and its results CSV', async function () {
    const visitor = browser();
    const { page } = visitor;
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}/live`);
    await page.getByRole('row', { name: new RegExp(outsider.email) }).waitFor();
    await page.getByRole('row', { name: new RegExp(member.email) }).waitFor();
    await classSelect(page).selectOption({ label: cls.name });
    await page.getByRole('row', { name: new RegExp(outsider.email) }).waitFor({ state: 'detached' });
    await page.getByRole('row', { name: new RegExp(member.email) }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('class_id'), cls.id);
    await checkPage(page, this, 'live view of the class');

    for (const s of [member, outsider]) {
      const submitted = await post(`/api/attempts/${attempts.get(s.uid)}/submit`, undefined, {
        token: s.token,
        ip: freshIp(),
      });
      assert.equal(submitted.status, 200, submitted.text);
    }
    await page.goto(`/admin/tests/${test.id}/analytics`);
    await page.getByRole('heading', { name: 'Headline figures' }).waitFor();
    await figure(page, 'Attempts').filter({ hasText: /^2$/ }).waitFor();
    await classSelect(page).selectOption({ label: cls.name });
    await figure(page, 'Attempts').filter({ hasText: /^1$/ }).waitFor();
    await page.locator(`a[href="/admin/students/${member.uid}"]`).waitFor();
    assert.equal(await page.locator(`a[href="/admin/students/${outsider.uid}"]`).count(), 0);
    await checkPage(page, this, 'analytics of the class');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download results CSV of this class' }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8');
    assert.match(csv, new RegExp(member.uid));
    assert.doesNotMatch(csv, new RegExp(outsider.uid));
    assert.deepEqual(visitor.errors, []);
  });
});
