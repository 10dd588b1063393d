import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { OPTIONAL_COLUMNS, REQUIRED_COLUMNS } from '../../functions/src/questions/csvRows';
import { DIFFICULTIES, QUESTION_TYPES, TEXT_FORMATS } from '../../functions/src/questions/schemas';
import { createTenant, uniqueName } from '../support/fixtures';
import { freshIp, get } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

async function bankTexts(tenant: Tenant, tag: string): Promise<string[]> {
  const res = await get(`/api/questions?limit=100`, { token: tenant.admin.token, ip: freshIp() });
  assert.equal(res.status, 200, res.text);
  return res.body.data
    .map((q: { question_text: string }) => q.question_text)
    .filter((t: string) => t.startsWith(tag))
    .sort();
}

describe('web app: the CSV import page', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  before(async () => {
    tenant = await createTenant();
  });

  it('offers a template whose header is the service’s column list, and lists each coded column’s values', async function () {
    const { page } = browser();
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/admin/import');
    await page.getByRole('heading', { name: 'Import questions', level: 1 }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the CSV template' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'questions-template.csv');
    const lines = readFileSync((await download.path())!, 'utf8').split('\n');
    assert.deepEqual(lines[0].split(','), [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]);
    assert.ok(lines[0].split(',').includes('max_words'));

    await page.getByText('CSV columns and their allowed values').click();
    const allowed = async (column: string) => (await page.getByTestId(`allowed-${column}`).innerText()).trim();
    // The service's types but those a row cannot hold (their parts have no column), which the note names.
    const notInARow = ['matching', 'ordering', 'gap_fill', 'calculated', 'hotspot'];
    assert.equal(await allowed('question_type'), QUESTION_TYPES.filter((t) => !notInARow.includes(t)).join(', '));
    assert.equal(await allowed('difficulty'), DIFFICULTIES.join(', '));
    assert.equal(await allowed('text_format'), TEXT_FORMATS.join(', '));
    assert.equal(await allowed('case_sensitive'), 'true, false');
    assert.equal(await allowed('marks'), '—');
    await page.getByRole('rowheader', { name: 'max_words' }).waitFor();
    await checkPage(page, this, 'columns and allowed values');
    assert.deepEqual(browser().errors, []);
  });

  it('imports the valid questions of a refused file by a button, and counts them in words', async function () {
    const { page } = browser();
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/admin/import');
    await page.getByRole('heading', { name: 'Import questions', level: 1 }).waitFor();
    const header = 'question_text,question_type,options,correct_answer,marks,difficulty';
    const upload = (name: string, rows: string[]) =>
      page
        .getByLabel('File', { exact: true })
        .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from([header, ...rows].join('\n')) });

    // One valid question and one that is not: all or nothing (the default) would refuse the file.
    const one = uniqueName('One');
    await upload('one.csv', [`${one} ok,short_answer,,yes,1,easy`, `${one} bad,short_answer,,yes,1,impossible`]);
    await page.getByRole('button', { name: 'Check file' }).click();
    const others = page.getByRole('button', { name: 'Import the other 1 question (partial)' });
    await others.waitFor();
    assert.equal(await page.getByText('?mode=partial').count(), 0);
    await checkPage(page, this, 'all or nothing would refuse');
    await others.click();
    await page.getByText('Imported 1 question; 1 failed.').waitFor();
    assert.equal(await page.getByRole('radio', { name: 'Import the others (partial)' }).isChecked(), true);
    assert.deepEqual(await bankTexts(tenant, one), [`${one} ok`]);

    // Two valid: the counts are plural.
    await page.getByRole('radio', { name: 'Import nothing (all or nothing)' }).check();
    const two = uniqueName('Two');
    await upload('two.csv', [
      `${two} a,short_answer,,yes,1,easy`,
      `${two} b,short_answer,,yes,1,easy`,
      `${two} bad,numeric,,many,1,easy`,
    ]);
    await page.getByRole('button', { name: 'Check file' }).click();
    await page.getByText('1 question cannot be imported').waitFor();
    await page.getByRole('button', { name: 'Import the other 2 questions (partial)' }).click();
    await page.getByText('Imported 2 questions; 1 failed.').waitFor();
    await checkPage(page, this, 'imported the others');
    assert.deepEqual(await bankTexts(tenant, two), [`${two} a`, `${two} b`]);
    assert.deepEqual(browser().errors, []);
  });
});
