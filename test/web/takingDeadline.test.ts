import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { createTenant, createUser, type TestUser } from '../support/fixtures';
import { freshIp, get, patch, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { createTestWith } from './support/exams';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const attemptIdOf = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').pop()!);
const secondsShown = (page: Page) =>
  page.getByRole('timer').evaluate((el) => Number((el as HTMLElement).dataset.secondsLeft));

/** Waits until the page's timer shows a time left that `ok` accepts (the page clock is the test's, the deadline the service's). */
async function timerShows(page: Page, ok: (seconds: number) => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  let seconds = await secondsShown(page);
  while (!ok(seconds) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    seconds = await secondsShown(page);
  }
  assert.ok(ok(seconds), `the timer shows ${seconds} s left, expected ${what}`);
}

/** A new student signs in on a page whose timers the test drives, starts the test and lands on the attempt. */
async function startOnControlledClock(
  page: Page,
  tenant: Tenant,
  testName: string,
): Promise<{ attemptId: string; student: TestUser }> {
  const student = await createUser('student', tenant.clientId);
  await page.clock.install();
  await signInAs(page, student.email, student.password);
  await page.getByRole('button', { name: `Start ${testName}` }).click();
  await page.getByRole('timer').waitFor();
  return { attemptId: attemptIdOf(page.url()), student };
}

async function savedAnswers(attemptId: string, token: string): Promise<string[]> {
  const res = await get(`/api/attempts/${attemptId}`, { token, ip: freshIp() });
  assert.equal(res.status, 200, res.text);
  return res.body.answers.map((a: { student_answer: string }) => a.student_answer).sort();
}

/** Waits until the service holds exactly `expected` (the badge says "saved" before a new answer is queued too). */
async function savedOnServer(attemptId: string, token: string, expected: string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  let saved = await savedAnswers(attemptId, token);
  while (saved.length < expected.length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    saved = await savedAnswers(attemptId, token);
  }
  assert.deepEqual(saved, expected);
}

const attemptReads = (page: Page, attemptId: string): string[] => {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (
      request.method() === 'GET' &&
      new URL(request.url()).pathname === `/api/attempts/${encodeURIComponent(attemptId)}`
    )
      seen.push(request.url());
  });
  return seen;
};

describe('web app: a deadline changed while the attempt page is open', function () {
  this.timeout(120_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  let oneMinute: Awaited<ReturnType<typeof createTestWith>>;
  let halfHour: Awaited<ReturnType<typeof createTestWith>>;
  before(async function () {
    this.timeout(60_000);
    tenant = await createTenant();
    oneMinute = await createTestWith(tenant, { settings: { timer: 1 } });
    halfHour = await createTestWith(tenant, { settings: { timer: 30 } });
  });

  it('shows extra time given by an admin within a refresh period, and stays open past the old 0:00', async function () {
    const visitor = browser();
    const { page } = visitor;
    const { attemptId, student } = await startOnControlledClock(page, tenant, oneMinute.test_name);
    // About a minute: the page reads the service's clock from a Date header (1 s resolution) and half
    // a round trip, so on a loaded machine a minute can show as 1:01 or 1:02.
    await timerShows(page, (s) => s > 30 && s <= 65, 'about the 1-minute timer');

    const extended = await post(
      `/api/attempts/${attemptId}/extend`,
      { minutes: 5 },
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(extended.status, 200, extended.text);
    await page.clock.runFor(40_000);
    await timerShows(page, (s) => s > 5 * 60, 'more than 5 minutes once the page refreshed its deadline');
    await checkPage(page, this, 'extended without a reload');

    // Past the old deadline by the page's clock: still open, still answering.
    await page.clock.runFor(30_000);
    assert.equal(await page.getByText('Time is up').count(), 0);
    await page
      .getByRole('group', { name: /capital of France/ })
      .getByLabel('Paris')
      .check();
    await savedOnServer(attemptId, student.token, ['Paris']);
    await page.getByText('All answers saved').waitFor();
    await timerShows(page, (s) => s > 4 * 60, 'more than 4 minutes after the old deadline');
    assert.deepEqual(visitor.errors, []);
  });

  it('keeps its deadline while a refresh fails offline, loses no answer, and learns the extension once back online', async function () {
    const { page, context } = browser();
    const { attemptId, student } = await startOnControlledClock(page, tenant, oneMinute.test_name);
    await context.setOffline(true);
    const extended = await post(
      `/api/attempts/${attemptId}/extend`,
      { minutes: 5 },
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(extended.status, 200, extended.text);

    await page.clock.runFor(40_000);
    // The failed refresh neither locked the page nor moved its deadline: it counts on from what it knew.
    await timerShows(page, (s) => s > 0 && s <= 30, 'the last minute still counting');
    assert.equal(await page.getByText('Time is up').count(), 0);
    await page
      .getByRole('group', { name: /capital of France/ })
      .getByLabel('Paris')
      .check();
    await page.getByText('Offline: 1 answer kept in this browser').waitFor();

    await context.setOffline(false);
    await page.getByText('All answers saved').waitFor();
    await timerShows(page, (s) => s > 5 * 60, 'more than 5 minutes once back online');
    await savedOnServer(attemptId, student.token, ['Paris']);
    await checkPage(page, this, 'back online with the extension');
  });

  it('shows a closing time moved earlier before it bites', async function () {
    const { page } = browser();
    // A test of its own: its window closes in a moment.
    const closing = await createTestWith(tenant, { settings: { timer: 30 } });
    await startOnControlledClock(page, tenant, closing.test_name);
    assert.ok((await secondsShown(page)) > 25 * 60);

    const closesAt = new Date(Date.now() + 3 * 60_000).toISOString();
    const moved = await patch(
      `/api/tests/${closing.id}`,
      { closes_at: closesAt },
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(moved.status, 200, moved.text);
    await page.clock.runFor(40_000);
    await timerShows(page, (s) => s > 2 * 60 && s <= 3 * 60, 'at most the 3 minutes left to the new closing time');
    await checkPage(page, this, 'closing time moved earlier');
  });

  it('does not refresh a hidden tab far from its deadline, and refreshes it when it is shown again', async function () {
    const { page } = browser();
    const { attemptId } = await startOnControlledClock(page, tenant, halfHour.test_name);
    // Paused: the page's time moves only by runFor, so no periodic read falls into the real half seconds waited below.
    await page.clock.pauseAt(Date.now() + 1_000);
    const reads = attemptReads(page, attemptId);
    // As a browser reports a tab in the background (a string: the test runner's transform would name the getters).
    const setHidden = (hidden: boolean) =>
      page.evaluate(`(() => {
        Object.defineProperty(document, 'hidden', { configurable: true, get() { return ${hidden}; } });
        Object.defineProperty(document, 'visibilityState', { configurable: true, get() { return '${hidden ? 'hidden' : 'visible'}'; } });
        document.dispatchEvent(new Event('visibilitychange'));
      })()`);

    await page.clock.runFor(40_000);
    await page.waitForTimeout(500);
    assert.equal(reads.length, 1, 'a visible tab refreshes within a period');
    await setHidden(true);
    await page.clock.runFor(90_000);
    await page.waitForTimeout(500);
    assert.equal(reads.length, 1, 'a hidden tab far from its deadline does not');
    await setHidden(false);
    await page.waitForTimeout(500);
    assert.equal(reads.length, 2, 'shown again, it refreshes at once');
  });
});
