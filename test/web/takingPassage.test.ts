import assert from 'node:assert/strict';
import { createTenant } from '../support/fixtures';
import { freshIp, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { createTestWith } from './support/exams';

// A passage shared by two questions of a test: the taker's page shows it once, as a region named by
// its heading, beside the questions that share it on a wide screen and above them on a narrow one;
// its questions are answered as any other (docs/question-types.md, "Passages").

const trueFalse = (question_text: string, passage_id?: string) => ({
  question_text,
  question_type: 'true_false',
  correct_answer: 'True',
  marks: 1,
  difficulty: 'easy',
  ...(passage_id ? { passage_id } : {}),
});

describe('web app: a student reads a passage beside the questions that share it', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let made: { tenant: Awaited<ReturnType<typeof createTenant>>; test: Awaited<ReturnType<typeof createTestWith>> };
  before(async () => {
    const tenant = await createTenant();
    const passage = await post(
      '/api/questions',
      {
        question_type: 'description',
        question_text: '<p>The fox ran <strong>quickly</strong> across the frozen field at dawn.</p>',
        text_format: 'html',
        difficulty: 'easy',
      },
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(passage.status, 201, passage.text);
    const questions = [
      trueFalse('Is the sky blue?'),
      trueFalse('Did the fox run?', passage.body.id),
      trueFalse('Was the field frozen?', passage.body.id),
    ];
    made = { tenant, test: await createTestWith(tenant, { questions }) };
  });

  it('shows the passage once, beside its questions or above them, and passes axe', async function () {
    const { page } = browser();
    const { tenant, test } = made;
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInAs(page, tenant.student.email, tenant.student.password);
    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();

    const region = page.getByRole('region', { name: 'Passage for questions 2–3' });
    await region.waitFor();
    await region.getByRole('heading', { level: 2, name: 'Passage for questions 2–3' }).waitFor();
    assert.equal(await page.getByText('across the frozen field at dawn').count(), 1, 'the passage is shown once');
    assert.equal(await region.locator('strong').innerText(), 'quickly');

    const fox = page.getByRole('group', { name: /Did the fox run/ });
    const field = page.getByRole('group', { name: /Was the field frozen/ });
    assert.match(await fox.locator('legend').innerText(), /^2\./);
    assert.match(await field.locator('legend').innerText(), /^3\./);

    // Wide: beside the questions, on their left. The passage comes before them in reading order.
    const wide = { passage: (await region.boundingBox())!, question: (await fox.boundingBox())! };
    assert.ok(wide.passage.x + wide.passage.width <= wide.question.x + 1, JSON.stringify(wide));
    assert.ok(Math.abs(wide.passage.y - wide.question.y) < 40, JSON.stringify(wide));
    const order = await page.evaluate(() => {
      const passage = document.querySelector('.passage-aside')!;
      const question = Array.from(document.querySelectorAll('fieldset legend')).find((l) =>
        /fox run/.test(l.textContent!),
      )!;
      return passage.compareDocumentPosition(question) & Node.DOCUMENT_POSITION_FOLLOWING;
    });
    assert.ok(order, 'the passage is read before its questions');

    // Answered as any question, by keyboard.
    await fox.getByRole('radio', { name: 'True' }).focus();
    await page.keyboard.press('Space');
    await page.getByText('All answers saved').waitFor();
    await checkPage(page, this, 'attempt with a passage beside its questions');

    // Narrow: above them, with no sideways scroll.
    await page.setViewportSize({ width: 390, height: 844 });
    const narrow = { passage: (await region.boundingBox())!, question: (await fox.boundingBox())! };
    assert.ok(narrow.passage.y + narrow.passage.height <= narrow.question.y + 1, JSON.stringify(narrow));
    const scrollsSideways = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(scrollsSideways, false);
    await checkPage(page, this, 'attempt with a passage above its questions');

    // The review shows the passage once, folded, with the first of its questions.
    await page.getByRole('button', { name: 'Submit the test' }).click();
    await page.getByRole('button', { name: 'Submit now' }).click();
    await page.getByText(/Your score:/).waitFor();
    const review = page.getByRole('region', { name: 'Review' });
    assert.equal(await review.locator('details.passage-review').count(), 1);
    await review.getByText('Passage', { exact: true }).click();
    await review.getByText('across the frozen field at dawn').waitFor();
    await checkPage(page, this, 'review with a passage');
  });
});
