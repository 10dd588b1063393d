import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { createTenant } from '../support/fixtures';
import { browserPerTest, checkPage, orderOf, press, savedAnswersOf, signInAs } from './support/browser';
import { createTestWith, QUESTIONS_WITH_PARTS } from './support/exams';

// An ordering's items dragged by a mouse and by a touch on their handle, an unfinished drag put back
// by Escape, and the buttons kept as the way without dragging: the moved item's button keeps the
// focus and its new place is said.

// The ordering of the types with parts: Mercury, Venus, Earth.
const ORDERING = QUESTIONS_WITH_PARTS[1];

/** The centre of an item's drag handle, and the point just inside the top of the list. */
async function dragPoints(group: Locator, item: string) {
  const handle = await group.getByRole('listitem').filter({ hasText: item }).locator('.ordering-handle').boundingBox();
  const list = await group.getByRole('list').boundingBox();
  assert.ok(handle && list);
  return {
    from: { x: handle.x + handle.width / 2, y: handle.y + handle.height / 2 },
    top: { x: list.x + 20, y: list.y + 2 },
  };
}

/** Drags an item to the top of the list with the mouse. */
async function mouseDragToTop(page: Page, group: Locator, item: string): Promise<void> {
  const { from, top } = await dragPoints(group, item);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(top.x, top.y, { steps: 8 });
  await page.mouse.up();
}

/** The accessible name of the focused element. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);

describe('web app: a student orders items by dragging them', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let made: { tenant: Awaited<ReturnType<typeof createTenant>>; test: Awaited<ReturnType<typeof createTestWith>> };
  before(async () => {
    const tenant = await createTenant();
    made = { tenant, test: await createTestWith(tenant, { questions: [ORDERING] }) };
  });

  it('drags by mouse and by touch, puts a drag back on Escape, and keeps the buttons with the focus', async function () {
    const visitor = browser();
    const { page } = visitor;
    const { tenant, test } = made;
    await signInAs(page, tenant.student.email, tenant.student.password);
    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();
    const ordering = page.getByRole('group', { name: /planets in order/ });
    await ordering.getByText('Not answered yet').waitFor();
    await ordering.getByText('Drag an item by its handle, or move it with its buttons.').waitFor();

    // Each item dragged to the top, the last first: whatever the shuffle, the order is then right.
    const right = ['Mercury', 'Venus', 'Earth'];
    for (const item of [...right].reverse()) await mouseDragToTop(page, ordering, item);
    assert.deepEqual(await orderOf(ordering), right);
    await ordering.getByText('“Mercury” is now 1 of 3.').waitFor();
    // First in the list its Move up is disabled: its Move down holds the focus.
    assert.equal(await focused(page), 'Move down: Mercury');

    // Escape before the drop puts the item back.
    const { from, top } = await dragPoints(ordering, 'Earth');
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(top.x, top.y, { steps: 8 });
    assert.equal((await orderOf(ordering))[0], 'Earth');
    await page.keyboard.press('Escape');
    await page.mouse.up();
    assert.deepEqual(await orderOf(ordering), right);

    // A finger on Venus's handle, dragged to the top (touch events, as a phone sends them).
    const touch = await page.context().newCDPSession(page);
    await touch.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
    const finger = await dragPoints(ordering, 'Venus');
    await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [finger.from] });
    for (let step = 1; step <= 8; step++) {
      const y = finger.from.y + ((finger.top.y - finger.from.y) * step) / 8;
      await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: finger.from.x, y }] });
    }
    await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    assert.deepEqual(await orderOf(ordering), ['Venus', 'Mercury', 'Earth']);
    await ordering.getByText('“Venus” is now 1 of 3.').waitFor();

    // By keyboard: Venus down once, its button keeping the focus.
    await press(page, ordering.getByRole('button', { name: 'Move down: Venus' }));
    assert.deepEqual(await orderOf(ordering), right);
    await ordering.getByText('“Venus” is now 2 of 3.').waitFor();
    assert.equal(await focused(page), 'Move down: Venus');
    await page.keyboard.press('Enter');
    assert.deepEqual(await orderOf(ordering), ['Mercury', 'Earth', 'Venus']);
    // Last in the list its Move down is disabled: its Move up holds the focus.
    assert.equal(await focused(page), 'Move up: Venus');
    await page.keyboard.press('Enter');
    assert.deepEqual(await orderOf(ordering), right);
    await page.getByText('All answers saved').waitFor();
    await checkPage(page, this, 'ordering dragged');

    const saved = await savedAnswersOf(page, tenant.student.token);
    assert.equal(saved[test.question_ids[0]], JSON.stringify(right));
    await page.reload();
    await page.getByRole('timer').waitFor();
    assert.deepEqual(await orderOf(ordering), right);
    assert.deepEqual(visitor.errors, []);
  });
});
