import assert from 'node:assert/strict';
import { createTenant } from '../support/fixtures';
import { browserPerTest, checkPage, openBrowser, press, signInAs } from './support/browser';
import { createTestWith } from './support/exams';

// An essay taking files, answered by keyboard alone: its labelled file picker sends each file at once,
// the files are listed with a remove button each, what happened is said in a live region (a refusal as
// an alert), and the taker's released review and the marker's queue list the files as links.

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8DwnwGMgRQAH+4D/dJQfRoAAAAASUVORK5CYII=',
  'base64',
);

describe('web app: a student attaches files to an essay', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let made: { tenant: Awaited<ReturnType<typeof createTenant>>; test: Awaited<ReturnType<typeof createTestWith>> };
  before(async () => {
    const tenant = await createTenant();
    const questions = [
      {
        question_text: 'Photograph your working.',
        question_type: 'essay',
        marks: 4,
        difficulty: 'easy',
        attachments: 2,
        attachments_required: 1,
      },
    ];
    made = { tenant, test: await createTestWith(tenant, { questions }) };
  });

  it('attaches by keyboard, refuses what is not a PDF, PNG or JPEG, removes, and the review and the marker list the files', async function () {
    const visitor = browser();
    const { page } = visitor;
    const { tenant, test } = made;
    await signInAs(page, tenant.student.email, tenant.student.password);
    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();

    const essay = page.getByRole('group', { name: /Photograph your working/ });
    // The group's name counts the files: found by its start, its count read where it matters.
    const files = essay.getByRole('group', { name: /^Attached files:/ });
    await essay.getByRole('group', { name: /Attached files: 0 of at most 2, at least 1 required/ }).waitFor();
    const picker = files.getByLabel('Attach a file');
    await picker.setInputFiles({ name: 'notes.txt', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf') });
    await files
      .getByRole('alert')
      .filter({ hasText: /PDF, PNG or JPEG/ })
      .waitFor();

    await picker.setInputFiles({ name: 'working.pdf', mimeType: 'application/pdf', buffer: PDF });
    await files.getByRole('status').filter({ hasText: 'working.pdf attached' }).waitFor();
    await picker.setInputFiles({ name: 'sketch.png', mimeType: 'image/png', buffer: PNG });
    await files.getByRole('status').filter({ hasText: 'sketch.png attached' }).waitFor();
    await files.getByText('This answer has all the files it may take; remove one to attach another.').waitFor();
    assert.equal(await files.getByRole('alert').innerText(), '');
    await checkPage(page, this, 'essay with two attached files');

    await press(page, files.getByRole('button', { name: 'Remove sketch.png' }));
    await files.getByRole('status').filter({ hasText: 'sketch.png removed' }).waitFor();
    assert.deepEqual(await files.getByRole('link').allInnerTexts(), ['working.pdf']);

    // The files come back with the attempt.
    await page.reload();
    await page.getByRole('timer').waitFor();
    await essay.getByRole('link', { name: 'working.pdf' }).waitFor();

    await page.getByRole('button', { name: 'Submit the test' }).click();
    // Answered with a file alone: not unanswered.
    assert.equal(await page.getByText(/unanswered/).count(), 0);
    await page.getByRole('button', { name: 'Submit now' }).click();
    await page.getByText(/Your score:/).waitFor();
    const review = page.getByRole('region', { name: 'Review' });
    await review.getByRole('link', { name: 'working.pdf' }).waitFor();
    const download = page.waitForEvent('download');
    await press(page, review.getByRole('link', { name: 'working.pdf' }));
    assert.equal((await download).suggestedFilename(), 'working.pdf');
    await checkPage(page, this, 'review with an attached file');

    // The marker sees the file beside the answer.
    const admin = await openBrowser();
    try {
      const adminPage = admin.page;
      await signInAs(adminPage, tenant.admin.email, tenant.admin.password);
      await adminPage.goto(`/admin/tests/${test.id}/grading`);
      await adminPage.getByRole('heading', { name: 'Answer 1 of 1' }).waitFor();
      await adminPage.getByTestId('attached-files').getByRole('link', { name: 'working.pdf' }).waitFor();
      const marked = adminPage.waitForEvent('download');
      await press(adminPage, adminPage.getByTestId('attached-files').getByRole('link', { name: 'working.pdf' }));
      assert.equal((await marked).suggestedFilename(), 'working.pdf');
      await checkPage(adminPage, this, 'grading an answer with an attached file');
      assert.deepEqual(admin.errors, []);
    } finally {
      await admin.close();
    }
    assert.deepEqual(visitor.errors, []);
  });
});
