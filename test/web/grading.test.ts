import assert from 'node:assert/strict';
import { createTenant, createUser, uniqueName } from '../support/fixtures';
import { freshIp, get, post } from '../support/http';
import { browserPerTest, checkPage, keepFailure, openBrowser, signInAs } from './support/browser';
import { createTestWith } from './support/exams';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const attemptIdOf = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').pop()!);

describe('web app: random draws from question pools', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  let folder: { id: string; name: string };
  let test: Awaited<ReturnType<typeof createTestWith>>;
  before(async () => {
    tenant = await createTenant();
    const made = await post(
      '/api/folders',
      { name: uniqueName('Algebra pool') },
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(made.status, 201, made.text);
    folder = made.body;
    // Two easy questions and one hard in the folder.
    for (const [i, difficulty] of (['easy', 'easy', 'hard'] as const).entries()) {
      const res = await post(
        '/api/questions',
        {
          question_text: `Pool question ${i + 1}?`,
          question_type: 'short_answer',
          correct_answer: 'x',
          marks: 1,
          difficulty,
          folder_id: folder.id,
        },
        { token: tenant.admin.token, ip: freshIp() },
      );
      assert.equal(res.status, 201, res.text);
    }
    test = await createTestWith(tenant, {
      publish: false,
      questions: [
        {
          question_text: 'Fixed question?',
          question_type: 'short_answer',
          correct_answer: 'y',
          marks: 1,
          difficulty: 'medium',
        },
      ],
    });
  });

  it('adds a pool in the test editor, shows the publish error naming the pool, then publishes it', async function () {
    const visitor = browser();
    const { page } = visitor;
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}`);
    await page.getByRole('heading', { name: test.test_name, level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Random draws (0)' }).waitFor();
    await checkPage(page, this, 'draft without pools');

    await page.getByRole('button', { name: 'Add a random draw' }).click();
    const pool = page.getByRole('group', { name: 'Pool 1' });
    await pool.getByLabel('Folder').selectOption({ label: folder.name });
    await pool.getByLabel('Difficulty').selectOption({ label: 'Easy' });
    // More than the two easy questions the folder holds: refused at publishing.
    await pool.getByLabel('Questions drawn').fill('3');
    await page.getByTestId('question-count').getByText('4 questions', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Save test' }).click();
    await page.getByText('Test saved.').waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    // The refusal names pools.0: shown in the pool's own group, in plain words.
    await page.getByRole('alert').filter({ hasText: 'Not published: fix the field marked below (Pool 1).' }).waitFor();
    await pool.getByText('This pool can draw at most 2').waitFor();
    await checkPage(page, this, 'publish refused for the pool');

    await pool.getByLabel('Questions drawn').fill('2');
    await page.getByRole('button', { name: 'Save test' }).click();
    await page.getByText('Test saved.').waitFor();
    await page.getByTestId('test-question-count').filter({ hasText: '3' }).waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByTestId('test-status').filter({ hasText: 'published' }).waitFor();
    // Published: the pool is shown, read only.
    assert.equal(await page.getByRole('group', { name: 'Pool 1' }).getByLabel('Questions drawn').inputValue(), '2');
    await checkPage(page, this, 'published with a pool');

    const read = await get(`/api/tests/${test.id}`, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.status, 'published');
    assert.deepEqual(read.body.pools, [{ folder_id: folder.id, difficulty: 'easy', draw: 2 }]);
    assert.equal(read.body.question_count, 3);
    assert.deepEqual(visitor.errors, []);
  });
});

describe('web app: essays graded in the grading queue', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  let test: Awaited<ReturnType<typeof createTestWith>>;
  before(async () => {
    tenant = await createTenant();
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
          difficulty: 'medium',
          max_words: 30,
        },
      ],
    });
  });

  it('a student submits an essay and sees a score not final; an admin grades it blind; the score is complete', async function () {
    const visitor = browser();
    const { page } = visitor;
    await signInAs(page, tenant.student.email, tenant.student.password);
    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();
    await page.getByRole('textbox', { name: 'Answer to question 1' }).fill('Na');
    const essay = page.getByRole('textbox', { name: 'Answer to question 2' });
    const text = 'Chlorophyll breaks down in autumn, and the yellow and red pigments show.';
    // Past max_words the count warns, and the answer is not sent (the service would refuse it).
    await essay.fill(Array.from({ length: 31 }, () => 'leaf').join(' '));
    await page.getByText('31 words of at most 30: too long, shorten it to save it', { exact: true }).waitFor();
    assert.equal(await essay.getAttribute('aria-invalid'), 'true');
    await essay.fill(text);
    await page.getByText('12 words of at most 30', { exact: true }).waitFor();
    await essay.blur();
    await page.getByText('All answers saved').waitFor();
    await checkPage(page, this, 'essay answered');
    const attemptId = attemptIdOf(page.url());

    await page.getByRole('button', { name: 'Submit the test' }).click();
    await page.getByRole('button', { name: 'Submit now' }).click();
    await page.getByText('Score not final: 5 marks awaiting grading.').waitFor();
    assert.match(await page.getByText(/Your score:/).innerText(), /Your score: 1 of 6/);
    await page.getByText('Awaiting grading', { exact: true }).waitFor();
    await checkPage(page, this, 'submitted, not final');
    await page.getByRole('link', { name: 'Back to your tests' }).click();
    await page.getByRole('heading', { name: 'Your results' }).waitFor();
    await page.getByText('Score not final: 5 marks awaiting grading').waitFor();
    await checkPage(page, this, 'results, not final');

    const pending = await get(`/api/attempts/${attemptId}`, { token: tenant.student.token, ip: freshIp() });
    assert.equal(pending.status, 200, pending.text);
    assert.equal(pending.body.grading, 'pending');
    assert.equal(pending.body.pending_marks, 5);

    const admin = await openBrowser();
    try {
      const adminPage = admin.page;
      await signInAs(adminPage, tenant.admin.email, tenant.admin.password);
      await adminPage.goto(`/admin/tests/${test.id}`);
      await adminPage.getByRole('link', { name: 'Grade essays' }).click();
      await adminPage.getByRole('heading', { name: `Grading: ${test.test_name}` }).waitFor();
      await adminPage.getByRole('heading', { name: 'Answer 1 of 1' }).waitFor();
      assert.equal(await adminPage.getByLabel('Blind: hide who wrote each answer').isChecked(), true);
      assert.equal(await adminPage.getByTestId('essay-answer').innerText(), text);
      assert.equal(await adminPage.getByTestId('word-count').innerText(), '12 words (at most 30)');
      await adminPage.getByText('1 answer is waiting for a grade.').waitFor();
      // Blind: nobody's name or id on the page.
      assert.equal(await adminPage.getByText(tenant.student.uid).count(), 0);
      await adminPage
        .getByRole('combobox', { name: 'Question' })
        .getByRole('option', { name: 'Why do leaves change colour?' })
        .waitFor({ state: 'attached' });
      await checkPage(adminPage, this, 'grading queue');

      await adminPage.getByLabel('Marks (0 to 5)').fill('4');
      await adminPage.getByLabel('Feedback').fill('Good: name the pigments.');
      await adminPage.getByRole('button', { name: 'Save grade' }).click();
      await adminPage.getByText(/Grade saved \(4 marks\)\. The attempt’s score is now 5 of 6 \(final/).waitFor();
      await adminPage.getByText('No essay is waiting for a grade.').waitFor();
      await adminPage.getByText('0 answers are waiting for a grade.').waitFor();
      await checkPage(adminPage, this, 'graded, queue empty');
      assert.deepEqual(admin.errors, []);
    } finally {
      await keepFailure(admin, this);
      await admin.close();
    }

    const graded = await get(`/api/attempts/${attemptId}`, { token: tenant.student.token, ip: freshIp() });
    assert.equal(graded.status, 200, graded.text);
    assert.equal(graded.body.grading, 'complete');
    assert.equal(graded.body.pending_marks, 0);
    assert.equal(graded.body.score, 5);

    await page.goto(`/attempts/${attemptId}`);
    await page.getByText('Feedback: Good: name the pigments.').waitFor();
    assert.match(await page.getByText(/Your score:/).innerText(), /Your score: 5 of 6/);
    assert.equal(await page.getByText(/Score not final/).count(), 0);
    await checkPage(page, this, 'graded review');
    assert.deepEqual(visitor.errors, []);
  });
});

describe('web app: regrading a question after a wrong key', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  let test: Awaited<ReturnType<typeof createTestWith>>;
  let fixedBy: { uid: string; email: string; attemptId: string };
  before(async () => {
    tenant = await createTenant();
    test = await createTestWith(tenant, {
      questions: [
        // The key is wrong: 6 × 7 is 42.
        {
          question_text: 'What is 6 × 7?',
          question_type: 'numeric',
          correct_answer: '41',
          marks: 2,
          difficulty: 'easy',
        },
        {
          question_text: 'Symbol for iron?',
          question_type: 'short_answer',
          correct_answer: 'Fe',
          marks: 1,
          difficulty: 'easy',
        },
      ],
    });
    const sit = async (answers: Array<{ question_id: string; student_answer: string }>) => {
      const student = await createUser('student', tenant.clientId);
      const started = await post('/api/attempts', { test_id: test.id }, { token: student.token, ip: freshIp() });
      assert.equal(started.status, 201, started.text);
      const attemptId: string = started.body.attempt_id;
      assert.equal(
        (await post(`/api/attempts/${attemptId}/answers`, { answers }, { token: student.token, ip: freshIp() })).status,
        200,
      );
      const submitted = await post(`/api/attempts/${attemptId}/submit`, undefined, {
        token: student.token,
        ip: freshIp(),
      });
      assert.equal(submitted.status, 200, submitted.text);
      return { uid: student.uid, email: student.email, attemptId };
    };
    const [numericId, ironId] = test.question_ids;
    fixedBy = await sit([
      { question_id: numericId, student_answer: '42' },
      { question_id: ironId, student_answer: 'Fe' },
    ]);
    await sit([{ question_id: ironId, student_answer: 'Fe' }]);
  });

  it('previews the attempts a corrected key changes, then applies it', async function () {
    const visitor = browser();
    const { page } = visitor;
    const before = await get(`/api/attempts/${fixedBy.attemptId}`, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(before.body.score, 1);

    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}/analytics`);
    await page.getByRole('heading', { name: 'Per question' }).waitFor();
    await page.getByRole('button', { name: 'Regrade question 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Regrade question 1' });
    await dialog.waitFor();
    await dialog.getByLabel('New correct answer').fill('42');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByText('Preview: 1 of 2 submitted attempts would change.').waitFor();
    const row = dialog.getByRole('row', { name: new RegExp(fixedBy.uid) });
    assert.deepEqual(await row.getByRole('cell').allInnerTexts(), [
      `Student ${fixedBy.uid}`,
      '1 of 3 (33.3%)',
      '3 of 3 (100%)',
    ]);
    await checkPage(page, this, 'regrade preview');
    // A preview writes nothing.
    assert.equal(
      (await get(`/api/attempts/${fixedBy.attemptId}`, { token: tenant.admin.token, ip: freshIp() })).body.score,
      1,
    );

    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog
      .getByText(/^Applied: 1 of 2 submitted attempts changed\. Version 1 is now at revision \d+\.$/)
      .waitFor();
    await dialog.getByRole('row', { name: new RegExp(fixedBy.uid) }).waitFor();
    await checkPage(page, this, 'regrade applied');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The submitted attempts are read again: the corrected score is listed.
    await page.getByRole('row', { name: new RegExp(`${fixedBy.email}\\) 3 of 3`) }).waitFor();

    const after = await get(`/api/attempts/${fixedBy.attemptId}`, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(after.status, 200, after.text);
    assert.equal(after.body.score, 3);
    assert.deepEqual(visitor.errors, []);
  });
});
