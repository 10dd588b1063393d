import assert from 'node:assert/strict';
import { createTenant } from '../support/fixtures';
import { browserPerTest, checkPage, savedAnswersOf, signInAs } from './support/browser';
import { createTestWith } from './support/exams';

// An html question's options drawn as HTML, formulas as MathML the browser draws with no script:
// chosen by keyboard, saved as stored, reviewed as shown (docs/question-types.md, HTML and mathematics).

const QUESTIONS = [
  {
    question_text: '<p>Which is \\(x^2\\) when \\(x = 3\\)?</p>',
    text_format: 'html',
    question_type: 'multiple_choice',
    marks: 1,
    difficulty: 'easy',
    options: ['<b>six</b>', '\\(9\\)', '<math><mn>12</mn></math>'],
    correct_answer: '\\(9\\)',
  },
  {
    question_text: '<p>Smallest first</p>',
    text_format: 'html',
    question_type: 'ordering',
    marks: 1,
    difficulty: 'easy',
    options: ['\\(\\frac{1}{4}\\)', '<i>one half</i>'],
  },
];

describe('web app: options in HTML and formulas', function () {
  this.timeout(180_000);
  const browser = browserPerTest();

  it('shows options as HTML and MathML, takes one by keyboard, saves it as stored and reviews it', async function () {
    const tenant = await createTenant();
    const test = await createTestWith(tenant, { questions: QUESTIONS, settings: { allow_review: 1, shuffle: 0 } });
    const visitor = browser();
    const { page } = visitor;
    await signInAs(page, tenant.student.email, tenant.student.password);
    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();

    const choice = page.getByRole('group', { name: /Which is/ });
    // The text's TeX and the options' are MathML the page draws; the bold option is bold.
    assert.equal((await choice.locator('legend math, .qtext math').count()) >= 2, true);
    await choice.locator('label.option b', { hasText: 'six' }).waitFor();
    const nine = choice.locator('label.option', { has: page.locator('math mn', { hasText: '9' }) });
    assert.equal(await nine.count(), 1);
    // By keyboard: a radio button is chosen with the space bar.
    await nine.locator('input').focus();
    await page.keyboard.press('Space');
    assert.equal(await nine.locator('input').isChecked(), true);
    const ordering = page.getByRole('group', { name: /Smallest first/ });
    await ordering.locator('li math mfrac').waitFor();
    await ordering.getByRole('button', { name: 'Move up: one half' }).waitFor({ state: 'attached' });
    await page.getByText('All answers saved').waitFor();
    // Its accessible name is its text: a formula alone still names the control.
    await choice.getByRole('radio', { name: '12' }).waitFor();
    await checkPage(page, this, 'html options');

    let saved = await savedAnswersOf(page, tenant.student.token);
    for (let tries = 0; saved[test.question_ids[0]] === undefined && tries < 20; tries++) {
      await page.waitForTimeout(250);
      saved = await savedAnswersOf(page, tenant.student.token);
    }
    assert.match(saved[test.question_ids[0]] ?? '', /^<math><semantics><mn>9<\/mn>/);

    await page.getByRole('button', { name: 'Submit the test' }).click();
    await page.getByRole('button', { name: 'Submit now' }).click();
    await page.getByText(/Your score:/).waitFor();
    assert.equal(
      await page
        .getByText(/Your answer:/)
        .first()
        .locator('math')
        .count(),
      1,
    );
    assert.deepEqual(visitor.errors, []);
  });
});
