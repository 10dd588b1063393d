import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createSuperAdmin, createTenant, createUser } from '../support/fixtures';
import { freshIp, get, post } from '../support/http';
import { checkPage, openBrowser, signInAs, type Visitor } from './support/browser';
import { createTestWith, DEMO_QUESTIONS } from './support/exams';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** A student of the organization starts the test, answers its first `right` questions correctly and submits. */
async function sitAndSubmit(tenant: Tenant, testId: string, questionIds: string[], right: number): Promise<string> {
  const student = await createUser('student', tenant.clientId);
  const started = await post('/api/attempts', { test_id: testId }, { token: student.token, ip: freshIp() });
  assert.equal(started.status, 201, started.text);
  const attemptId: string = started.body.attempt_id;
  const answers = questionIds
    .slice(0, right)
    .map((question_id, i) => ({ question_id, student_answer: String(DEMO_QUESTIONS[i].correct_answer) }));
  if (answers.length > 0) {
    const saved = await post(
      `/api/attempts/${attemptId}/answers`,
      { answers },
      { token: student.token, ip: freshIp() },
    );
    assert.equal(saved.status, 200, saved.text);
  }
  const submitted = await post(`/api/attempts/${attemptId}/submit`, undefined, { token: student.token, ip: freshIp() });
  assert.equal(submitted.status, 200, submitted.text);
  return student.uid;
}

describe('web app: an administrator reads results and runs a sitting', function () {
  this.timeout(180_000);
  let visitor: Visitor;
  let tenant: Tenant;
  let test: Awaited<ReturnType<typeof createTestWith>>;
  let takers: string[];
  before(async function () {
    this.timeout(120_000);
    tenant = await createTenant();
    test = await createTestWith(tenant);
    takers = [];
    for (const right of [9, 6, 3, 1]) takers.push(await sitAndSubmit(tenant, test.id, test.question_ids, right));
  });
  beforeEach(async () => {
    visitor = await openBrowser();
  });
  afterEach(async () => visitor.close());

  it('draws the score distribution chart and lists every question with its figures, linking to each student', async function () {
    const { page } = visitor;
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}/analytics`);
    await page.getByRole('heading', { name: 'Per question' }).waitFor();
    await page.getByRole('img', { name: /Score distribution of 4 submitted attempts/ }).waitFor();
    // The canvas holds drawn pixels (chart.js drew the bars and axes), not a blank surface.
    const painted = await page
      .locator('canvas[data-chart="score-distribution"]')
      .evaluate((canvas: HTMLCanvasElement) => {
        const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
        let n = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
        return n;
      });
    assert.ok(painted > 500, `only ${painted} pixels drawn`);
    const rows = page.locator('tr[data-question-row]');
    assert.equal(await rows.count(), 9);
    assert.match(await rows.first().innerText(), /capital of France/);
    // Everybody got question 1 right (all four answered it correctly): flagged as too easy.
    assert.match(await rows.first().innerText(), /Too easy/);
    assert.equal(await page.getByRole('row', { name: /^0–10%/ }).count(), 1);
    await page.getByRole('button', { name: 'Download results CSV' }).waitFor();
    await checkPage(page, this, 'analytics');

    // Named, not by uid: the fixtures' students are all "Test student", so the link is found by its address.
    await page.locator(`a[href="/admin/students/${takers[0]}"]`).click();
    await page.getByRole('heading', { name: 'Test student', level: 1 }).waitFor();
    await page.getByRole('link', { name: test.test_name }).waitFor();
    await checkPage(page, this, 'student');
    assert.deepEqual(visitor.errors, []);
  });

  it('shows a running attempt in the live sitting view with its saved answers, and extends it by the minutes given', async function () {
    const { page } = visitor;
    const started = await post('/api/attempts', { test_id: test.id }, { token: tenant.student.token, ip: freshIp() });
    assert.equal(started.status, 201, started.text);
    const attemptId: string = started.body.attempt_id;
    const answers = test.question_ids
      .slice(0, 2)
      .map((question_id, i) => ({ question_id, student_answer: String(DEMO_QUESTIONS[i].correct_answer) }));
    assert.equal(
      (await post(`/api/attempts/${attemptId}/answers`, { answers }, { token: tenant.student.token, ip: freshIp() }))
        .status,
      200,
    );
    const before = await get(`/api/attempts/${attemptId}`, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(before.status, 200, before.text);

    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}/live`);
    const row = page.getByRole('row', { name: new RegExp(tenant.student.email) });
    await row.waitFor();
    assert.equal(await row.getByRole('cell').nth(2).innerText(), '2');
    assert.match(await row.getByRole('cell').nth(1).innerText(), /^(\d+:)?\d\d:\d\d$/);
    await checkPage(page, this, 'live sitting');

    await row.getByLabel(/Minutes for/).fill('10');
    await row.getByRole('button', { name: 'Extend' }).click();
    await page.getByText(/Extended .* by 10 minutes/).waitFor();
    const after = await get(`/api/attempts/${attemptId}`, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(Date.parse(after.body.expires_at) - Date.parse(before.body.expires_at), 10 * 60_000);
    await checkPage(page, this, 'live sitting extended');
    assert.deepEqual(visitor.errors, []);
  });

  it('shows audit records filtered by event type', async function () {
    const { page } = visitor;
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/admin/audit');
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByRole('table').waitFor();
    await page.getByLabel('Event type').selectOption('attempt_submitted');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    // Once the filtered page is in, every row is of that type.
    await page.waitForFunction(() => {
      const rows = Array.from(document.querySelectorAll('tr[data-event-type]'));
      return rows.length > 0 && rows.every((tr) => tr.getAttribute('data-event-type') === 'attempt_submitted');
    });
    const types = await page
      .locator('tr[data-event-type]')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-event-type')));
    assert.ok(types.length >= 4, `only ${types.length} records`);
    assert.deepEqual([...new Set(types)], ['attempt_submitted']);
    await checkPage(page, this, 'audit log filtered');
    assert.deepEqual(visitor.errors, []);
  });

  it('lets a Super Admin create an organization and set its networks', async function () {
    const { page } = visitor;
    const superAdmin = await createSuperAdmin();
    // Listed by name: a leading 000 puts it on the first page.
    const name = `000 Exam Hall ${randomUUID().slice(0, 8)}`;
    await signInAs(page, superAdmin.email, superAdmin.password);
    await page.goto('/admin/organizations');
    await page.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Address', { exact: true }).fill('1 Hall Street');
    await page.getByLabel('Logo URL').fill('https://example.com/logo.png');
    await page.getByRole('button', { name: 'Create organization' }).click();
    const row = page.getByRole('row', { name: new RegExp(name) });
    await row.waitFor();
    await checkPage(page, this, 'organizations');
    const clientId = await row.locator('code').innerText();

    await row.getByRole('button', { name: `Networks of ${name}` }).click();
    const networks = page.getByLabel('Networks, one CIDR prefix per line');
    await networks.waitFor();
    await networks.fill('203.0.113.0/24\n2001:db8:1::/48\n');
    await page.getByRole('button', { name: 'Save networks' }).click();
    await page.getByText(`Saved 2 networks for ${name}.`).waitFor();
    await checkPage(page, this, 'networks saved');

    const saved = await get(`/api/clients/${clientId}/networks`, { token: superAdmin.token, ip: freshIp() });
    assert.equal(saved.status, 200, saved.text);
    assert.deepEqual(saved.body.networks, ['203.0.113.0/24', '2001:db8:1::/48']);
    assert.deepEqual(visitor.errors, []);
  });
});
