import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { adminDb } from '../support/admin';
import { createTenant, createUser, uniqueName } from '../support/fixtures';
import { api, freshIp, get, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';

// A teacher's day, seen on the pages: a pool of mixed marks is flagged in the editor (and made equal
// there), the analytics page gives the range of totals beside the highest score, and the results CSV
// downloaded opens in a spreadsheet with accented names intact (a UTF-8 BOM first).

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const question = (text: string, marks: number, folder_id?: string) => ({
  question_text: text,
  question_type: 'multiple_choice',
  options: ['Paris', 'Rome'],
  correct_answer: 'Paris',
  marks,
  difficulty: 'easy',
  ...(folder_id ? { folder_id } : {}),
});

/** A draft (or published) test of one fixed 7-mark question and a pool drawing 1 of a 1-mark and a 2-mark question. */
async function mixedPoolTest(tenant: Tenant, publish: boolean) {
  const as = { token: tenant.admin.token, ip: freshIp() };
  const folder = await post('/api/folders', { name: uniqueName('Mixed pool') }, as);
  assert.equal(folder.status, 201, folder.text);
  const ids: string[] = [];
  for (const [text, marks, inPool] of [
    ['Fixed seven', 7, false],
    ['Worth one', 1, true],
    ['Worth two', 2, true],
  ] as const) {
    const made = await post('/api/questions', question(text, marks, inPool ? folder.body.id : undefined), as);
    assert.equal(made.status, 201, made.text);
    ids.push(made.body.id);
  }
  const created = await post(
    '/api/tests',
    {
      test_name: uniqueName('Pooled'),
      timer: 30,
      shuffle: 0,
      allow_review: 1,
      negative_marking: 0,
      max_attempts: 10,
      status: 'draft',
      question_ids: [ids[0]],
      pools: [{ folder_id: folder.body.id, draw: 1 }],
    },
    as,
  );
  assert.equal(created.status, 201, created.text);
  if (publish) assert.equal((await post(`/api/tests/${created.body.id}/publish`, undefined, as)).status, 200);
  return { id: created.body.id as string, name: created.body.test_name as string, pool: ids.slice(1) };
}

/** A new student named `name` sits the test, answering everything right: its total. */
async function sit(tenant: Tenant, testId: string, name: string): Promise<number> {
  const student = await createUser('student', tenant.clientId);
  await adminDb
    .collection('clients')
    .doc(tenant.clientId)
    .collection('users')
    .doc(student.uid)
    .update({ display_name: name });
  const as = { token: student.token, ip: freshIp() };
  const started = await post('/api/attempts', { test_id: testId }, as);
  assert.equal(started.status, 201, started.text);
  const answers = (started.body.test_details.questions as Array<{ id: string }>).map((q) => ({
    question_id: q.id,
    student_answer: 'Paris',
  }));
  assert.equal((await post(`/api/attempts/${started.body.attempt_id}/answers`, { answers }, as)).status, 200);
  const done = await post(`/api/attempts/${started.body.attempt_id}/submit`, undefined, as);
  assert.equal(done.status, 200, done.text);
  return done.body.total_marks;
}

describe('web app: totals with pools and the gradebook CSV', function () {
  this.timeout(240_000);
  const browser = browserPerTest();

  it('the editor warns beside a pool whose marks differ, and “make equal” sets them through the question API', async function () {
    const tenant = await createTenant();
    const test = await mixedPoolTest(tenant, false);
    const visitor = browser();
    const { page } = visitor;
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}`);
    const note = page.getByRole('note', { name: 'Pool 1: marks differ' });
    // The range is named once the fixed question and the pool are both read.
    await note.filter({ hasText: 'Students may get different totals: 8 to 9 marks.' }).waitFor();
    await checkPage(page, this, 'editor warning of a pool of mixed marks');
    await note.getByRole('button', { name: 'Make every question of pool 1 worth 2 marks' }).click();
    await note.waitFor({ state: 'detached' });
    for (const id of test.pool) {
      const q = await get(`/api/questions/${id}`, { token: tenant.admin.token, ip: freshIp() });
      assert.equal(q.body.marks, 2, 'the bank’s question now worth 2');
    }
    assert.deepEqual(visitor.errors, []);
  });

  it('analytics show the range of totals beside the highest score; the CSV downloaded starts with a BOM and reads “Zoë”', async function () {
    const tenant = await createTenant();
    const test = await mixedPoolTest(tenant, true);
    const totals = new Set<number>();
    // Each sitting draws one of the two at random: 24 tries all drawing the same happens once in 8 million runs
    // (8 tries, once in 128, failed CI). Three sittings are made on average.
    for (let i = 0; i < 24 && totals.size < 2; i++)
      totals.add(await sit(tenant, test.id, i === 0 ? 'Zoë Peña' : `Student ${i}`));
    assert.equal(totals.size, 2, 'both totals were drawn');
    const zone = await api('PATCH', `/api/clients/${tenant.clientId}`, {
      token: tenant.admin.token,
      ip: freshIp(),
      body: { time_zone: 'Europe/Paris' },
    });
    assert.equal(zone.status, 200, zone.text);

    const visitor = browser();
    const { page } = visitor;
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}/analytics`);
    await page.getByRole('heading', { name: 'Headline figures' }).waitFor();
    const figure = async (label: string) =>
      (
        await page
          .locator('dl.figures > div', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
          .locator('dd')
          .innerText()
      ).trim();
    assert.equal(await figure('Total marks'), '8–9');
    assert.equal(await figure('Highest score'), '9');
    await checkPage(page, this, 'analytics with a range of totals');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download results CSV' }).click(),
    ]);
    const bytes = readFileSync((await download.path())!);
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'a UTF-8 byte order mark');
    const lines = bytes
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split('\r\n');
    assert.ok(lines[0].includes('Started (Europe/Paris)'), lines[0]);
    assert.ok(lines[0].includes('Q1 · Fixed seven'), lines[0]);
    assert.ok(
      lines.some((line) => line.includes(',Zoë Peña,')),
      'the name as written',
    );
    assert.ok(
      lines.slice(1, -1).every((line) => line.includes('not drawn')),
      'each row has the pool question it did not draw',
    );
    assert.deepEqual(visitor.errors, []);
  });
});
