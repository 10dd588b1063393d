import assert from 'node:assert/strict';
import { BASE_URL } from '../support/env';
import { createTenant, uniqueName } from '../support/fixtures';
import { freshIp, get, post } from '../support/http';
import { checkPage, openBrowser, signInAs, type Visitor } from './support/browser';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** All questions of the tenant's bank, through the API. */
async function bankOf(tenant: Tenant): Promise<Array<Record<string, any>>> {
  const res = await get(`/api/questions?limit=100`, { token: tenant.admin.token, ip: freshIp() });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

/** The API's own answer to a dry run of `csv`, as the page's table should show it. */
async function dryRun(tenant: Tenant, csv: string): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'questions.csv');
  const res = await fetch(`${BASE_URL}/api/questions/import?dry_run=true`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${tenant.admin.token}`, 'X-Forwarded-For': freshIp() },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

describe('web app: an admin imports questions from a CSV file', function () {
  this.timeout(180_000);
  let visitor: Visitor;
  let tenant: Tenant;
  before(async () => {
    tenant = await createTenant();
  });
  beforeEach(async () => {
    visitor = await openBrowser();
  });
  afterEach(async () => visitor.close());

  it('shows every bad row with its line, field and message, then imports the fixed file', async function () {
    const tag = uniqueName('Imported');
    const header = 'question_text,question_type,options,correct_answer,marks,difficulty';
    const good1 = `${tag} capital of Italy?,multiple_choice,Rome|Milan|Turin,Rome,2,easy`;
    const good2 = `${tag} sky is blue,true_false,True|False,True,1,easy`;
    const bad = [
      header,
      good1,
      `${tag} two plus two,numeric,,four,1,easy`,
      good2,
      `${tag} symbol for iron,short_answer,,Fe,1,impossible`,
    ].join('\n');
    const fixed = [
      header,
      good1,
      `${tag} two plus two,numeric,,4,1,easy`,
      good2,
      `${tag} symbol for iron,short_answer,,Fe,1,medium`,
    ].join('\n');

    const expected = await dryRun(tenant, bad);
    assert.equal(expected.status, 400, JSON.stringify(expected.body));
    const problems: Array<{ row: number; field: string; message: string }> = expected.body.details;
    assert.deepEqual([...new Set(problems.map((p) => p.row))], [3, 5]);

    const { page } = visitor;
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/admin/import');
    await page.getByRole('heading', { name: 'Import questions', level: 1 }).waitFor();
    await checkPage(page, this, 'import page');

    await page
      .getByLabel('File', { exact: true })
      .setInputFiles({ name: 'questions.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    await page.getByRole('button', { name: 'Check file' }).click();
    await page.getByRole('table').first().waitFor();
    await page.getByRole('alert').waitFor();
    // Each problem on its line: in the per-question report (line, then the field's message) or the row table.
    for (const p of problems) {
      const row = page.locator('tbody tr', { has: page.getByRole('cell', { name: String(p.row), exact: true }) });
      await row.getByText(p.message).first().waitFor();
      await row.getByText(p.field).first().waitFor();
    }
    assert.equal(await page.getByRole('button', { name: 'Import', exact: true }).isDisabled(), true);
    await checkPage(page, this, 'dry run with two bad rows');
    assert.equal((await bankOf(tenant)).filter((q) => q.question_text.startsWith(tag)).length, 0);

    await page
      .getByLabel('File', { exact: true })
      .setInputFiles({ name: 'questions.csv', mimeType: 'text/csv', buffer: Buffer.from(fixed) });
    await page.getByRole('button', { name: 'Check file' }).click();
    await page.getByText('Check passed: 4 questions would be imported, 0 failed.').waitFor();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Imported 4 questions; 0 failed.').waitFor();
    await checkPage(page, this, 'imported');

    const imported = (await bankOf(tenant)).filter((q) => q.question_text.startsWith(tag));
    assert.deepEqual(imported.map((q) => q.question_text).sort(), [
      `${tag} capital of Italy?`,
      `${tag} sky is blue`,
      `${tag} symbol for iron`,
      `${tag} two plus two`,
    ]);
    assert.equal(imported.find((q) => q.question_type === 'numeric')?.correct_answer, '4');
    assert.deepEqual(visitor.errors, []);
  });
});

describe('web app: an admin builds, publishes and shares a test', function () {
  this.timeout(180_000);
  let visitor: Visitor;
  let tenant: Tenant;
  const questions: Array<{ id: string; question_text: string }> = [];
  before(async () => {
    tenant = await createTenant();
    for (const text of ['First bank question?', 'Second bank question?']) {
      const res = await post(
        '/api/questions',
        { question_text: text, question_type: 'short_answer', correct_answer: 'yes', marks: 1, difficulty: 'easy' },
        { token: tenant.admin.token, ip: freshIp() },
      );
      assert.equal(res.status, 201, res.text);
      questions.push(res.body);
    }
  });
  beforeEach(async () => {
    visitor = await openBrowser();
  });
  afterEach(async () => visitor.close());

  it('creates a draft, orders its questions, publishes it and issues a share code the API lists', async function () {
    const { page } = visitor;
    const name = uniqueName('Authored Test');
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.getByRole('heading', { name: 'Tests', level: 1 }).waitFor();
    await checkPage(page, this, 'tests page');

    await page.getByLabel('Test name').fill(name);
    await page.getByLabel('Timer (minutes)').fill('20');
    await page.getByRole('button', { name: 'Create test' }).click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    const testId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await page.getByRole('button', { name: `Add: ${questions[0].question_text}` }).click();
    await page.getByRole('button', { name: `Add: ${questions[1].question_text}` }).click();
    await page.getByRole('button', { name: `Move up: ${questions[1].question_text}` }).click();
    await page.getByRole('button', { name: 'Save test' }).click();
    await page.getByText('Test saved.').waitFor();
    await checkPage(page, this, 'draft test');
    const draft = await get(`/api/tests/${testId}`, { token: tenant.admin.token, ip: freshIp() });
    assert.deepEqual(draft.body.question_ids, [questions[1].id, questions[0].id]);
    assert.equal(draft.body.timer, 20);

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByTestId('test-status').filter({ hasText: 'published' }).waitFor();
    await page.getByRole('button', { name: 'Issue a share code' }).click();
    const shown = (await page.getByTestId('issued-code').innerText()).trim();
    await page.getByRole('cell', { name: shown, exact: true }).waitFor();
    await checkPage(page, this, 'published with a share code');

    const test = await get(`/api/tests/${testId}`, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(test.status, 200, test.text);
    assert.equal(test.body.status, 'published');
    const codes = await get(`/api/tests/${testId}/share-codes`, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(codes.status, 200, codes.text);
    assert.deepEqual(
      codes.body.data.map((c: { code: string }) => c.code),
      [shown],
    );
    assert.deepEqual(visitor.errors, []);
  });
});

describe('web app: an admin writes questions in the bank', function () {
  this.timeout(180_000);
  let visitor: Visitor;
  let tenant: Tenant;
  before(async () => {
    tenant = await createTenant();
  });
  beforeEach(async () => {
    visitor = await openBrowser();
  });
  afterEach(async () => visitor.close());

  it('creates a question of each type and edits one, as the API then answers', async function () {
    const { page } = visitor;
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/admin/questions');
    await page.getByRole('heading', { name: 'Question bank', level: 1 }).waitFor();
    await page.getByText('No question matches.').waitFor();
    await checkPage(page, this, 'empty bank');

    const form = page.getByRole('form', { name: 'New question' });
    const create = async (type: string, text: string, fill: () => Promise<void>) => {
      await page.getByRole('button', { name: 'New question' }).click();
      await form.getByLabel('Type').selectOption({ label: type });
      await form.getByLabel('Question text').fill(text);
      await form.getByLabel('Marks').fill('2');
      await fill();
      await form.getByRole('button', { name: 'Create question' }).click();
      await page.getByRole('button', { name: `Edit ${text}`, exact: true }).waitFor();
    };
    await create('Multiple choice', 'Largest ocean?', async () => {
      await form.getByLabel(/^Options/).fill('Atlantic\nPacific\nIndian');
      await form.getByLabel('Correct option').selectOption('Pacific');
    });
    await create('Multiple select', 'Even numbers?', async () => {
      await form.getByLabel(/^Options/).fill('1\n2\n3\n4');
      await form.getByRole('group', { name: 'Correct options' }).getByLabel('2', { exact: true }).check();
      await form.getByRole('group', { name: 'Correct options' }).getByLabel('4', { exact: true }).check();
    });
    await create('True/false', 'Ice floats on water.', async () => {
      await form.getByLabel('Correct answer').selectOption('True');
    });
    await create('Short answer', 'Symbol for sodium?', async () => {
      await form.getByLabel('Correct answer').fill('Na');
    });
    await create('Numeric', 'Square root of 2?', async () => {
      await form.getByLabel('Correct answer').fill('1.414');
      await form.getByLabel('Tolerance').fill('0.001');
      await form.getByLabel('Difficulty').selectOption('hard');
    });
    await create('Essay', 'Why do leaves change colour?', async () => {
      // An essay has no options and no correct answer to write, only an optional limit on words.
      assert.equal(await form.getByLabel('Correct answer').count(), 0);
      assert.equal(await form.getByLabel(/^Options/).count(), 0);
      assert.equal(await form.getByLabel('Tolerance').count(), 0);
      await form.getByLabel('Max words').fill('400');
    });
    await page.getByRole('cell', { name: 'Graded by a person (at most 400 words)', exact: true }).waitFor();
    await checkPage(page, this, 'bank with six questions');

    await page.getByRole('button', { name: 'Edit Symbol for sodium?', exact: true }).click();
    const edit = page.getByRole('form', { name: 'Edit question' });
    await edit.getByLabel('Question text').fill('Chemical symbol for sodium?');
    await edit.getByLabel('Correct answer').fill('Na');
    await checkPage(page, this, 'editing a question');
    await edit.getByRole('button', { name: 'Save question' }).click();
    await page.getByRole('button', { name: 'Edit Chemical symbol for sodium?', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Edit Why do leaves change colour?', exact: true }).click();
    const essayForm = page.getByRole('form', { name: 'Edit question' });
    assert.equal(await essayForm.getByLabel('Type').inputValue(), 'essay');
    assert.equal(await essayForm.getByLabel('Max words').inputValue(), '400');
    await essayForm.getByLabel('Max words').fill('250');
    await checkPage(page, this, 'editing an essay');
    await essayForm.getByRole('button', { name: 'Save question' }).click();
    await page.getByRole('cell', { name: 'Graded by a person (at most 250 words)', exact: true }).waitFor();

    await page.getByRole('combobox', { name: /^Question type/ }).selectOption({ label: 'Numeric' });
    await page.getByRole('button', { name: 'Edit Square root of 2?', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Edit Largest ocean?', exact: true }).waitFor({ state: 'detached' });
    await checkPage(page, this, 'bank filtered by type');

    const bank = await bankOf(tenant);
    const byText = new Map(bank.map((q) => [q.question_text, q]));
    assert.equal(bank.length, 6);
    assert.deepEqual(
      { ...pick(byText.get('Largest ocean?')) },
      {
        question_type: 'multiple_choice',
        options: ['Atlantic', 'Pacific', 'Indian'],
        correct_answer: 'Pacific',
        marks: 2,
        tolerance: null,
      },
    );
    assert.deepEqual(pick(byText.get('Even numbers?')), {
      question_type: 'multiple_select',
      options: ['1', '2', '3', '4'],
      correct_answer: '2|4',
      marks: 2,
      tolerance: null,
    });
    assert.equal(byText.get('Ice floats on water.')?.question_type, 'true_false');
    assert.equal(byText.get('Ice floats on water.')?.correct_answer.toLowerCase(), 'true');
    assert.equal(byText.get('Symbol for sodium?'), undefined);
    assert.equal(byText.get('Chemical symbol for sodium?')?.question_type, 'short_answer');
    assert.equal(byText.get('Chemical symbol for sodium?')?.correct_answer, 'Na');
    const numeric = byText.get('Square root of 2?');
    assert.equal(numeric?.question_type, 'numeric');
    assert.equal(numeric?.correct_answer, '1.414');
    assert.equal(numeric?.tolerance, 0.001);
    assert.equal(numeric?.difficulty, 'hard');
    const essay = byText.get('Why do leaves change colour?');
    assert.deepEqual(
      { ...pick(essay), max_words: essay?.max_words },
      { question_type: 'essay', options: [], correct_answer: null, marks: 2, tolerance: null, max_words: 250 },
    );
    assert.deepEqual(visitor.errors, []);
  });
});

const pick = (q: Record<string, any> | undefined) => ({
  question_type: q?.question_type,
  options: q?.options,
  correct_answer: q?.correct_answer,
  marks: q?.marks,
  tolerance: q?.tolerance,
});
