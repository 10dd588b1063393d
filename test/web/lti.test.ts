import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ltiUid } from '../../functions/src/lti/claims';
import { adminAuth } from '../support/admin';
import { BASE_URL } from '../support/env';
import { freshIp, get, post } from '../support/http';
import { idTokenFor } from '../lti/flow';
import { escapeHtml, startPlatform, type TestPlatform } from '../lti/platform';
import { browserPerTest, checkPage } from './support/browser';
import { tenantWithPublishedTest } from './support/exams';

// The whole LTI launch in Chromium, from the platform's launch form to the
// student's first saved answer: the platform's page posts the login to the
// tool, the tool sends the browser to the platform's authorization endpoint,
// which form-posts the id_token back; the web app signs in with the custom
// token and opens the linked test. The steps share `flow`, so a later step
// (the score arriving at the platform) is appended after the last one.

describe('web app: a student launched from an LMS', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  const sitting = tenantWithPublishedTest();
  let platform: TestPlatform;
  const flow: { attemptId?: string; studentUid?: string; lineitem?: string } = {};

  before(async () => {
    platform = await startPlatform();
    const { tenant } = sitting();
    const res = await post(`/api/clients/${tenant.clientId}/lti/platforms`, platform.registration(), {
      token: tenant.admin.token,
      ip: freshIp(),
    });
    assert.equal(res.status, 201, res.text);
    // The platform's course page: a form that starts the tool's login, as an LMS's activity link does.
    platform.route('GET', '/course', (_req, res) => {
      const fields = {
        iss: platform.issuer,
        login_hint: 'student-42',
        target_link_uri: `${BASE_URL}/api/lti/launch`,
        lti_message_hint: 'link-1',
        client_id: platform.clientId,
        lti_deployment_id: platform.deploymentId,
      };
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(
        `<!doctype html><html lang="en"><head><title>Course</title></head><body><main><h1>Physics 101</h1>
        <form method="post" action="${escapeHtml(`${BASE_URL}/api/lti/login`)}">${Object.entries(fields)
          .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`)
          .join('')}<button type="submit">Open the test</button></form></main></body></html>`,
      );
    });
  });
  after(() => platform?.close());

  it('goes from the platform’s launch form to the first saved answer', async function () {
    const visitor = browser();
    const { page } = visitor;
    const { test } = sitting();
    const sub = `student-${randomUUID()}`;
    flow.lineitem = `${platform.baseUrl}/lineitems/${test.id}`;
    platform.pending.set('student-42', (nonce) =>
      platform.sign(
        platform.resourceLink({
          user: { sub, name: 'Lin Student', email: `lin-${randomUUID().slice(0, 6)}@school.example` },
          course: { id: `physics-${randomUUID()}`, title: 'Physics 101' },
          testId: test.id,
          nonce,
          lineitem: flow.lineitem,
        }),
      ),
    );
    await page.goto(`${platform.baseUrl}/course`);
    await page.getByRole('button', { name: 'Open the test' }).click();
    await page.getByRole('button', { name: `Start ${test.test_name}` }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/lti');
    assert.equal(new URL(page.url()).hash, '', 'the token left the address bar');
    await checkPage(page, this, 'lti landing');
    await page.getByRole('button', { name: `Start ${test.test_name}` }).click();
    await page.getByRole('timer').waitFor();
    await page
      .getByRole('group', { name: /capital of France/ })
      .getByLabel('Paris')
      .check();
    await page.getByText('All answers saved').waitFor();
    flow.attemptId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);

    // The answer is on the server, saved by the student the launch made.
    flow.studentUid = ltiUid(sitting().tenant.clientId, platform.issuer, sub);
    const token = await idTokenFor(await adminAuth.createCustomToken(flow.studentUid));
    const attempt = await get(`/api/attempts/${flow.attemptId}`, { token, ip: freshIp() });
    assert.equal(attempt.status, 200, attempt.text);
    assert.ok(attempt.body.answers.some((a: { student_answer: string }) => a.student_answer === 'Paris'));
    assert.deepEqual(visitor.errors, []);
  });
});
