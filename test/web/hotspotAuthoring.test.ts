import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { createTenant, uniqueName } from '../support/fixtures';
import { freshIp, get } from '../support/http';
import { browserPerTest, checkPage, press, signInAs } from './support/browser';
import { storedImage } from './support/exams';

// The question form's drawing tool for a hotspot's areas: a rectangle and a circle drawn by a drag,
// a polygon by its corners, an area selected, marked correct, moved and deleted; the coordinate
// fields follow the drawing and the drawing follows the fields (the way by keyboard).

type Tenant = Awaited<ReturnType<typeof createTenant>>;

// The image's own pixels, in which its areas are (the stored image is square, as these sides are).
const [WIDTH, HEIGHT] = [300, 300];

/** The drawing surface: where a share of the image's sides is on the page, and the image pixel there. */
async function surface(form: Locator) {
  // The mouse moves in the viewport: the image is brought into it first.
  await form.locator('svg.hotspot-canvas').scrollIntoViewIfNeeded();
  const box = await form.locator('svg.hotspot-canvas').boundingBox();
  assert.ok(box);
  const at = (x: number, y: number) => ({ x: box.x + (x / WIDTH) * box.width, y: box.y + (y / HEIGHT) * box.height });
  return { at };
}

/** A drag on the drawing from one image pixel to another. */
async function dragOn(page: Page, form: Locator, from: [number, number], to: [number, number]): Promise<void> {
  const { at } = await surface(form);
  const start = at(...from);
  const end = at(...to);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(end.x, end.y, { steps: 6 });
  await page.mouse.up();
}

/** A click on the drawing at an image pixel. */
async function clickOn(page: Page, form: Locator, point: [number, number]): Promise<void> {
  const { at } = await surface(form);
  const { x, y } = at(...point);
  await page.mouse.click(x, y);
}

/** An area's coordinates as its field holds them, as numbers. */
const coordsIn = async (form: Locator, n: number) =>
  (await form.getByLabel(new RegExp(`^Area ${n} coordinates`)).inputValue()).split(',').map(Number);

/** Each number within two pixels of the expected (the page's pixels are not the image's, each end rounded). */
function near(actual: number[], expected: number[]): void {
  assert.equal(actual.length, expected.length, `${actual} vs ${expected}`);
  actual.forEach((a, i) => assert.ok(Math.abs(a - expected[i]) <= 2, `${actual} vs ${expected}`));
}

describe('web app: an author draws a hotspot’s areas', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  let src: string;
  before(async () => {
    tenant = await createTenant();
    src = `/api/media/${await storedImage(tenant)}`;
  });

  it('draws, selects, marks, moves and deletes areas, the coordinate fields in step both ways', async function () {
    const visitor = browser();
    const { page } = visitor;
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/admin/questions');
    await page.getByRole('heading', { name: 'Question bank', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New question' }).click();
    const form = page.getByRole('form', { name: 'New question' });
    const text = uniqueName('Which part');
    await form.getByLabel('Type').selectOption({ label: 'Hotspot' });
    await form.getByLabel('Question text').fill(text);
    await form.getByText('Fill in the image’s address, width and height to draw the areas on it.').waitFor();
    await form.getByLabel(/^Image address/).fill(src);
    await form.getByLabel(/^Image width/).fill(String(WIDTH));
    await form.getByLabel(/^Image height/).fill(String(HEIGHT));
    await form.getByLabel(/^Image description/).fill('A red square');
    await page.waitForFunction(() =>
      document.querySelector('.hotspot-drawing img')?.getAttribute('src')?.startsWith('blob:'),
    );
    const tools = form.getByRole('group', { name: 'Drawing tool' });
    assert.equal(await tools.getByRole('button', { name: 'Draw a rectangle' }).getAttribute('aria-pressed'), 'true');

    await dragOn(page, form, [40, 20], [160, 100]);
    near(await coordsIn(form, 1), [40, 20, 160, 100]);
    assert.equal(await form.getByLabel(/^Area 1 shape/).inputValue(), 'rect');
    await form.getByText(/^Area 1 drawn: a rectangle at/).waitFor();

    await press(page, tools.getByRole('button', { name: 'Draw a circle' }));
    await dragOn(page, form, [240, 220], [280, 220]);
    near(await coordsIn(form, 2), [240, 220, 40]);
    assert.equal(await form.getByLabel(/^Area 2 shape/).inputValue(), 'circle');

    await press(page, tools.getByRole('button', { name: 'Draw a polygon' }));
    for (const corner of [
      [100, 200],
      [160, 200],
      [130, 280],
    ] as Array<[number, number]>)
      await clickOn(page, form, corner);
    assert.equal(await form.getByLabel(/^Area 3 coordinates/).count(), 0);
    // A click on the first corner closes it.
    await clickOn(page, form, [101, 201]);
    near(await coordsIn(form, 3), [100, 200, 160, 200, 130, 280]);
    assert.equal(await form.getByLabel(/^Area 3 shape/).inputValue(), 'poly');
    await checkPage(page, this, 'hotspot areas drawn');

    // Selected by a click, marked correct by its button (the row's box follows), moved by a drag.
    await press(page, tools.getByRole('button', { name: 'Select and move' }));
    await clickOn(page, form, [100, 60]);
    const selected = form.getByRole('group', { name: 'Selected: area 1' });
    await selected.getByText('Selected: Area 1 (a rectangle)').waitFor();
    await press(page, selected.getByRole('button', { name: 'Correct' }));
    assert.equal(await selected.getByRole('button', { name: 'Correct' }).getAttribute('aria-pressed'), 'true');
    assert.equal(await form.getByLabel('Area 1 is correct').isChecked(), true);
    await dragOn(page, form, [100, 60], [140, 80]);
    near(await coordsIn(form, 1), [80, 40, 200, 120]);
    await form.getByText(/^Area 1 moved to/).waitFor();

    // The circle selected and deleted: the polygon is area 2 now.
    await clickOn(page, form, [240, 220]);
    await press(page, form.getByRole('button', { name: 'Delete area 2' }));
    assert.equal(await form.getByLabel(/^Area 3 coordinates/).count(), 0);
    assert.equal(await form.getByLabel(/^Area 2 shape/).inputValue(), 'poly');

    // Typed coordinates move the drawing: the keyboard's way, and for exact numbers.
    await form.getByLabel(/^Area 1 coordinates/).fill('0, 0, 100, 50');
    const rect = form.locator('svg.hotspot-canvas rect.drawn-area');
    assert.deepEqual(await Promise.all(['x', 'y', 'width', 'height'].map((name) => rect.getAttribute(name))), [
      '0',
      '0',
      '100',
      '50',
    ]);
    await checkPage(page, this, 'hotspot area selected and typed');

    await form.getByRole('button', { name: 'Create question' }).click();
    await page.getByRole('button', { name: `Edit ${text}`, exact: true }).waitFor();
    const res = await get(`/api/questions?limit=100`, { token: tenant.admin.token, ip: freshIp() });
    const stored = res.body.data.find((q: { question_text: string }) => q.question_text === text);
    assert.ok(stored, text);
    assert.deepEqual(
      stored.areas.map((a: { shape: string; correct: boolean }) => [a.shape, a.correct]),
      [
        ['rect', true],
        ['poly', false],
      ],
    );
    assert.deepEqual(stored.areas[0].coords, [0, 0, 100, 50]);
    near(stored.areas[1].coords, [100, 200, 160, 200, 130, 280]);
    assert.deepEqual(visitor.errors, []);
  });
});
