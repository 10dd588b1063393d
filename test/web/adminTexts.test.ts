import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { createTenant, uniqueName } from '../support/fixtures';
import { freshIp, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { createTestWith } from './support/exams';

// What a teacher reads every day on the admin pages: the bank picker of a test (by folder, by title,
// the types in words, "1 mark"), the header calling them by name, and the pages at a phone's width.

type Tenant = Awaited<ReturnType<typeof createTenant>>;

async function seedBank(tenant: Tenant) {
  const token = tenant.admin.token;
  const folder = await post('/api/folders', { name: uniqueName('Physics') }, { token, ip: freshIp() });
  assert.equal(folder.status, 201, folder.text);
  const filed = await post(
    '/api/questions',
    {
      title: 'Boiling point',
      question_text: '<p>Water boils at <strong>100 °C</strong> at sea level.</p>',
      text_format: 'html',
      question_type: 'true_false',
      options: ['True', 'False'],
      correct_answer: 'True',
      marks: 1,
      difficulty: 'easy',
      folder_id: folder.body.id,
    },
    { token, ip: freshIp() },
  );
  assert.equal(filed.status, 201, filed.text);
  const loose = await post(
    '/api/questions',
    {
      question_text: '<p>Name the <em>capital</em> of France.</p>',
      text_format: 'html',
      question_type: 'short_answer',
      correct_answer: 'Paris',
      marks: 2,
      difficulty: 'easy',
    },
    { token, ip: freshIp() },
  );
  assert.equal(loose.status, 201, loose.text);
  return { folder: folder.body as { id: string; name: string } };
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('web app: what a teacher reads on the admin pages', function () {
  this.timeout(180_000);
  const browser = browserPerTest();

  it('adds from the bank by folder and search, each question named by its title, its type and marks in words', async function () {
    const tenant = await createTenant();
    const { folder } = await seedBank(tenant);
    const test = await createTestWith(tenant, { questions: [], publish: false });
    const { page } = browser();
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}`);
    const picker = page.getByRole('region', { name: 'Add from the bank' });
    const rows = picker.locator('tr[data-bank-row]');
    await rows.nth(1).waitFor();
    const titled = rows.filter({ hasText: 'Boiling point' });
    assert.deepEqual(await titled.locator('td').allInnerTexts(), ['Boiling point', 'True/false', '1 mark', 'Add']);
    // No title: its text, the HTML stripped.
    const untitled = rows.filter({ hasText: 'Name the capital of France.' });
    assert.deepEqual((await untitled.locator('td').allInnerTexts()).slice(0, 3), [
      'Name the capital of France.',
      'Short answer',
      '2 marks',
    ]);
    await checkPage(page, this, 'bank picker');

    await picker.getByLabel('Folder').selectOption({ label: folder.name });
    await untitled.waitFor({ state: 'detached' });
    assert.equal(await rows.count(), 1);
    await picker.getByLabel('Folder').selectOption({ label: 'All folders' });
    await untitled.waitFor();
    await picker.getByLabel(/^Search/).fill('capital');
    await titled.waitFor({ state: 'detached' });
    assert.equal(await rows.count(), 1);
    await picker.getByLabel(/^Search/).fill('zzz');
    await picker.getByText('No question shown matches “zzz”.').waitFor();
    await picker.getByLabel(/^Search/).fill('');
    await titled.getByRole('button', { name: 'Add: Boiling point' }).click();
    await titled.getByRole('button', { name: 'Added: Boiling point' }).waitFor();
    await checkPage(page, this, 'bank picker after an add');
  });

  it('calls the teacher by name in the header, and fits the users, bank, tests and classes pages into 390 px', async function () {
    const tenant = await createTenant();
    await seedBank(tenant);
    const { page } = browser();
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    const who = page.locator('header.top .who');
    await who.waitFor();
    assert.match(await who.innerText(), /^Test client_admin/);
    assert.equal(await who.getAttribute('title'), tenant.admin.email);

    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, heading] of [
      ['/admin/users', 'Users'],
      ['/admin/questions', 'Question bank'],
      ['/admin/tests', 'Tests'],
      ['/admin/classes', 'Classes'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.waitForLoadState('networkidle');
      const header = (await page.locator('header.top').boundingBox())!;
      assert.ok(header.height <= 64, `the header on ${path} is ${header.height} px tall`);
      assert.ok((await pageWidth(page)) <= 390, `${path} is ${await pageWidth(page)} px wide`);
      await checkPage(page, this, `${heading} at 390 px`);
    }
    // The bank's rows as cards: Edit and Delete on screen, with no sideways scroll.
    await page.goto('/admin/questions');
    const edit = page.getByRole('button', { name: 'Edit Boiling point' });
    await edit.waitFor();
    for (const button of [edit, page.getByRole('button', { name: 'Delete Boiling point' })]) {
      const box = (await button.boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= 390, `a button at ${box.x}..${box.x + box.width}`);
    }
  });
});
