import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { freshIp, get, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { tenantWithPublishedTest } from './support/exams';

const attemptIdOf = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').pop()!);

/** What the app keeps of a session in this browser: attempt tokens, `me:` profiles, the answer queue's databases. */
async function storedSessionData(page: Page): Promise<{ keys: string[]; databases: string[] }> {
  return page.evaluate(async () => ({
    keys: Object.keys(localStorage)
      .filter((k) => /^(attempt-token|me):/.test(k))
      .sort(),
    databases: (await indexedDB.databases())
      .map((d) => d.name ?? '')
      .filter((n) => n.startsWith('exam-answers'))
      .sort(),
  }));
}

/** The attempt token the page keeps for `attemptId` (under whichever user's key), or null. */
const storedAttemptToken = (page: Page, attemptId: string): Promise<string | null> =>
  page.evaluate((id) => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('attempt-token:') && k.endsWith(`:${id}`));
    return key === undefined ? null : localStorage.getItem(key);
  }, attemptId);

async function answersHeldFor(attemptId: string, attemptToken: string): Promise<string[]> {
  const res = await get(`/api/attempts/${attemptId}`, { headers: { 'X-Attempt-Token': attemptToken }, ip: freshIp() });
  assert.equal(res.status, 200, res.text);
  return res.body.answers.map((a: { student_answer: string }) => a.student_answer).sort();
}

async function startAsGuest(page: Page, code: string, name: string): Promise<string> {
  await page.goto('/');
  await page.getByLabel('Share code').fill(code);
  await page.getByLabel('Your name').fill(name);
  await page.getByRole('button', { name: 'Start as guest' }).click();
  await page.getByRole('timer').waitFor();
  return attemptIdOf(page.url());
}

/** The next person opens an earlier attempt's address from the history: the page must refuse it, showing none of its answers. */
async function assertAttemptRefused(page: Page, attemptId: string): Promise<void> {
  await page.goto(`/attempts/${encodeURIComponent(attemptId)}`);
  await page.getByRole('alert').or(page.getByRole('timer')).first().waitFor();
  assert.equal(await page.getByRole('timer').count(), 0, 'the earlier attempt opened for the next person');
  assert.equal(await page.getByLabel('Paris').count(), 0, "the earlier attempt's questions were shown");
}

