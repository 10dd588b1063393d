import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createSuperAdmin, createTenant, createUser, uniqueName, type TestUser } from '../support/fixtures';
import { api, freshIp, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { createTestWith, DEMO_QUESTIONS } from './support/exams';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** A phone (an iPhone 12 to 15's CSS width) and a tablet held upright. */
const WIDTHS = [390, 768] as const;
/** WCAG 2.2's target size (minimum), 2.5.8: axe's `target-size` rule checks it with its exceptions. */
const TARGET_RULE = 'target-size';

/**
 * What does not fit at the page's width: the document wider than the viewport, and each outermost
 * element whose box reaches past either side, unless a box of its own clips or scrolls it.
 */
function overflowsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const width = root.clientWidth;
    const problems: string[] = [];
    if (root.scrollWidth > width) problems.push(`the document is ${root.scrollWidth} px wide in ${width} px`);
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    const clipped = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== 'visible') return true;
      }
      return false;
    };
    const reported: Element[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      const left = box.left + window.scrollX;
      const right = box.right + window.scrollX;
      if (left >= -0.5 && right <= width + 0.5) continue;
      if (clipped(el) || reported.some((r) => r.contains(el))) continue;
      reported.push(el);
      problems.push(`${describe(el)} spans ${Math.round(left)}..${Math.round(right)} px of ${width}`);
    }
    return problems;
  });
}

/**
 * Every visible control, scrolled into the middle of its view (a table's box scrolls too), answers a
 * tap at its centre: the element found there is the control or inside it, nothing laid over it.
 */
function coveredControlsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector =
      'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex]:not([tabindex="-1"])';
    const problems: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      const before = el.getBoundingClientRect();
      // A visually hidden element (1 px, clipped) is for screen readers only, never tapped.
      if (before.width <= 1 || before.height <= 1) continue;
      el.scrollIntoView({ block: 'center', inline: 'center' });
      // A link wrapped over two lines is tapped on its first line's text, not between its lines.
      const box = el.getClientRects()[0];
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === el || el.contains(hit))) continue;
      const name =
        (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40) || el.outerHTML.slice(0, 80);
      const over = hit ? `${hit.tagName.toLowerCase()} "${(hit.textContent ?? '').trim().slice(0, 30)}"` : 'nothing';
      problems.push(`${el.tagName.toLowerCase()} "${name}" is under ${over}`);
    }
    window.scrollTo(0, 0);
    return problems;
  });
}

/** Targets smaller than 24 by 24 px with another target too close (axe's rule, off in its default run). */
async function smallTargetsOf(page: Page): Promise<string[]> {
  return page.evaluate(async (rule) => {
    const result = await (window as any).axe.run(document, { runOnly: { type: 'rule', values: [rule] } });
    return result.violations.flatMap((v: any) =>
      v.nodes.map((n: any) => `${JSON.stringify(n.target)}: ${n.failureSummary.replace(/\s+/g, ' ')}`),
    );
  }, TARGET_RULE);
}

/**
 * The page at its width: axe and CSP (checkPage), then what does not fit or cannot be tapped,
 * each named with the page, so one run lists every page's problems.
 */
async function layoutProblemsOf(page: Page, test: Mocha.Context, name: string): Promise<string[]> {
  await checkPage(page, test, name);
  return (await problemsOf(page)).map((p) => `${name}: ${p}`);
}

/** What does not fit or cannot be tapped on the page as it is (axe already loaded in it). */
async function problemsOf(page: Page): Promise<string[]> {
  // tsx names the functions declared inside the evaluated code with a helper the page lacks.
  await page.evaluate('window.__name ??= (f) => f');
  return [
    ...(await overflowsOf(page)).map((p) => `wider than the viewport: ${p}`),
    ...(await coveredControlsOf(page)).map((p) => `a tap cannot reach it: ${p}`),
    ...(await smallTargetsOf(page)).map((p) => `target too small: ${p}`),
  ];
}

/** The same, failing at once. */
async function checkLayout(page: Page, test: Mocha.Context, name: string): Promise<void> {
  assert.deepEqual(await layoutProblemsOf(page, test, name), []);
}

