import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { createTenant, uniqueName } from '../support/fixtures';
import { freshIp, get, post } from '../support/http';
import { browserPerTest, checkPage, openBrowser, signInAs } from './support/browser';
import { createTestWith, importFile } from './support/exams';
import { mp3 } from '../media/samples';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

async function bankOf(tenant: Tenant): Promise<Array<Record<string, any>>> {
  const res = await get('/api/questions?limit=100', { token: tenant.admin.token, ip: freshIp() });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

/** The report table as the page shows it: per row, its cells' text. */
const reportRows = (page: Page) =>
  page
    .locator('table.report tbody tr')
    .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')));

/** Each reported question is a row of the table: its number, line or path, title, status, message and warnings. */
function assertReportShown(rows: string[][], questions: any[]): void {
  assert.equal(rows.length, questions.length, JSON.stringify(rows));
  questions.forEach((q, i) => {
    const [index, where, title, , status, message, warnings] = rows[i];
    assert.equal(index, String(q.index));
    assert.equal(where, String(q.line ?? q.path ?? '—'));
    assert.equal(title, q.title || '—');
    assert.equal(status, q.status);
    assert.ok(message.startsWith(q.message ?? ''), `${message} / ${q.message}`);
    for (const w of q.warnings) assert.ok(warnings.includes(w), `warning "${w}" not shown in "${warnings}"`);
  });
}

describe('web app: an admin imports a GIFT file', function () {
  this.timeout(180_000);
  const browser = browserPerTest();

  it('shows the dry run per question (ok, error, warnings), then imports the ok questions in partial mode', async function () {
    const tenant = await createTenant();
    const tag = uniqueName('Gift').replace(' ', '');
    // A unique file (the import is idempotent by content): two questions it takes, one it must refuse by name,
    // and markup it can only carry with a warning (a format flag, weights that do not sum exactly).
    const gift = [
      `// The bank of ${tag}`,
      `$CATEGORY: Interchange/${tag}`,
      '',
      `::${tag} capital::[markdown]What is the capital of **France**?{=Paris ~London ~Berlin}`,
      '',
      `::${tag} primes::Which numbers are prime?{~%33.33333%2 ~%33.33333%3 ~%33.33333%5 ~%-100%4}`,
      '',
      `::${tag} sky::The sky is blue on a clear day.{T}`,
      '',
      `::${tag} moons::How many moons has Mars?{#two}`,
      '',
    ].join('\n');

    // What the service reports for this file: a partial dry run reports every question, and the page must show
    // exactly that; all or nothing (the default) refuses the file with the same report of every question.
    const partial = await importFile(tenant, 'bank.gift', gift, { dry_run: 'true', mode: 'partial' });
    assert.equal(partial.status, 201, JSON.stringify(partial.body));
    const report: any[] = partial.body.questions;
    assert.ok(Array.isArray(report), `no per-question report: ${JSON.stringify(partial.body)}`);
    assert.deepEqual(
      report.map((q) => q.status),
      ['ok', 'ok', 'ok', 'error'],
    );
    assert.match(report[3].message, /"two" is not a number/);
    assert.ok(
      report.some((q) => q.warnings.length > 0),
      'the file is meant to carry something imperfectly',
    );
    const refusal = await importFile(tenant, 'bank.gift', gift, { dry_run: 'true' });
    assert.equal(refusal.status, 400, JSON.stringify(refusal.body));
    assert.deepEqual(refusal.body.questions, report);

    const { page } = browser();
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/admin/import');
    await page.getByRole('heading', { name: 'Import questions', level: 1 }).waitFor();
    await page
      .getByLabel('File', { exact: true })
      .setInputFiles({ name: 'bank.gift', mimeType: 'text/plain', buffer: Buffer.from(gift) });
    await page.getByRole('button', { name: 'Check file' }).click();
    await page.locator('table.report').waitFor();
    // All or nothing (the default) would refuse the file: the page says so, and shows every question.
    await page
      .getByRole('alert')
      .getByText('Check failed: all or nothing would refuse the file: 1 question cannot be imported.')
      .waitFor();
    assert.equal(await page.getByRole('button', { name: 'Import', exact: true }).isDisabled(), true);
    assertReportShown(await reportRows(page), report);
    await page.getByText('3 ok · 1 with errors · 0 unsupported').waitFor();
    for (const status of ['ok', 'error'])
      assert.ok(await page.locator(`table.report .badge-${status}`).first().isVisible(), status);
    await checkPage(page, this, 'gift dry run');

    // The check does not depend on the mode: choosing partial says what that would do, with no second check.
    await page.getByLabel('Import the others (partial)').check();
    await page.getByText('Check passed: 3 questions would be imported, 1 failed.').waitFor();
    assert.equal(await page.getByRole('alert').count(), 0);
    assertReportShown(await reportRows(page), report);
    assert.equal((await bankOf(tenant)).length, 0, 'a dry run writes nothing');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Imported 3 questions; 1 failed.').waitFor();
    await checkPage(page, this, 'gift imported');

    const bank = await bankOf(tenant);
    assert.deepEqual(bank.map((q) => q.title).sort(), [`${tag} capital`, `${tag} primes`, `${tag} sky`]);
    const folders = await get(`/api/folders?limit=100`, { token: tenant.admin.token, ip: freshIp() });
    const folder = folders.body.data.find((f: { name: string }) => f.name.includes(tag));
    assert.ok(folder, `a folder from the category: ${JSON.stringify(folders.body.data)}`);
    assert.ok(bank.every((q) => q.folder_id === folder.id));
  });
});

describe('web app: an admin exports questions', function () {
  this.timeout(180_000);
  const browser = browserPerTest();

  /** Clicks "Export" with `format` chosen and reads the file the browser saved. */
  async function exported(page: Page, format: string): Promise<{ name: string; body: Buffer }> {
    await page.getByLabel('Export as').selectOption({ label: format });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    const path = await download.path();
    assert.ok(path, `the download failed: ${await download.failure()}`);
    return { name: download.suggestedFilename(), body: readFileSync(path) };
  }

  it('downloads the bank as GIFT with its filters, and a test as Moodle XML and as a QTI package', async function () {
    const tenant = await createTenant();
    const tag = uniqueName('Export');
    const test = await createTestWith(tenant, {
      publish: false,
      questions: [
        { question_text: `${tag} symbol for gold?`, question_type: 'short_answer', correct_answer: 'Au', marks: 1, difficulty: 'easy' },
        { question_text: `${tag} largest planet?`, question_type: 'multiple_choice', options: ['Jupiter', 'Mars'], correct_answer: 'Jupiter', marks: 2, difficulty: 'medium' },
      ], // prettier-ignore
    });
    const { page } = browser();
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/admin/questions');
    await page.getByRole('cell', { name: `${tag} symbol for gold?`, exact: true }).waitFor();
    await page.getByLabel('Question type').selectOption({ label: 'Short answer' });
    await page.getByRole('button', { name: `Edit ${tag} largest planet?` }).waitFor({ state: 'detached' });
    const gift = await exported(page, 'GIFT');
    const text = gift.body.toString('utf8');
    assert.ok(text.includes(`${tag} symbol for gold?`), text);
    assert.match(text, /\{\s*=\s*Au\s*\}/);
    assert.doesNotMatch(text, /largest planet/, 'the filter applies to the export');
    await page.getByText(`Downloaded ${gift.name}.`).waitFor();
    await checkPage(page, this, 'bank exported');

    await page.goto(`/admin/tests/${test.id}`);
    await page.getByRole('heading', { name: test.test_name, level: 1 }).waitFor();
    const xml = await exported(page, 'Moodle XML');
    assert.match(xml.body.toString('utf8'), /^(\uFEFF)?<\?xml[^>]*\?>\s*<quiz>/);
    assert.match(xml.body.toString('utf8'), /largest planet/);
    const qti = await exported(page, 'QTI 3.0 package (zip)');
    assert.equal(qti.body.subarray(0, 4).toString('latin1'), 'PK\u0003\u0004', 'a zip file');
    assert.match(qti.name, /\.zip$/);
    await checkPage(page, this, 'test exported');
  });
});

describe('web app: question HTML for a student', function () {
  this.timeout(180_000);
  const browser = browserPerTest();

  /** Signs the student in and starts the test: the attempt page. */
  async function startAttempt(page: Page, tenant: Tenant, testName: string): Promise<void> {
    await signInAs(page, tenant.student.email, tenant.student.password);
    await page.getByRole('button', { name: `Start ${testName}` }).click();
    await page.getByRole('timer').waitFor();
  }

  /** A published test of the questions, its review released: the created test's reply. */
  async function publishWith(tenant: Tenant, testName: string, questionIds: string[]) {
    const created = await post(
      '/api/tests',
      {
        test_name: testName,
        timer: 30,
        shuffle: 0,
        allow_review: 1,
        negative_marking: 0,
        status: 'draft',
        question_ids: questionIds,
      },
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(created.status, 201, created.text);
    const published = await post(`/api/tests/${created.body.id}/publish`, undefined, {
      token: tenant.admin.token,
      ip: freshIp(),
    });
    assert.equal(published.status, 200, published.text);
    return created;
  }

  const pwned = (page: Page) => page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);

  it('runs no script of a question created with <script> and onerror=, shows its sanitized text, then its feedback in the review', async function () {
    const tenant = await createTenant();
    const tag = uniqueName('Html');
    const test = await createTestWith(tenant, {
      questions: [
        {
          question_type: 'multiple_choice',
          text_format: 'html',
          title: `${tag} title`,
          question_text:
            `<p>Which word is <strong>bold</strong>? ${tag}</p>` +
            '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>',
          options: ['bold', 'plain'],
          correct_answer: 'bold',
          marks: 1,
          difficulty: 'easy',
          feedback: `Bold text is heavier. ${tag}`,
          option_feedback: ['Right: it is the strong one', 'No: this one is plain'],
        },
        {
          question_type: 'short_answer',
          question_text: `Symbol for gold? ${tag}`,
          correct_answer: 'Au',
          alternatives: [{ answer: 'Aurum', credit: 50 }],
          case_sensitive: true,
          marks: 1,
          difficulty: 'easy',
          feedback: `From the Latin aurum. ${tag}`,
        },
      ],
    });
    const stored = await get(`/api/questions/${test.question_ids[0]}`, { token: tenant.admin.token, ip: freshIp() });
    assert.doesNotMatch(stored.body.question_text, /<script|onerror/i, 'the service stores the sanitized text');

    const { page } = browser();
    await startAttempt(page, tenant, test.test_name);
    const question = page.getByRole('group', { name: new RegExp(`Which word is bold\\? ${tag}`) });
    await question.locator('strong', { hasText: 'bold' }).waitFor();
    assert.equal(await question.locator('script, [onerror], img[src="x"]').count(), 0);
    // A failed image fires its onerror after the page has settled: give it the time to.
    await page.waitForTimeout(500);
    assert.equal(await pwned(page), undefined);
    await checkPage(page, this, 'html question');

    await question.getByLabel('bold', { exact: true }).check();
    await page.getByText('All answers saved').waitFor();
    await page.getByRole('button', { name: 'Submit the test' }).click();
    await page.getByRole('button', { name: 'Submit now' }).click();
    await page.getByRole('heading', { name: 'Review' }).waitFor();
    await page.getByText('Right: it is the strong one').waitFor();
    await page.getByText(`Bold text is heavier. ${tag}`).waitFor();
    assert.equal(await page.getByText('No: this one is plain').count(), 0, 'only the chosen option’s feedback');
    // The rest of the released key, and the general feedback of a question left unanswered.
    const gold = page.locator('ol.questions > li', { hasText: `Symbol for gold? ${tag}` });
    await gold.getByText('Correct answer: Au (case matters)').waitFor();
    await gold.getByText('Also accepted: Aurum for 50%').waitFor();
    await gold.getByText(`From the Latin aurum. ${tag}`).waitFor();
    assert.equal(await pwned(page), undefined);
    await checkPage(page, this, 'review with feedback');
  });

  it('sanitizes again in the page: a reply carrying raw HTML (as if the service had not) runs nothing', async function () {
    // Works without the service's sanitizer: the attempt's reply is rewritten on its way to the page.
    const tenant = await createTenant();
    const test = await createTestWith(tenant, {
      questions: [
        { question_text: 'Plain question', question_type: 'short_answer', correct_answer: 'x', marks: 1, difficulty: 'easy' },
      ], // prettier-ignore
    });
    const visitor = browser();
    const { page } = visitor;
    await page.route(/\/api\/attempts\/[^/?]+(\?.*)?$/, async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      if (route.request().method() === 'GET' && body.test_details) {
        body.test_details.questions[0].text_format = 'html';
        body.test_details.questions[0].question_text =
          '<p>Raw <em>markup</em></p><img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>' +
          '<a href="javascript:window.__pwned=1">link</a><svg><script>window.__pwned=1</script></svg>' +
          '<p style="color:red" class="error" onclick="window.__pwned=1">styled</p>';
      }
      await route.fulfill({ response, json: body });
    });
    await startAttempt(page, tenant, test.test_name);
    const text = page.locator('legend .qtext-html');
    await text.locator('em', { hasText: 'markup' }).waitFor();
    assert.equal(await text.locator('script, svg, a, img[src], [style], [class], [onclick], [onerror]').count(), 0);
    await text.getByText('styled').waitFor();
    await page.waitForTimeout(500);
    assert.equal(await pwned(page), undefined);
    // Chromium reports the raw text's inline handlers and style attribute as it parses it into
    // DOMPurify's inert document (and blocks them there): expected here, where the text is raw on
    // purpose; a stored text, sanitized by the service, has none. Nothing else may be refused.
    const refused = visitor.cspViolations.splice(0);
    assert.ok(refused.length > 0, 'the raw text was parsed');
    for (const message of refused)
      assert.match(message, /^(Executing inline event handler|Applying inline style) violates/);
    await checkPage(page, this, 'raw html sanitized in the page');
  });

  /** Waits for the image `alt` to show its 2×2 picture from a blob: URL (fetched by the page with credentials). */
  const imageShown = (page: Page, alt: string) =>
    page.waitForFunction((alt) => {
      const img = document.querySelector<HTMLImageElement>(`img[alt="${alt}"]`);
      return img?.src.startsWith('blob:') && img.complete && img.naturalWidth === 2;
    }, alt);

  it('plays a sound a Moodle XML question links to, in the attempt and in the review, the link kept as a download of it', async function () {
    const tenant = await createTenant();
    const tag = uniqueName('Sound');
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="multichoice">
    <name><text>${tag} greeting</text></name>
    <questiontext format="html">
      <text><![CDATA[<p><a href="@@PLUGINFILE@@/bonjour.mp3">Listen to this greeting:</a> ${tag}</p>]]></text>
      <file name="bonjour.mp3" path="/" encoding="base64">${mp3().toString('base64')}</file>
    </questiontext>
    <defaultgrade>1</defaultgrade>
    <single>true</single>
    <shuffleanswers>0</shuffleanswers>
    <answer fraction="100" format="plain_text"><text>French</text></answer>
    <answer fraction="0" format="plain_text"><text>German</text></answer>
  </question>
</quiz>
`;
    const imported = await importFile(tenant, 'sound.xml', xml);
    assert.equal(imported.status, 201, JSON.stringify(imported.body));
    await publishWith(tenant, `${tag} test`, imported.body.question_ids);

    /** The player before the link: its sound from a blob: URL, the link a download of the same URL. */
    const soundShown = (page: Page) =>
      page.waitForFunction(() => {
        const link = document.querySelector<HTMLAnchorElement>('.qtext-html a');
        const player = link?.previousElementSibling;
        return (
          player instanceof HTMLAudioElement &&
          player.controls &&
          player.src.startsWith('blob:') &&
          link!.href === player.src &&
          link!.hasAttribute('download') &&
          link!.textContent === 'Listen to this greeting:'
        );
      });
    const { page } = browser();
    await startAttempt(page, tenant, `${tag} test`);
    await soundShown(page);
    await checkPage(page, this, 'sound in an attempt');
    await page.getByLabel('French', { exact: true }).check();
    await page.getByText('All answers saved').waitFor();
    await page.getByRole('button', { name: 'Submit the test' }).click();
    await page.getByRole('button', { name: 'Submit now' }).click();
    await page.getByRole('heading', { name: 'Review' }).waitFor();
    await soundShown(page);
    await checkPage(page, this, 'sound in the review');
  });

  it('shows an image imported with a Moodle XML file to the admin, a student (and in the review) and a guest, each with its own credentials', async function () {
    const tenant = await createTenant();
    const tag = uniqueName('Media');
    // A 2×2 red PNG.
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8DwnwGMgRQAH+4D/dJQfRoAAAAASUVORK5CYII=';
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="multichoice">
    <name><text>${tag} dot</text></name>
    <questiontext format="html">
      <text><![CDATA[<p>What colour is the dot? ${tag}</p><p><img src="@@PLUGINFILE@@/dot.png" alt="the dot"></p>]]></text>
      <file name="dot.png" path="/" encoding="base64">${png}</file>
    </questiontext>
    <defaultgrade>1</defaultgrade>
    <single>true</single>
    <shuffleanswers>0</shuffleanswers>
    <answer fraction="100" format="plain_text"><text>Red</text></answer>
    <answer fraction="0" format="plain_text"><text>Blue</text></answer>
  </question>
</quiz>
`;
    const imported = await importFile(tenant, 'dot.xml', xml);
    assert.equal(imported.status, 201, JSON.stringify(imported.body));
    const stored = await get(`/api/questions/${imported.body.question_ids[0]}`, {
      token: tenant.admin.token,
      ip: freshIp(),
    });
    // The organization's id, a dot, then the file's own: the page must keep the whole id.
    const mediaId = /\/api\/media\/([^"?]+)"/.exec(stored.body.question_text)?.[1];
    assert.ok(mediaId?.startsWith(`${tenant.clientId}.`), stored.body.question_text);
    const created = await publishWith(tenant, `${tag} test`, imported.body.question_ids);
    const issued = await post(
      `/api/tests/${created.body.id}/share-codes`,
      {},
      {
        token: tenant.admin.token,
        ip: freshIp(),
      },
    );
    assert.equal(issued.status, 201, issued.text);

    /** The media requests a page sends: their query and whether they carried a bearer token or an attempt token. */
    const mediaRequests = (page: Page) => {
      const seen: Array<{ query: string; bearer: boolean; attemptToken: boolean }> = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (!url.pathname.startsWith('/api/media/')) return;
        assert.equal(decodeURIComponent(url.pathname.slice('/api/media/'.length)), mediaId);
        const headers = request.headers();
        seen.push({
          query: url.search,
          bearer: /^Bearer /.test(headers['authorization'] ?? ''),
          attemptToken: Boolean(headers['x-attempt-token']),
        });
      });
      return seen;
    };

    // The admin's bank: fetched with the admin's token, no attempt.
    const admin = await openBrowser();
    try {
      const seen = mediaRequests(admin.page);
      await signInAs(admin.page, tenant.admin.email, tenant.admin.password);
      await admin.page.goto('/admin/questions');
      await imageShown(admin.page, 'the dot');
      assert.ok(seen.length > 0 && seen.every((r) => r.bearer && r.query === ''), JSON.stringify(seen));
      await checkPage(admin.page, this, 'image in the bank');
    } finally {
      await admin.close();
    }

    // A student: for its attempt, with its ID token; then in the released review.
    const { page } = browser();
    const studentSeen = mediaRequests(page);
    await startAttempt(page, tenant, `${tag} test`);
    const attemptId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('img', { name: 'the dot' }).waitFor();
    await imageShown(page, 'the dot');
    await checkPage(page, this, 'image in an attempt');
    await page.getByLabel('Red', { exact: true }).check();
    await page.getByText('All answers saved').waitFor();
    await page.getByRole('button', { name: 'Submit the test' }).click();
    await page.getByRole('button', { name: 'Submit now' }).click();
    await page.getByRole('heading', { name: 'Review' }).waitFor();
    await imageShown(page, 'the dot');
    await checkPage(page, this, 'image in the review');
    const forAttempt = `?attempt_id=${encodeURIComponent(attemptId)}`;
    assert.ok(
      studentSeen.length > 0 && studentSeen.every((r) => r.bearer && !r.attemptToken && r.query === forAttempt),
      JSON.stringify(studentSeen),
    );

    // A guest: its attempt token, no bearer token.
    const guest = await openBrowser();
    try {
      const seen = mediaRequests(guest.page);
      await guest.page.goto('/');
      await guest.page.getByLabel('Share code').fill(issued.body.code);
      await guest.page.getByLabel('Your name').fill('Grace Guest');
      await guest.page.getByRole('button', { name: 'Start as guest' }).click();
      await guest.page.getByRole('timer').waitFor();
      await imageShown(guest.page, 'the dot');
      const guestAttempt = new URL(guest.page.url()).pathname.split('/').pop()!;
      assert.ok(
        seen.length > 0 &&
          seen.every(
            (r) => r.attemptToken && !r.bearer && r.query === `?attempt_id=${encodeURIComponent(guestAttempt)}`,
          ),
        JSON.stringify(seen),
      );
      await checkPage(guest.page, this, 'image for a guest');
    } finally {
      await guest.close();
    }
  });
});
