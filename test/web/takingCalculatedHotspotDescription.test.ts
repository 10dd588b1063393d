import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { createTenant } from '../support/fixtures';
import { browserPerTest, checkPage, press, savedAnswersOf, signInAs } from './support/browser';
import { createTestWith, storedImage } from './support/exams';

// A description (read, never answered), a calculated (a number typed, a decimal comma allowed) and a
// hotspot choosing areas and placing points, answered by keyboard alone: the areas as toggle buttons
// in a list below the image, a point typed as X and Y. The image is a stored media file, fetched with
// the attempt's credentials.

const questionsWith = (src: string) => [
  {
    question_text: 'Read this first: the questions below are about a red dot.',
    question_type: 'description',
    difficulty: 'easy',
  },
  {
    question_text: 'What is {a} times 2?',
    question_type: 'calculated',
    marks: 1,
    difficulty: 'easy',
    variables: [{ name: 'a', min: 1, max: 9, decimals: 1 }],
    formula: '{a} * 2',
    tolerance: 0.001,
  },
  {
    question_text: 'Which part holds the dot?',
    question_type: 'hotspot',
    marks: 1,
    difficulty: 'easy',
    image: { src, width: 200, height: 200, alt: 'A red dot' },
    areas: [
      { shape: 'rect', coords: [0, 0, 100, 100], correct: true, label: 'Top left' },
      { shape: 'circle', coords: [150, 150, 40], correct: false },
    ],
    select: 'areas',
  },
  {
    question_text: 'Place a point on the top left quarter.',
    question_type: 'hotspot',
    marks: 1,
    difficulty: 'easy',
    image: { src, width: 200, height: 200, alt: 'A red dot' },
    areas: [{ shape: 'rect', coords: [0, 0, 100, 100], correct: true }],
    select: 'points',
    max_points: 1,
  },
];

/** Whether every hotspot image on the page shows its fetched file (a blob: URL). */
const imagesShown = (page: Page) =>
  page.waitForFunction(() =>
    Array.from(document.querySelectorAll('.hotspot-image img')).every((img) =>
      img.getAttribute('src')?.startsWith('blob:'),
    ),
  );

describe('web app: a student reads a description and answers a calculated and hotspots', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let made: { tenant: Awaited<ReturnType<typeof createTenant>>; test: Awaited<ReturnType<typeof createTestWith>> };
  before(async () => {
    const tenant = await createTenant();
    const src = `/api/media/${await storedImage(tenant)}`;
    made = { tenant, test: await createTestWith(tenant, { questions: questionsWith(src) }) };
  });

  it('answers each by keyboard, finds the answers after a reload, and reads the review', async function () {
    const visitor = browser();
    const { page } = visitor;
    const { tenant, test } = made;
    await signInAs(page, tenant.student.email, tenant.student.password);
    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();

    // The description is its text alone: no group to answer, no marks, not numbered.
    await page.getByText('Read this first').waitFor();
    assert.equal(await page.getByRole('group', { name: /Read this first/ }).count(), 0);

    const calculated = page.getByRole('group', { name: /times 2/ });
    const legend = await calculated.locator('legend').innerText();
    const [, shown] = /^1\.\s+What is ([\d.]+) times 2\?\s+\(1 mark\)/.exec(legend) ?? [];
    assert.ok(shown, legend);
    const answer = (Number(shown) * 2).toFixed(1).replace('.', ',');
    await calculated.getByRole('textbox', { name: 'Answer to question 1' }).fill(answer);
    await calculated.getByRole('textbox', { name: 'Answer to question 1' }).blur();

    await imagesShown(page);
    const areas = page.getByRole('group', { name: /Which part holds the dot/ });
    await press(page, areas.getByRole('button', { name: 'Top left' }));
    assert.equal(await areas.getByRole('button', { name: 'Top left' }).getAttribute('aria-pressed'), 'true');
    assert.equal(await areas.getByRole('button', { name: 'Area 2' }).getAttribute('aria-pressed'), 'false');

    const points = page.getByRole('group', { name: /Place a point/ });
    await points.getByRole('spinbutton', { name: 'X' }).fill('50');
    await points.getByRole('spinbutton', { name: 'Y' }).fill('40');
    await press(page, points.getByRole('button', { name: 'Add a point' }));
    await points.getByRole('listitem').filter({ hasText: 'point (50, 40)' }).waitFor();
    await points.getByRole('spinbutton', { name: 'X' }).fill('150');
    await points.getByRole('spinbutton', { name: 'Y' }).fill('150');
    await press(page, points.getByRole('button', { name: 'Add a point' }));
    await points.getByText('You may place at most 1 point: remove one first.').waitFor();
    await page.getByText('All answers saved').waitFor();
    await checkPage(page, this, 'attempt with a description, a calculated and hotspots');

    await page.reload();
    await page.getByRole('timer').waitFor();
    assert.equal(await calculated.getByRole('textbox', { name: 'Answer to question 1' }).inputValue(), answer);
    assert.equal(await areas.getByRole('button', { name: 'Top left' }).getAttribute('aria-pressed'), 'true');
    await points.getByRole('button', { name: 'Remove point 1' }).waitFor();
    const saved = await savedAnswersOf(page, tenant.student.token);
    assert.deepEqual(
      test.question_ids.map((id) => saved[id]),
      [undefined, answer, '["1"]', '["50,40"]'],
    );

    await page.getByRole('button', { name: 'Submit the test' }).click();
    // The description is no unanswered question.
    assert.equal(await page.getByText(/unanswered/).count(), 0);
    await page.getByRole('button', { name: 'Submit now' }).click();
    await page.getByText(/Your score:/).waitFor();
    assert.match(await page.getByText(/Your score:/).innerText(), /Your score: 3 of 3/);
    await page.getByText(`Correct answer: ${(Number(shown) * 2).toFixed(1).replace(/\.0$/, '')}`).waitFor();
    assert.deepEqual(
      await page
        .getByRole('table', { name: 'Your areas' })
        .getByRole('row', { name: /Top left/ })
        .getByRole('cell')
        .allInnerTexts(),
      ['chosen', 'chosen', 'right'],
    );
    await page.getByText(/Your answer: point \(50, 40\)/).waitFor();
    const review = page.getByRole('region', { name: 'Review' });
    assert.equal(
      await review.getByRole('listitem').first().innerText(),
      'Read this first: the questions below are about a red dot.',
    );
    await checkPage(page, this, 'review with a description, a calculated and hotspots');
    assert.deepEqual(visitor.errors, []);
  });
});
