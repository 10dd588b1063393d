import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { createUser } from '../support/fixtures';
import { freshIp, get, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { tenantWithPublishedTest } from './support/exams';

const attemptIdOf = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').pop()!);

/** As a browser reports a tab sent to the background and back (a string: the test runner's transform would name the getters). */
const setHidden = (page: Page, hidden: boolean) =>
  page.evaluate(`(() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get() { return ${hidden}; } });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get() { return '${hidden ? 'hidden' : 'visible'}'; } });
    document.dispatchEvent(new Event('visibilitychange'));
  })()`);

interface StoredEvent {
  type: string;
  at: string;
  client_seq: number;
}

/** The attempt's timeline as its organization's admin reads it, once it holds at least `types` (waits up to 15 s). */
async function timelineOnceItHolds(attemptId: string, token: string, types: string[]): Promise<StoredEvent[]> {
  const until = Date.now() + 15_000;
  for (;;) {
    const res = await get(`/api/attempts/${attemptId}/events?limit=100`, { token, ip: freshIp() });
    assert.equal(res.status, 200, res.text);
    const events = res.body.data as StoredEvent[];
    const held = new Set(events.map((e) => e.type));
    if (types.every((t) => held.has(t)) || Date.now() > until) return events;
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('web app: what the proctor sees of a taker’s page', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  const sitting = tenantWithPublishedTest();

  it('sends leaving the tab, a paste, going offline and a reload, the offline ones once the network is back', async () => {
    const { page, context } = browser();
    const { tenant, test } = sitting();
    const student = await createUser('student', tenant.clientId);
    await signInAs(page, student.email, student.password);
    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();
    const attemptId = attemptIdOf(page.url());

    await setHidden(page, true);
    await setHidden(page, false);
    await page
      .getByRole('textbox')
      .first()
      .evaluate((box) => box.dispatchEvent(new Event('paste', { bubbles: true })));
    await timelineOnceItHolds(attemptId, tenant.admin.token, ['focus_lost', 'focus_back', 'paste']);

    // Offline: the events wait in the browser's queue, and arrive once it is back.
    await context.setOffline(true);
    await setHidden(page, true);
    await setHidden(page, false);
    await page.waitForTimeout(500);
    await context.setOffline(false);
    const afterOffline = await timelineOnceItHolds(attemptId, tenant.admin.token, ['offline', 'online']);
    assert.equal(afterOffline.filter((e) => e.type === 'focus_lost').length, 2, JSON.stringify(afterOffline));

    await page.reload();
    await page.getByRole('timer').waitFor();
    const events = await timelineOnceItHolds(attemptId, tenant.admin.token, ['reload']);
    assert.deepEqual(
      events.map((e) => e.type),
      ['focus_lost', 'focus_back', 'paste', 'offline', 'focus_lost', 'focus_back', 'online', 'reload'],
    );
    // The events inform; the attempt itself is untouched by them.
    const attempt = await get(`/api/attempts/${attemptId}`, { token: student.token, ip: freshIp() });
    assert.equal(attempt.status, 200, attempt.text);
    assert.equal(attempt.body.status, 'in_progress');
    assert.deepEqual(attempt.body.answers, []);
  });

  it('shows the counts and the last event per taker in the live view, highlights one away over 30 s, and opens the timeline', async function () {
    const { page } = browser();
    const { tenant, test } = sitting();
    const student = await createUser('student', tenant.clientId);
    const started = await post('/api/attempts', { test_id: test.id }, { token: student.token, ip: freshIp() });
    assert.equal(started.status, 201, started.text);
    const attemptId: string = started.body.attempt_id;
    const ago = (s: number) => new Date(Date.now() - s * 1000).toISOString();
    const sent = await post(
      `/api/attempts/${attemptId}/events`,
      {
        events: [
          { type: 'paste', at: ago(120), client_seq: 1 },
          { type: 'focus_lost', at: ago(100), client_seq: 2 },
          { type: 'focus_back', at: ago(90), client_seq: 3 },
          { type: 'focus_lost', at: ago(45), client_seq: 4 },
        ],
      },
      { token: student.token, ip: freshIp() },
    );
    assert.equal(sent.status, 200, sent.text);

    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}/live`);
    const row = page.getByRole('row', { name: new RegExp(student.email) });
    await row.waitFor();
    const cell = row.getByRole('cell').nth(3);
    assert.match(await cell.innerText(), /Away from the test for \d+ s/);
    assert.match(await cell.innerText(), /left the test 2×, pasted 1×/);
    assert.match(await cell.innerText(), /last: left the test \d+ s ago/);
    assert.equal(await row.evaluate((tr) => tr.className), 'away');
    await checkPage(page, this, 'live view with integrity');

    await row.getByRole('button', { name: /Timeline/ }).click();
    const timeline = page.getByRole('region', { name: /Timeline of/ });
    await timeline.getByRole('listitem').first().waitFor();
    assert.deepEqual(
      (await timeline.getByRole('listitem').allInnerTexts()).map((t) => t.replace(/^\S+\s*(AM|PM)?\s*/, '')),
      ['pasted', 'left the test', 'came back', 'left the test'],
    );
    await checkPage(page, this, 'live view timeline');
  });
});