/** A student starts the test, answers the first `right` questions correctly (an essay too) and submits. */
async function sitAndSubmit(tenant: Tenant, testId: string, questionIds: string[], right: number): Promise<TestUser> {
  const student = await createUser('student', tenant.clientId);
  const started = await post('/api/attempts', { test_id: testId }, { token: student.token, ip: freshIp() });
  assert.equal(started.status, 201, started.text);
  const attemptId: string = started.body.attempt_id;
  const answers = questionIds
    .slice(0, right)
    .map((question_id, i) => ({ question_id, student_answer: String(DEMO_QUESTIONS[i].correct_answer) }));
  answers.push({ question_id: questionIds.at(-1)!, student_answer: 'Chlorophyll breaks down and the red shows.' });
  const saved = await post(`/api/attempts/${attemptId}/answers`, { answers }, { token: student.token, ip: freshIp() });
  assert.equal(saved.status, 200, saved.text);
  const submitted = await post(`/api/attempts/${attemptId}/submit`, undefined, { token: student.token, ip: freshIp() });
  assert.equal(submitted.status, 200, submitted.text);
  return student;
}

const asAdmin = (tenant: Tenant) => ({ token: tenant.admin.token, ip: freshIp() });

async function created(res: Promise<{ status: number; text: string; body: any }>, status = 201) {
  const reply = await res;
  assert.equal(reply.status, status, reply.text);
  return reply.body;
}

