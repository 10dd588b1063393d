import assert from 'node:assert/strict';
import { createTenant } from '../support/fixtures';
import { browserPerTest, checkPage, orderOf, press, savedAnswersOf, signInAs } from './support/browser';
import { createTestWith, QUESTIONS_WITH_PARTS } from './support/exams';

// The types with parts, answered by keyboard alone: a drop-down per stem, items moved by buttons,
// a control at each gap, phrases as toggle buttons; every part kept in the one saved answer.

describe('web app: a student answers the types with parts', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let made: { tenant: Awaited<ReturnType<typeof createTenant>>; test: Awaited<ReturnType<typeof createTestWith>> };
  before(async () => {
    const tenant = await createTenant();
    made = { tenant, test: await createTestWith(tenant, { questions: QUESTIONS_WITH_PARTS }) };
  });

  it('answers each by keyboard, finds every part after a reload, and reads a review per part', async function () {
    const visitor = browser();
    const { page } = visitor;
    const { tenant, test } = made;
    await signInAs(page, tenant.student.email, tenant.student.password);
    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();

    const matching = page.getByRole('group', { name: /Match each country/ });
    await matching.getByLabel('France').selectOption('Paris');
    await matching.getByLabel('Italy').selectOption('Oslo');

    const ordering = page.getByRole('group', { name: /planets in order/ });
    await ordering.getByText('Not answered yet').waitFor();
    const right = ['Mercury', 'Venus', 'Earth'];
    // The shuffle deals the right order one time in six: a move away from it first, so a move is always said.
    if ((await orderOf(ordering)).join() === right.join())
      await press(page, ordering.getByRole('button', { name: 'Move down: Mercury' }));
    for (const [target, item] of right.entries())
      while ((await orderOf(ordering)).indexOf(item) > target)
        await press(page, ordering.getByRole('button', { name: `Move up: ${item}` }));
    assert.deepEqual(await orderOf(ordering), right);
    // The order is said, and the focus stays on the moved item's buttons.
    await ordering.getByText(/is now \d of 3\./).waitFor();

    const gaps = page.getByRole('group', { name: /Fill in each gap/ });
    await gaps.getByRole('textbox', { name: 'Gap 1' }).fill('paris');
    await gaps.getByRole('textbox', { name: 'Gap 2' }).fill('3,14');
    await gaps.getByRole('textbox', { name: 'Gap 2' }).blur();
    await gaps.getByRole('combobox', { name: 'Gap 3' }).selectOption('Mars');
    await gaps.getByRole('combobox', { name: 'Gap 4' }).selectOption('Earth');
    // Each chip fills one gap: the one in gap 4 is not offered in gap 5.
    assert.equal(
      await gaps.getByRole('combobox', { name: 'Gap 5' }).getByRole('option', { name: 'Earth' }).isDisabled(),
      true,
    );
    await gaps.getByRole('combobox', { name: 'Gap 5' }).selectOption('Moon');

    const phrases = page.getByRole('group', { name: /Choose the phrases/ });
    for (const phrase of ['fox', 'jumps', 'dog']) await press(page, phrases.getByRole('button', { name: phrase }));
    await phrases.getByText('You may choose at most 2: unchoose one first.').waitFor();
    assert.equal(await phrases.getByRole('button', { name: 'dog' }).getAttribute('aria-pressed'), 'false');
    await press(page, phrases.getByRole('button', { name: 'jumps' }));
    await press(page, phrases.getByRole('button', { name: 'dog' }));
    await page.getByText('All answers saved').waitFor();
    await checkPage(page, this, 'attempt with parts');

    await page.reload();
    await page.getByRole('timer').waitFor();
    assert.equal(await matching.getByLabel('Italy').inputValue(), 'Oslo');
    assert.deepEqual(await orderOf(ordering), right);
    assert.equal(await gaps.getByRole('textbox', { name: 'Gap 2' }).inputValue(), '3,14');
    assert.equal(await phrases.getByRole('button', { name: 'fox' }).getAttribute('aria-pressed'), 'true');
    const saved = await savedAnswersOf(page, tenant.student.token);
    assert.deepEqual(
      test.question_ids.map((id) => saved[id]),
      ['["Paris","Oslo"]', '["Mercury","Venus","Earth"]', '["paris","3,14","Mars","Earth","Moon"]', 'fox|dog'],
    );

    await page.getByRole('button', { name: 'Submit the test' }).click();
    await page.getByRole('button', { name: 'Submit now' }).click();
    await page.getByText(/Your score:/).waitFor();
    assert.match(await page.getByText(/Your score:/).innerText(), /Your score: 9 of 10/);
    const matches = page.getByRole('table', { name: 'Your matches' });
    assert.deepEqual(await matches.getByRole('row', { name: /Italy/ }).getByRole('cell').allInnerTexts(), [
      'Oslo',
      'Rome',
      'wrong',
    ]);
    assert.deepEqual(
      await matches
        .getByRole('row', { name: /France/ })
        .getByRole('cell')
        .allInnerTexts(),
      ['Paris', 'Paris', 'right'],
    );
    await page.getByRole('table', { name: 'Your gaps' }).waitFor();
    await checkPage(page, this, 'review with parts');
    assert.deepEqual(visitor.errors, []);
  });
});
