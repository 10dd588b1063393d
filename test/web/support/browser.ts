import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { BASE_URL, FIRESTORE_HOST } from '../../support/env';
import { freshIp, get } from '../../support/http';

// The browser tests drive Debian's Chromium (installed by .ci/run), never a browser a tool downloads.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where a failed test leaves a screenshot of where it stopped, and with SCREENSHOTS=1 each test one of every page it visits, for a person to look at. */
export const SCREENSHOTS = join(__dirname, '..', '..', '..', '.screenshots');
// A full-page screenshot costs Chromium a quarter to half a second, 166 pages a run: only when asked.
const EVERY_PAGE = process.env.SCREENSHOTS === '1';
const AXE_SOURCE = readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8');

let browser: Promise<Browser> | undefined;
const visitors = new WeakMap<Page, Visitor>();
function sharedBrowser(): Promise<Browser> {
  browser ??= chromium.launch({
    executablePath: CHROMIUM,
    // As root in a sandbox with no network: no sandbox, no GPU, and none of Chromium's own calls home.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return browser;
}
// Loaded once per process: under mocha --parallel a worker runs file after file, and this hook
// closes the browser after its first; the next file then launches its own (closed as the worker exits).
after(async () => {
  const closing = browser;
  browser = undefined;
  if (closing) await (await closing).close();
});

export interface Visitor {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions of the page, for assertions. */
  errors: string[];
  /** What the pages' Content-Security-Policy refused (Chromium says so on the console): checkPage fails on any. */
  cspViolations: string[];
  /** Requests the page sent to Firestore: the app must send none (the rules deny browsers; it uses the API). */
  firestoreRequests: string[];
  close(): Promise<void>;
}

/** Leaves a screenshot of where a failed test stopped, beside its other pages. */
export async function keepFailure(visitor: Visitor | undefined, test: Mocha.Context): Promise<void> {
  const current = test.currentTest;
  if (!visitor || current?.state !== 'failed') return;
  const folder = join(SCREENSHOTS, fileSafe(current.fullTitle()));
  mkdirSync(folder, { recursive: true });
  await visitor.page.screenshot({ path: join(folder, 'failure.png'), fullPage: true }).catch(() => undefined);
}

/**
 * A fresh browser profile (its own IndexedDB, storage and service worker) acting as
 * one address: the test front end trusts one X-Forwarded-For hop, as production's does.
 */
export async function openBrowser(): Promise<Visitor> {
  const context = await (
    await sharedBrowser()
  ).newContext({
    baseURL: BASE_URL,
    extraHTTPHeaders: { 'X-Forwarded-For': freshIp() },
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  const cspViolations: string[] = [];
  // Of every page of the profile, not just the first: a policy refusal is also one of its errors.
  context.on('console', (message) => {
    if (!message.text().includes('Content Security Policy')) return;
    cspViolations.push(message.text());
    errors.push(message.text());
  });
  const firestoreRequests: string[] = [];
  context.on('request', (request) => {
    const { host } = new URL(request.url());
    if (host === FIRESTORE_HOST || host.startsWith('firestore.')) firestoreRequests.push(request.url());
  });
  const visitor: Visitor = { context, page, errors, cspViolations, firestoreRequests, close: () => context.close() };
  visitors.set(page, visitor);
  return visitor;
}

const fileSafe = (text: string) =>
  text
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);

/**
 * Checks the page as it is now: no request of it went to Firestore, nothing refused by its
 * Content-Security-Policy (so every page, future ones too, runs under the policy Hosting serves), with SCREENSHOTS=1 a screenshot under .screenshots/<test>/<name>.png, and
 * axe-core's automated accessibility check with no serious or critical violation.
 */
export async function checkPage(page: Page, test: Mocha.Context, name: string): Promise<void> {
  assert.deepEqual(visitors.get(page)?.firestoreRequests, [], `${name}: the page reached Firestore directly`);
  assert.deepEqual(visitors.get(page)?.cspViolations, [], `${name}: the page broke its Content-Security-Policy`);
  if (EVERY_PAGE) {
    const folder = join(SCREENSHOTS, fileSafe(test.test?.fullTitle() ?? 'page'));
    mkdirSync(folder, { recursive: true });
    await page.screenshot({ path: join(folder, `${fileSafe(name)}.png`), fullPage: true });
  }
  // Evaluated, not added as an inline <script>, which the page's policy refuses.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: unknown }> }> =
    await page.evaluate(async () => {
      const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((v: any) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n: any) => ({ target: n.target })),
      }));
    });
  const grave = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    grave.map((v) => `${v.impact} ${v.id}: ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`),
    [],
    `${name}: accessibility violations`,
  );
}

/** Email and password sign-in through the app's own form, then waits for the signed-in page. */
export async function signInAs(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** A fresh browser for each test of the enclosing describe, closed after it (keeping a failure's screenshot). */
export function browserPerTest(): () => Visitor {
  let visitor: Visitor | undefined;
  beforeEach(async () => {
    visitor = await openBrowser();
  });
  afterEach(async function () {
    await keepFailure(visitor, this);
    await visitor?.close();
  });
  return () => visitor!;
}

/** Presses a control with the keyboard: focus, then Enter. */
export async function press(page: Page, control: Locator): Promise<void> {
  await control.focus();
  await page.keyboard.press('Enter');
}

/** The answers the service holds for the attempt the page shows, by question id. */
export async function savedAnswersOf(page: Page, token: string): Promise<Record<string, string>> {
  const attemptId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  const res = await get(`/api/attempts/${attemptId}`, { token, ip: freshIp() });
  assert.equal(res.status, 200, res.text);
  return Object.fromEntries(
    res.body.answers.map((a: { question_id: string; student_answer: string }) => [a.question_id, a.student_answer]),
  );
}

/** The items of an ordering as the list shows them now. */
export const orderOf = async (group: Locator) =>
  (await group.getByRole('listitem').allInnerTexts()).map((text) => text.replace(/\s*Move up\s*Move down\s*$/, ''));