describe('web app: signing out on a shared computer', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  const sitting = tenantWithPublishedTest();
  const shareCode = async () => {
    const { tenant, test } = sitting();
    const issued = await post(`/api/tests/${test.id}/share-codes`, {}, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(issued.status, 201, issued.text);
    return issued.body.code as string;
  };

  it("removes a guest's token, answers and cached attempt, so the next guest cannot open that attempt from the history", async function () {
    const visitor = browser();
    const { page } = visitor;
    const code = await shareCode();
    const first = await startAsGuest(page, code, 'First Guest');
    await page
      .getByRole('group', { name: /capital of France/ })
      .getByLabel('Paris')
      .check();
    await page.getByText('All answers saved').waitFor();
    const token = await storedAttemptToken(page, first);
    assert.ok(token, "the guest's attempt token was kept while signed in");

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Take a test as a guest' }).waitFor();
    await checkPage(page, this, 'signed out');
    assert.deepEqual(
      await storedSessionData(page),
      { keys: [], databases: [] },
      'what the session left in this browser',
    );

    await startAsGuest(page, code, 'Second Guest');
    await assertAttemptRefused(page, first);
    await checkPage(page, this, 'earlier attempt refused');
    assert.deepEqual(await answersHeldFor(first, token), ['Paris'], "the first guest's answers are as it left them");
    assert.deepEqual(visitor.errors, []);
  });

  it("sends a guest's queued answer with its token and forgets it when another user signs in without a sign-out", async function () {
    const { page, context } = browser();
    const { tenant } = sitting();
    const first = await startAsGuest(page, await shareCode(), 'Leaving Guest');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page
      .getByRole('group', { name: /capital of France/ })
      .getByLabel('Paris')
      .check();
    await page.getByText('All answers saved').waitFor();
    const token = await storedAttemptToken(page, first);
    assert.ok(token);
    await context.setOffline(true);
    await page
      .getByRole('group', { name: /Red Planet/ })
      .getByLabel('Mars')
      .check();
    await page.getByText('Offline: 1 answer kept in this browser').waitFor();
    // The guest's session ends without the button (its sign-in lost): the queued answer was never sent.
    await page.goto('about:blank');
    await context.setOffline(false);
    await page.goto('/__/firebase/init.json');
    await page.evaluate(
      () =>
        new Promise((resolve, reject) => {
          const request = indexedDB.deleteDatabase('firebaseLocalStorageDb');
          request.onsuccess = resolve;
          request.onerror = reject;
          request.onblocked = () => reject(new Error('the Firebase session database is still open'));
        }),
    );

    await signInAs(page, tenant.student.email, tenant.student.password);
    await page.getByRole('heading', { name: 'Your tests' }).waitFor();
    await page.waitForFunction(() => !Object.keys(localStorage).some((k) => k.startsWith('attempt-token:')));
    assert.deepEqual(
      await answersHeldFor(first, token),
      ['Mars', 'Paris'],
      "the guest's queued answer reached the service",
    );
    await assertAttemptRefused(page, first);
    const left = await storedSessionData(page);
    assert.deepEqual(
      left.keys.filter((k) => !k.startsWith(`me:${tenant.student.uid}`)),
      [],
      "only the student's own profile is kept",
    );
    assert.equal(
      left.databases.filter((n) => !n.endsWith(tenant.student.uid)).length,
      0,
      `another user's answer queue is kept: ${left.databases}`,
    );
    await checkPage(page, this, 'student after a guest left without signing out');
  });

  it('warns of an unsent answer and stays signed in, then signs out once it is sent', async function () {
    const { page, context } = browser();
    const { tenant, test } = sitting();
    await signInAs(page, tenant.student.email, tenant.student.password);
    await page.getByRole('button', { name: new RegExp(`^(Start|Resume) ${test.test_name}$`) }).click();
    await page.getByRole('timer').waitFor();
    await context.setOffline(true);
    await page
      .getByRole('group', { name: /capital of France/ })
      .getByLabel('Paris')
      .check();
    await page.getByText('Offline: 1 answer kept in this browser').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    const warning = page.getByRole('group', { name: 'Confirm sign-out' });
    await warning.getByText('1 answer is not saved on the server yet').waitFor();
    await checkPage(page, this, 'sign-out refused while an answer is unsent');
    await warning.getByRole('button', { name: 'Stay signed in' }).click();
    assert.equal(await page.getByRole('timer').count(), 1, 'still on the attempt');
    assert.equal(
      await page
        .getByRole('group', { name: /capital of France/ })
        .getByLabel('Paris')
        .isChecked(),
      true,
    );

    await context.setOffline(false);
    await page.getByText('All answers saved').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Take a test as a guest' }).waitFor();
    assert.deepEqual(await storedSessionData(page), { keys: [], databases: [] });
  });

  it('signs out when the loss of an unsent answer is confirmed, and keeps nothing of it', async function () {
    const { page, context } = browser();
    const { tenant, test } = sitting();
    await signInAs(page, tenant.student.email, tenant.student.password);
    await page.getByRole('button', { name: new RegExp(`^(Start|Resume) ${test.test_name}$`) }).click();
    await page.getByRole('timer').waitFor();
    await context.setOffline(true);
    await page
      .getByRole('group', { name: /Red Planet/ })
      .getByLabel('Venus')
      .check();
    await page.getByText('Offline: 1 answer kept in this browser').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page
      .getByRole('group', { name: 'Confirm sign-out' })
      .getByRole('button', { name: 'Sign out and lose it' })
      .click();
    await page.getByRole('heading', { name: 'Take a test as a guest' }).waitFor();
    assert.deepEqual(await storedSessionData(page), { keys: [], databases: [] });
  });
});
