import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  createClientDoc,
  createSuperAdmin,
  createTenant,
  createUser,
  uniqueName,
  type TestUser,
} from '../support/fixtures';
import { api, freshIp, get, patch, post } from '../support/http';
import { browserPerTest, checkPage, openBrowser, signInAs } from './support/browser';
import { createTestWith, DEMO_QUESTIONS } from './support/exams';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** `student` starts the test through the API: the attempt's id. */
async function startAs(student: TestUser, testId: string): Promise<string> {
  const started = await post('/api/attempts', { test_id: testId }, { token: student.token, ip: freshIp() });
  assert.equal(started.status, 201, started.text);
  return started.body.attempt_id;
}

const attemptAs = (tenant: Tenant, attemptId: string) =>
  get(`/api/attempts/${attemptId}`, { token: tenant.admin.token, ip: freshIp() });

describe('web app: the live view of a sitting', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  let test: Awaited<ReturnType<typeof createTestWith>>;
  before(async () => {
    tenant = await createTenant();
    test = await createTestWith(tenant);
  });

  it('gives every attempt in progress the minutes of “extend everyone”', async function () {
    const students = await Promise.all([1, 2].map(() => createUser('student', tenant.clientId)));
    const attempts = await Promise.all(students.map((s) => startAs(s, test.id)));
    const before = await Promise.all(attempts.map(async (id) => (await attemptAs(tenant, id)).body.expires_at));
    const visitor = browser();
    const { page } = visitor;
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}/live`);
    for (const s of students) await page.getByRole('row', { name: new RegExp(s.email) }).waitFor();

    const form = page.getByRole('form', { name: 'Extend everyone' });
    await form.getByLabel('Minutes to give everyone').fill('7');
    await form.getByRole('button', { name: 'Extend everyone' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Extended \d+ attempts by 7 minutes\.$/ })
      .waitFor();
    await checkPage(page, this, 'everyone extended');

    for (const [i, id] of attempts.entries()) {
      const after = await attemptAs(tenant, id);
      assert.equal(Date.parse(after.body.expires_at) - Date.parse(before[i]), 7 * 60_000, `attempt ${i + 1}`);
    }
    assert.deepEqual(visitor.errors, []);
  });

  it('lists under Not started the assigned student who has not started, and nobody once both have', async function () {
    const [first, second] = await Promise.all([1, 2].map(() => createUser('student', tenant.clientId)));
    const asAdmin = () => ({ token: tenant.admin.token, ip: freshIp() });
    const cls = await post('/api/classes', { name: uniqueName('Class'), code: null }, asAdmin());
    assert.equal(cls.status, 201, cls.text);
    for (const s of [first, second]) {
      const added = await api('PUT', `/api/classes/${cls.body.id}/members/${s.uid}`, asAdmin());
      assert.equal(added.status, 200, added.text);
    }
    const assigned = await createTestWith(tenant, { settings: { assigned_class_ids: [cls.body.id] } });
    await startAs(first, assigned.id);
    const visitor = browser();
    const { page } = visitor;
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${assigned.id}/live`);
    await page.getByRole('row', { name: new RegExp(first.email) }).waitFor();
    const waiting = page
      .getByRole('region', { name: 'Not started (1)' })
      .getByRole('list', { name: 'Students who have not started' })
      .getByRole('listitem');
    await waiting.filter({ hasText: `Test student (${second.email})` }).waitFor();
    assert.equal(await waiting.count(), 1, 'only the student who has not started');
    await checkPage(page, this, 'live view with one student not started');

    // The second starts: the next refresh (every 5 s) lists its attempt, and nobody under Not started.
    await startAs(second, assigned.id);
    await page.getByRole('row', { name: new RegExp(second.email) }).waitFor({ timeout: 15_000 });
    await page
      .getByRole('region', { name: 'Not started (0)' })
      .getByText('Nobody is still to start.')
      .waitFor({ timeout: 15_000 });
    assert.deepEqual(visitor.errors, []);
  });

  it('submits a taker’s attempt once the admin confirms, scored with its saved answers, and leaves it running when the admin cancels', async function () {
    const student = await createUser('student', tenant.clientId);
    const attemptId = await startAs(student, test.id);
    const answers = test.question_ids
      .slice(0, 2)
      .map((question_id, i) => ({ question_id, student_answer: String(DEMO_QUESTIONS[i].correct_answer) }));
    const saved = await post(
      `/api/attempts/${attemptId}/answers`,
      { answers },
      { token: student.token, ip: freshIp() },
    );
    assert.equal(saved.status, 200, saved.text);
    const visitor = browser();
    const { page } = visitor;
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}/live`);
    const row = page.getByRole('row', { name: new RegExp(student.email) });
    const submit = row.getByRole('button', { name: `Submit the attempt of Test student (${student.email})` });
    await submit.waitFor();

    // Cancelled: nothing is sent, the attempt runs on.
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await submit.click();
    assert.ok(asked[0].includes(`Submit the attempt of Test student (${student.email}) now?`), asked[0]);
    assert.equal((await attemptAs(tenant, attemptId)).body.status, 'in_progress');

    page.once('dialog', (d) => void d.accept());
    await submit.click();
    await page
      .getByRole('status')
      .filter({ hasText: `Submitted the attempt of Test student (${student.email}): 4 of 18.` })
      .waitFor();
    // Reloaded, the view lists only attempts in progress: the row is gone.
    await row.waitFor({ state: 'detached' });
    await checkPage(page, this, 'attempt submitted by the admin');

    const after = await attemptAs(tenant, attemptId);
    assert.equal(after.body.status, 'submitted');
    assert.equal(after.body.score, 4);
    assert.equal(after.body.submitted_by, 'admin');
    assert.deepEqual(visitor.errors, []);
  });
});

describe('web app: the results CSV of a test', function () {
  this.timeout(180_000);
  const browser = browserPerTest();

  it('downloads a file named after the test, whose header and rows are the submitted attempts', async function () {
    const tenant = await createTenant();
    const test = await createTestWith(tenant);
    const attemptId = await startAs(tenant.student, test.id);
    const answers = test.question_ids
      .slice(0, 3)
      .map((question_id, i) => ({ question_id, student_answer: String(DEMO_QUESTIONS[i].correct_answer) }));
    const asStudent = { token: tenant.student.token, ip: freshIp() };
    assert.equal((await post(`/api/attempts/${attemptId}/answers`, { answers }, asStudent)).status, 200);
    const submitted = await post(`/api/attempts/${attemptId}/submit`, undefined, asStudent);
    assert.equal(submitted.status, 200, submitted.text);
    const { score, total_marks } = submitted.body;

    const visitor = browser();
    const { page } = visitor;
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}/analytics`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download results CSV' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), `${test.test_name.replace(/[^A-Za-z0-9._-]+/g, '-')}-results.csv`);
    const lines = readFileSync((await download.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split(/\r?\n/);
    assert.equal(lines.length, 2, lines.join('\n'));
    const header = lines[0].split(',');
    assert.deepEqual(header.slice(0, 14), [
      'attempt_id',
      'student_id',
      'student_name',
      'student_email',
      'classes',
      'candidate_number',
      'score',
      'total_marks',
      'percentage',
      'Started (UTC)',
      'Submitted (UTC)',
      'submitted_at',
      'auto_submitted',
      'grading',
    ]);
    assert.ok(header.includes('integrity_events_total'), lines[0]);
    const row = lines[1].split(',');
    const cell = (name: string) => row[header.indexOf(name)];
    assert.equal(cell('attempt_id'), attemptId);
    assert.equal(cell('student_id'), tenant.student.uid);
    assert.equal(cell('student_name'), 'Test student');
    assert.equal(Number(cell('score')), score);
    assert.equal(Number(cell('total_marks')), total_marks);
    assert.equal(cell('integrity_events_total'), '0');
    await checkPage(page, this, 'analytics after the download');
    assert.deepEqual(visitor.errors, []);
  });
});

