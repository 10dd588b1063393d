import assert from 'node:assert/strict';
import { auditRecordsFor, createTenant, createUser } from '../support/fixtures';
import { api, freshIp, patch, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { createTestWith } from './support/exams';

// The admin pages name the people they show: the live view, analytics, the audit log,
// overrides, share codes and grading (blind grading names nobody).

describe('web app: people by name', function () {
  this.timeout(240_000);
  const browser = browserPerTest();
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let test: Awaited<ReturnType<typeof createTestWith>>;
  let ada: Awaited<ReturnType<typeof createUser>>;
  let grace: Awaited<ReturnType<typeof createUser>>;
  const as = (token: string) => ({ token, ip: freshIp() });

  before(async () => {
    tenant = await createTenant();
    [ada, grace] = await Promise.all([createUser('student', tenant.clientId), createUser('student', tenant.clientId)]);
    const names: Array<[string, string]> = [
      [tenant.admin.uid, 'Mary Somerville'],
      [ada.uid, 'Ada Lovelace'],
      [grace.uid, 'Grace Hopper'],
    ];
    for (const [uid, display_name] of names) {
      const res = await patch(`/api/users/${uid}`, { display_name }, as(tenant.admin.token));
      assert.equal(res.status, 200, res.text);
    }
    test = await createTestWith(tenant, {
      questions: [
        {
          question_text: 'Symbol for sodium?',
          question_type: 'short_answer',
          correct_answer: 'Na',
          marks: 1,
          difficulty: 'easy',
        },
        {
          question_text: 'Why do leaves change colour?',
          question_type: 'essay',
          marks: 5,
          max_words: 30,
          difficulty: 'medium',
        },
      ],
    });
    // Ada is still sitting it; Grace submitted, with an essay to grade.
    const started = await Promise.all(
      [ada, grace].map((s) => post('/api/attempts', { test_id: test.id }, as(s.token))),
    );
    for (const s of started) assert.equal(s.status, 201, s.text);
    const graceAttempt = started[1].body.attempt_id as string;
    const answers = test.question_ids.map((question_id, i) => ({
      question_id,
      student_answer: i === 0 ? 'Na' : 'Chlorophyll breaks down in autumn.',
    }));
    assert.equal((await post(`/api/attempts/${graceAttempt}/answers`, { answers }, as(grace.token))).status, 200);
    assert.equal((await post(`/api/attempts/${graceAttempt}/submit`, undefined, as(grace.token))).status, 200);
    const override = await api('PUT', `/api/tests/${test.id}/overrides/${ada.uid}`, {
      ...as(tenant.admin.token),
      body: { timer: 90 },
    });
    assert.equal(override.status, 200, override.text);
    assert.equal((await post(`/api/tests/${test.id}/share-codes`, {}, as(tenant.admin.token))).status, 201);
  });

  it('shows names in the live view, analytics, overrides, share codes and grading (none when blind)', async function () {
    const { page, errors } = browser();
    await signInAs(page, tenant.admin.email, tenant.admin.password);

    await page.goto(`/admin/tests/${test.id}/live`);
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    assert.equal(await page.getByText(ada.uid).count(), 0, 'no uid in the live view');
    await checkPage(page, this, 'live view');

    await page.goto(`/admin/tests/${test.id}/analytics`);
    await page.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    await checkPage(page, this, 'analytics');
    await page.getByRole('link', { name: 'Grace Hopper' }).click();
    await page.getByRole('heading', { name: 'Grace Hopper', level: 1 }).waitFor();
    await checkPage(page, this, 'a student’s analytics');

    await page.goto(`/admin/tests/${test.id}`);
    const overrides = page.getByRole('region', { name: 'Overrides per student' });
    await overrides.getByRole('cell', { name: `Ada Lovelace (${ada.email})`, exact: true }).waitFor();
    const codes = page.getByRole('region', { name: 'Share codes' });
    await codes.getByRole('cell', { name: 'Mary Somerville', exact: true }).waitFor();
    await checkPage(page, this, 'overrides and share codes');

    await page.goto(`/admin/tests/${test.id}/grading`);
    await page.getByRole('heading', { name: 'Answer 1 of 1' }).waitFor();
    assert.equal(await page.getByLabel('Blind: hide who wrote each answer').isChecked(), true);
    assert.equal(await page.getByText('Grace Hopper').count(), 0, 'blind grading names nobody');
    await page.getByLabel('Blind: hide who wrote each answer').uncheck();
    await page.getByText(/by Grace Hopper/).waitFor();
    await checkPage(page, this, 'grading, not blind');
    assert.deepEqual(errors, []);
  });

  it('reads the audit log as sentences with names, the raw record behind Details, and records no login on a reload', async function () {
    const { page, errors } = browser();
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/admin/audit');
    await page.getByLabel('Event type').selectOption('override_set');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const row = page.locator('tr[data-event-type="override_set"]').first();
    await row.waitFor();
    const sentence = `Mary Somerville set an override of the test “${test.test_name}” for Ada Lovelace`;
    assert.equal(await row.locator('td.event').innerText(), sentence);
    const visible = await row.innerText();
    assert.ok(!visible.includes('{') && !visible.includes(ada.uid), `no JSON or uid until asked: ${visible}`);
    await checkPage(page, this, 'audit log');
    await row.getByText('Details').click();
    await row.getByText(`"test_id": "${test.id}"`).waitFor();
    await checkPage(page, this, 'audit record details');

    // A page load is no new sign-in: the same session's token records no further login.
    const before = (await auditRecordsFor(tenant.admin.uid, 'login')).length;
    await page.reload();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByLabel('Event type').selectOption('login');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.locator('tr[data-event-type="login"]').first().getByText('Mary Somerville signed in').waitFor();
    assert.equal((await auditRecordsFor(tenant.admin.uid, 'login')).length, before);
    assert.deepEqual(errors, []);
  });
});