describe('web app: the pages on phones and tablets', function () {
  this.timeout(600_000);
  const browser = browserPerTest();
  // One test opens a dozen pages on fresh emulators: each route group's first call starts a function worker.
  beforeEach(() => browser().context.setDefaultTimeout(60_000));
  let tenant: Tenant;
  let superAdmin: TestUser;
  let test: Awaited<ReturnType<typeof createTestWith>>;
  let cls: { id: string; name: string };
  let takers: TestUser[];

  // Seeded so that every table shows rows: attempts submitted and in progress, an essay to grade, a class
  // with members, overrides, a share code, a webhook with deliveries and an LTI platform.
  before(async function () {
    this.timeout(300_000);
    tenant = await createTenant();
    superAdmin = await createSuperAdmin();
    const essay = {
      question_text: 'Why do leaves change colour in autumn? Explain in a few sentences.',
      question_type: 'essay',
      marks: 5,
      difficulty: 'medium',
    };
    const hook = `http://127.0.0.1:9/hooks/${uniqueName('layout').replace(' ', '-')}`;
    await created(
      post(`/api/clients/${tenant.clientId}/webhooks`, { url: hook, events: ['attempt.submitted'] }, asAdmin(tenant)),
    );
    const issuer = `https://lms-${uniqueName('layout').replace(' ', '-').toLowerCase()}.example.com`;
    await created(
      post(
        `/api/clients/${tenant.clientId}/lti/platforms`,
        {
          name: 'School Moodle with a rather long name to see it wrap',
          issuer,
          client_id: 'moodle-client-id-0123456789',
          deployment_ids: ['1'],
          auth_login_url: `${issuer}/mod/lti/auth.php`,
          auth_token_url: `${issuer}/mod/lti/token.php`,
          jwks_url: `${issuer}/mod/lti/certs.php`,
        },
        asAdmin(tenant),
      ),
    );
    test = await createTestWith(tenant, { questions: [...DEMO_QUESTIONS, essay] });
    takers = [];
    for (const right of [9, 5, 2]) takers.push(await sitAndSubmit(tenant, test.id, test.question_ids, right));
    // One attempt in progress, for the live view.
    await created(post('/api/attempts', { test_id: test.id }, { token: tenant.student.token, ip: freshIp() }));
    cls = { name: uniqueName('Class 9C'), id: '' };
    cls.id = (await created(post('/api/classes', { name: cls.name, code: '9C' }, asAdmin(tenant)))).id;
    for (const member of [tenant.student, ...takers]) {
      await created(api('PUT', `/api/classes/${cls.id}/members/${member.uid}`, asAdmin(tenant)), 200);
    }
    await created(
      api('PUT', `/api/tests/${test.id}/class-overrides/${cls.id}`, { ...asAdmin(tenant), body: { timer: 45 } }),
      200,
    );
    await created(
      api('PUT', `/api/tests/${test.id}/overrides/${takers[0].uid}`, { ...asAdmin(tenant), body: { timer: 60 } }),
      200,
    );
    await created(post(`/api/tests/${test.id}/share-codes`, {}, asAdmin(tenant)));
  });

  /** The admin pages, each with what shows it loaded (rows in its tables). */
  const adminPages: Array<{ name: string; path: () => string; ready: (page: Page) => Promise<unknown> }> = [
    {
      name: 'tests',
      path: () => '/admin/tests',
      ready: (page) => page.getByRole('link', { name: test.test_name }).waitFor(),
    },
    {
      name: 'test',
      path: () => `/admin/tests/${test.id}`,
      ready: async (page) => {
        await page.getByRole('heading', { name: test.test_name, level: 1 }).waitFor();
        await page.getByRole('region', { name: 'Codes issued' }).getByRole('row').nth(1).waitFor();
        await page.getByRole('region', { name: 'Student overrides set' }).getByRole('row').nth(1).waitFor();
      },
    },
    {
      name: 'questions',
      path: () => '/admin/questions',
      ready: (page) => page.getByRole('region', { name: 'Questions of the bank' }).getByRole('row').nth(1).waitFor(),
    },
    {
      name: 'import',
      path: () => '/admin/import',
      ready: async (page) => {
        await page.getByRole('heading', { name: 'Import questions', level: 1 }).waitFor();
        const csv = readFileSync(join(__dirname, '..', '..', 'examples', 'questions.csv'));
        await page
          .getByLabel('File', { exact: true })
          .setInputFiles({ name: 'questions.csv', mimeType: 'text/csv', buffer: csv });
        await page.getByRole('button', { name: 'Check file' }).click();
        await page.getByRole('region', { name: 'Questions of the file' }).getByRole('row').nth(1).waitFor();
      },
    },
    {
      name: 'classes',
      path: () => '/admin/classes',
      ready: (page) => page.getByRole('link', { name: new RegExp(cls.name) }).waitFor(),
    },
    {
      name: 'class',
      path: () => `/admin/classes/${cls.id}`,
      ready: (page) => page.getByRole('region', { name: 'Class members' }).getByRole('row').nth(4).waitFor(),
    },
    {
      name: 'live view',
      path: () => `/admin/tests/${test.id}/live`,
      ready: (page) => page.getByRole('region', { name: 'Attempts in progress' }).getByRole('row').nth(1).waitFor(),
    },
    {
      name: 'analytics',
      path: () => `/admin/tests/${test.id}/analytics`,
      ready: async (page) => {
        await page.locator('tr[data-question-row]').first().waitFor();
        await page.getByRole('region', { name: 'Submitted attempts' }).getByRole('row').nth(1).waitFor();
      },
    },
    {
      name: 'student',
      path: () => `/admin/students/${takers[0].uid}`,
      ready: (page) => page.getByRole('region', { name: 'Submitted attempts' }).getByRole('row').nth(1).waitFor(),
    },
    {
      name: 'grading',
      path: () => `/admin/tests/${test.id}/grading`,
      ready: (page) => page.getByRole('button', { name: 'Save grade' }).waitFor(),
    },
    {
      name: 'audit',
      path: () => '/admin/audit',
      ready: (page) => page.locator('tr[data-event-type]').first().waitFor(),
    },
    {
      name: 'integrations',
      path: () => '/admin/integrations',
      ready: async (page) => {
        await page.getByRole('region', { name: 'Registered LTI platforms' }).getByRole('row').nth(1).waitFor();
        await page.getByRole('button', { name: 'Show deliveries' }).click();
        await page
          .getByRole('region', { name: /^Delivery list of/ })
          .getByRole('row')
          .nth(1)
          .waitFor();
      },
    },
  ];

  it('finds what it looks for: a page too wide, a control laid under another, targets too small', async function () {
    const { page } = browser();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.setContent(`
      <main>
        <p style="width: 500px">A paragraph wider than the phone.</p>
        <div style="overflow-x: auto"><p style="width: 900px">Wide, but in a box of its own that scrolls.</p></div>
        <button id="under">Under</button>
        <div style="position: relative; top: -30px; height: 40px; background: #fff">A banner over the button</div>
        <p><button style="padding: 0; width: 12px; height: 12px">a</button><button style="padding: 0; width: 12px; height: 12px">b</button></p>
      </main>`);
    await page.evaluate(readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8'));
    const problems = await problemsOf(page);
    assert.equal(problems.filter((p) => /wider than the viewport: the document is \d+ px wide/.test(p)).length, 1);
    assert.equal(problems.filter((p) => /wider than the viewport: p "A paragraph wider/.test(p)).length, 1);
    assert.ok(!problems.some((p) => /Wide, but in a box/.test(p)), problems.join('\n'));
    assert.ok(
      problems.some((p) => /a tap cannot reach it: button "Under" is under div "A banner/.test(p)),
      problems.join('\n'),
    );
    assert.equal(problems.filter((p) => p.startsWith('target too small')).length, 2, problems.join('\n'));
  });

  for (const width of WIDTHS) {
    it(`fits every admin page in ${width} px, each control tappable, tables scrolling in their own box`, async function () {
      const { page } = browser();
      await page.setViewportSize({ width, height: 900 });
      await signInAs(page, tenant.admin.email, tenant.admin.password);
      const problems: string[] = [];
      for (const { name, path, ready } of adminPages) {
        await page.goto(path());
        await ready(page);
        problems.push(...(await layoutProblemsOf(page, this, `${name} ${width}`)));
      }
      assert.deepEqual(problems, []);
      // A wide table scrolls inside its box, which a keyboard can reach (axe's scrollable-region-focusable).
      await page.goto(`/admin/tests/${test.id}/analytics`);
      await adminPages.find((p) => p.name === 'analytics')!.ready(page);
      const box = page.getByRole('region', { name: 'Per question figures' });
      assert.ok(
        await box.evaluate((el) => el.scrollWidth > el.clientWidth),
        'the per-question table fits: no scroll to test',
      );
      assert.equal(await box.getAttribute('tabindex'), '0');
      await box.focus();
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction((el) => el!.scrollLeft > 0, await box.elementHandle());
    });
  }

  it('collapses the side bar into a menu button on a phone, opened and closed from the keyboard', async function () {
    const { page } = browser();
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/admin/tests');
    await page.getByRole('link', { name: test.test_name }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Administration' });
    const menu = nav.getByRole('button', { name: 'Menu' });
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    assert.equal(await nav.getByRole('link', { name: 'Classes' }).isVisible(), false);

    await menu.focus();
    await page.keyboard.press('Enter');
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    await nav.getByRole('link', { name: 'Classes' }).waitFor();
    await checkLayout(page, this, 'menu open 390');
    // Tab reaches the links in order; Escape closes the menu and gives the focus back to its button.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Tests');
    await page.keyboard.press('Escape');
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Menu');

    // A link followed closes the menu on the new page.
    await menu.click();
    await nav.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');

    // On a wide screen there is no menu button: the side bar shows every link.
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.equal(await menu.isVisible(), false);
    await nav.getByRole('link', { name: 'Classes' }).waitFor();
  });

  it('fits the organizations page in 390 and 768 px for a Super Admin', async function () {
    const { page } = browser();
    await signInAs(page, superAdmin.email, superAdmin.password);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/admin/organizations');
      await page.getByRole('region', { name: 'Organizations' }).getByRole('row').nth(1).waitFor();
      await checkLayout(page, this, `organizations ${width}`);
      const menu = page.getByRole('navigation', { name: 'Administration' }).getByRole('button', { name: 'Menu' });
      await menu.click();
      await page.getByRole('combobox', { name: /^Organization/ }).waitFor();
      await checkLayout(page, this, `organizations menu open ${width}`);
      await menu.click();
    }
  });

  it('fits the analytics page in 1280 px with its per-question table whole', async function () {
    const { page } = browser();
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}/analytics`);
    await adminPages.find((p) => p.name === 'analytics')!.ready(page);
    await checkLayout(page, this, 'analytics 1280');
    const box = page.getByRole('region', { name: 'Per question figures' });
    assert.ok(
      await box.evaluate((el) => el.scrollWidth <= el.clientWidth),
      'the per-question table scrolls at 1280 px',
    );
  });

  it("fits the taker's pages in 390 px: sign-in, home, an attempt, its score and review", async function () {
    const { page } = browser();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    await checkLayout(page, this, 'sign-in 390');

    const student = await createUser('student', tenant.clientId);
    await signInAs(page, student.email, student.password);
    await page.getByRole('button', { name: `Start ${test.test_name}` }).waitFor();
    await checkLayout(page, this, 'home 390');

    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();
    await page.getByRole('radio', { name: 'Paris' }).check();
    await checkLayout(page, this, 'attempt 390');

    await page.getByRole('button', { name: 'Submit the test' }).click();
    await page.getByRole('button', { name: 'Submit now' }).waitFor();
    await checkLayout(page, this, 'submit confirmation 390');
    await page.getByRole('button', { name: 'Submit now' }).click();
    await page.getByText(/Your score:/).waitFor();
    await checkLayout(page, this, 'score and review 390');

    await page.goto('/');
    await page.getByRole('region', { name: 'Your results' }).getByRole('row').nth(1).waitFor();
    await checkLayout(page, this, 'home with results 390');
  });
});