describe('web app: a Super Admin deactivates an organization', function () {
  this.timeout(180_000);
  const browser = browserPerTest();

  it('marks it deactivated, its student and admin are told their organization is not active, and all is back once activated', async function () {
    // Listed by name: a leading 000 puts it on the first page.
    const client = await createClientDoc({ name: `000 ${uniqueName('Closing School')}` });
    const [superAdmin, admin, student] = await Promise.all([
      createSuperAdmin(),
      createUser('client_admin', client.id),
      createUser('student', client.id),
    ]);
    const test = await createTestWith({ client, clientId: client.id, admin, student });

    const visitor = browser();
    const { page } = visitor;
    await signInAs(page, superAdmin.email, superAdmin.password);
    await page.goto('/admin/organizations');
    const row = page.getByRole('row', { name: new RegExp(client.name) });
    await row.getByRole('cell', { name: 'Active', exact: true }).waitFor();
    await row.getByRole('button', { name: `Deactivate ${client.name}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `${client.name} is now deactivated.` })
      .waitFor();
    await row.getByRole('cell', { name: 'Deactivated', exact: true }).waitFor();
    await checkPage(page, this, 'organization deactivated');
    const stored = await get(`/api/clients/${client.id}`, { token: superAdmin.token, ip: freshIp() });
    assert.equal(stored.body.active_status, 0);
    // Its users are refused by the API itself, whatever page they use.
    assert.equal((await get('/api/tests', { token: student.token, ip: freshIp() })).status, 403);

    const taker = await openBrowser();
    try {
      await signInAs(taker.page, student.email, student.password);
      await taker.page.getByRole('alert').filter({ hasText: 'Your organization is not active' }).waitFor();
      assert.equal(await taker.page.getByRole('button', { name: `Start ${test.test_name}` }).count(), 0);
      await checkPage(taker.page, this, 'student of a deactivated organization');
      await taker.page.getByRole('button', { name: 'Sign out' }).click();
      await taker.page.getByLabel('Email').waitFor();

      await signInAs(taker.page, admin.email, admin.password);
      await taker.page.getByRole('alert').filter({ hasText: 'Your organization is not active' }).waitFor();
      assert.equal(await taker.page.getByRole('link', { name: test.test_name }).count(), 0);
      await checkPage(taker.page, this, 'admin of a deactivated organization');
      await taker.page.getByRole('button', { name: 'Sign out' }).click();
      await taker.page.getByLabel('Email').waitFor();

      await row.getByRole('button', { name: `Activate ${client.name}` }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `${client.name} is now active.` })
        .waitFor();
      await row.getByRole('cell', { name: 'Active', exact: true }).waitFor();

      await signInAs(taker.page, student.email, student.password);
      await taker.page.getByRole('button', { name: `Start ${test.test_name}` }).waitFor();
      assert.equal(await taker.page.getByRole('alert').count(), 0);
      assert.deepEqual(taker.errors, []);
    } finally {
      await taker.close();
    }
    assert.deepEqual(visitor.errors, []);
  });

  it('tells a student in the middle of an attempt that the answer was not saved, keeps it, and saves it once the organization is active again', async function () {
    const tenant = await createTenant();
    const test = await createTestWith(tenant);
    const superAdmin = await createSuperAdmin();
    const setActive = async (active_status: 0 | 1) => {
      const res = await patch(
        `/api/clients/${tenant.clientId}`,
        { active_status },
        { token: superAdmin.token, ip: freshIp() },
      );
      assert.equal(res.status, 200, res.text);
    };
    const visitor = browser();
    const { page } = visitor;
    await signInAs(page, tenant.student.email, tenant.student.password);
    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();
    const attemptId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);

    await setActive(0);
    await page
      .getByRole('group', { name: /capital of France/ })
      .getByLabel('Paris')
      .check();
    await page.getByRole('status').filter({ hasText: 'Not saved: Your organization is not active' }).waitFor();
    await checkPage(page, this, 'answer refused while deactivated');

    await setActive(1);
    await page
      .getByRole('group', { name: /Red Planet/ })
      .getByLabel('Mars')
      .check();
    await page.getByText('All answers saved').waitFor();
    const attempt = await get(`/api/attempts/${attemptId}`, { token: tenant.student.token, ip: freshIp() });
    assert.deepEqual(attempt.body.answers.map((a: { student_answer: string }) => a.student_answer).sort(), [
      'Mars',
      'Paris',
    ]);
    assert.deepEqual(visitor.errors, []);
  });
});
