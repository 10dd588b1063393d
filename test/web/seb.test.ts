import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createUser } from '../support/fixtures';
import { freshIp, get, patch } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { tenantWithPublishedTest } from './support/exams';

const CONFIG_KEY = createHash('sha256').update('the hall’s SEB configuration').digest('hex');

/**
 * What Safe Exam Browser gives a page in its WebKit builds: `SafeExamBrowser.security.configKey`, SHA-256 hex of
 * the page's URL (no fragment) followed by the Config Key, recomputed by `updateKeys` for the current URL.
 */
const sebJavaScriptApi = (key: string) => `
  window.SafeExamBrowser = { security: {
    configKey: undefined,
    updateKeys(done) {
      const url = location.href.split('#')[0];
      crypto.subtle.digest('SHA-256', new TextEncoder().encode(url + ${JSON.stringify(key)})).then((digest) => {
        this.configKey = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
        done();
      });
    },
  } };`;

describe('web app: a test that requires Safe Exam Browser', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  const sitting = tenantWithPublishedTest();
  before(async () => {
    const { tenant, test } = sitting();
    const set = await patch(
      `/api/tests/${test.id}`,
      { seb_config_keys: [CONFIG_KEY] },
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(set.status, 200, set.text);
  });

  it('is started, answered and submitted in SEB, with the hashes of its JavaScript API', async function () {
    const { page } = browser();
    const { tenant, test } = sitting();
    await page.addInitScript(sebJavaScriptApi(CONFIG_KEY));
    const student = await createUser('student', tenant.clientId);
    await signInAs(page, student.email, student.password);
    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();
    await page
      .getByRole('group', { name: /capital of France/ })
      .getByLabel('Paris')
      .check();
    await page.getByText('All answers saved').waitFor();
    const attemptId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const attempt = await get(`/api/attempts/${attemptId}`, { token: student.token, ip: freshIp() });
    assert.deepEqual(
      attempt.body.answers.map((a: { student_answer: string }) => a.student_answer),
      ['Paris'],
    );
    await checkPage(page, this, 'seb attempt');
    await page.getByRole('button', { name: 'Submit the test' }).click();
    await page.getByRole('button', { name: 'Submit now' }).click();
    await page.getByText(/Your score:/).waitFor();
  });

  it('is refused in an ordinary browser, saying that SEB is required', async () => {
    const { page } = browser();
    const { tenant, test } = sitting();
    const student = await createUser('student', tenant.clientId);
    await signInAs(page, student.email, student.password);
    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByText('This test must be taken in Safe Exam Browser').waitFor();
    assert.equal(await page.getByRole('timer').count(), 0);
  });

  it('is refused with the hashes of another key', async () => {
    const { page } = browser();
    const { tenant, test } = sitting();
    await page.addInitScript(sebJavaScriptApi('0'.repeat(64)));
    const student = await createUser('student', tenant.clientId);
    await signInAs(page, student.email, student.password);
    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByText('This test must be taken in Safe Exam Browser').waitFor();
  });
});
