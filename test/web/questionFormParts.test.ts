import assert from 'node:assert/strict';
import { createTenant, uniqueName } from '../support/fixtures';
import { freshIp, get } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** The tenant's question whose text starts with `tag`, through the API. */
async function questionTagged(tenant: Tenant, tag: string): Promise<Record<string, any>> {
  const res = await get(`/api/questions?limit=100`, { token: tenant.admin.token, ip: freshIp() });
  assert.equal(res.status, 200, res.text);
  const found = res.body.data.filter((q: { question_text: string }) => q.question_text.startsWith(tag));
  assert.equal(found.length, 1, tag);
  return found[0];
}

describe('web app: the question form writes the types with parts', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  before(async () => {
    tenant = await createTenant();
  });

  it('creates a matching, an ordering, a gap fill and a hottext as the API stores them, and saves one back unchanged', async function () {
    const { page } = browser();
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/admin/questions');
    await page.getByRole('heading', { name: 'Question bank', level: 1 }).waitFor();
    const form = page.getByRole('form', { name: 'New question' });
    const create = async (type: string, text: string, fill: () => Promise<void>) => {
      await page.getByRole('button', { name: 'New question' }).click();
      await form.getByLabel('Type').selectOption({ label: type });
      await form.getByLabel('Question text').fill(text);
      await fill();
      await form.getByRole('button', { name: 'Create question' }).click();
      await page.getByRole('button', { name: `Edit ${text}`, exact: true }).waitFor();
    };

    const matching = uniqueName('Match');
    await create('Matching', matching, async () => {
      await form.getByLabel(/^Options/).fill('Paris\nRome\nOslo');
      await form.getByLabel('Stem 1', { exact: true }).fill('France');
      await form.getByLabel(/^Match of stem 1/).selectOption('Paris');
      await form.getByLabel('Stem 2', { exact: true }).fill('Italy');
      await form.getByLabel(/^Match of stem 2/).selectOption('Rome');
      await checkPage(page, this, 'matching form');
    });
    const ordering = uniqueName('Order');
    await create('Ordering', ordering, async () => {
      await form.getByLabel(/^Options/).fill('Mercury\nVenus\nEarth');
      await form.getByLabel('Scoring').selectOption('partial');
    });
    const gapFill = uniqueName('Gaps');
    await create('Gap fill', `${gapFill} [[1]] is [[2]] and [[3]]`, async () => {
      // A gap the text has not numbered yet has no fields; writing [[1]] adds them.
      await form.getByLabel('Gap 1 accepted answers').fill('Paris\nparis town | 50');
      await form.getByLabel('Gap 2 kind').selectOption('numeric');
      await form.getByLabel('Gap 2 accepted answers').fill('3.14\n3 | 50 | 0.5');
      await form.getByLabel('Gap 2 tolerance').fill('0.01');
      await form.getByLabel('Gap 2 weight').fill('2');
      await form.getByLabel('Gap 3 kind').selectOption('drag');
      await form.getByLabel('Gap 3 accepted answers').fill('Moon');
      await form.getByLabel('Chips').fill('Moon\nSun');
      await checkPage(page, this, 'gap fill form');
    });
    const hottext = uniqueName('Hot');
    await create('Hottext', `${hottext} the [[fox]] [[jumps]] over the [[dog]]`, async () => {
      const right = form.getByRole('group', { name: 'Right phrases' });
      await right.getByLabel('fox', { exact: true }).check();
      await right.getByLabel('dog', { exact: true }).check();
      await form.getByLabel('Most phrases a taker may choose').fill('2');
    });

    const m = await questionTagged(tenant, matching);
    assert.deepEqual(
      [m.question_type, m.stems, m.options, m.matches],
      ['matching', ['France', 'Italy'], ['Paris', 'Rome', 'Oslo'], ['Paris', 'Rome']],
    );
    const o = await questionTagged(tenant, ordering);
    assert.deepEqual([o.options, o.ordering_score], [['Mercury', 'Venus', 'Earth'], 'partial']);
    const g = await questionTagged(tenant, gapFill);
    assert.deepEqual(
      g.gaps.map((gap: { kind: string; answers: unknown[]; weight: number }) => [gap.kind, gap.answers, gap.weight]),
      [
        [
          'text',
          [
            { answer: 'Paris', credit: 100 },
            { answer: 'paris town', credit: 50 },
          ],
          1,
        ],
        [
          'numeric',
          [
            { answer: '3.14', credit: 100, tolerance: 0.01 },
            { answer: '3', credit: 50, tolerance: 0.5 },
          ],
          2,
        ],
        ['drag', [{ answer: 'Moon', credit: 100 }], 1],
      ],
    );
    assert.deepEqual(g.drag_options, ['Moon', 'Sun']);
    const h = await questionTagged(tenant, hottext);
    assert.deepEqual([h.options, h.correct_answer, h.max_choices], [['fox', 'jumps', 'dog'], 'fox|dog', 2]);

    // Read back into the form and saved as it is: the same key.
    await page.getByRole('button', { name: `Edit ${gapFill} [[1]] is [[2]] and [[3]]`, exact: true }).click();
    const edit = page.getByRole('form', { name: 'Edit question' });
    assert.equal(await edit.getByLabel('Gap 2 accepted answers').inputValue(), '3.14\n3 | 50 | 0.5');
    await checkPage(page, this, 'gap fill edited');
    await edit.getByRole('button', { name: 'Save question' }).click();
    await edit.waitFor({ state: 'detached' });
    const saved = await questionTagged(tenant, gapFill);
    assert.deepEqual([saved.gaps, saved.drag_options], [g.gaps, g.drag_options]);
  });

  it('says what a gap fill lacks before sending, at the key', async function () {
    const { page } = browser();
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/admin/questions');
    await page.getByRole('button', { name: 'New question' }).click();
    const form = page.getByRole('form', { name: 'New question' });
    await form.getByLabel('Type').selectOption({ label: 'Gap fill' });
    await form.getByLabel('Question text').fill('No gaps here');
    await form.getByRole('button', { name: 'Create question' }).click();
    await form.getByText('Write the gaps in the question text as [[1]], [[2]], …').first().waitFor();
    await form.getByLabel('Question text').fill('[[1]] and [[3]]');
    await form.getByRole('button', { name: 'Create question' }).click();
    await form.getByText('Gap 2 is not in the text: write [[2]].').first().waitFor();
    await checkPage(page, this, 'gap fill problems');
  });
});
