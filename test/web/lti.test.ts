import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ltiUid } from '../../functions/src/lti/claims';
import { adminAuth } from '../support/admin';
import { BASE_URL } from '../support/env';
import { freshIp, get, post } from '../support/http';
import { idTokenFor, startServicesOf } from '../lti/flow';
import { escapeHtml, startPlatform, type TestPlatform } from '../lti/platform';
import type { PlatformServices } from '../lti/platformServices';
import { browserPerTest, checkPage } from './support/browser';
import { tenantWithPublishedTest } from './support/exams';

// The whole LTI launch in Chromium, from the platform's launch form to the
// student's first saved answer: the platform's page posts the login to the
// tool, the tool sends the browser to the platform's authorization endpoint,
// which form-posts the id_token back; the web app signs in with the custom
// token and opens the linked test; the student submits, and the score reaches
// the platform's line item (AGS), posted by the outbox's trigger in the
// emulators. The steps share `flow`.

describe('web app: a student launched from an LMS', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  const sitting = tenantWithPublishedTest();
  let platform: TestPlatform;
  // The platform's token endpoint and line items: the score's way back.
  let services: PlatformServices;
  const flow: { attemptId?: string; studentUid?: string; sub?: string; lineitem?: string; submitted?: boolean } = {};

  before(async () => {
    platform = await startPlatform();
    services = await startServicesOf(BASE_URL, platform);
    const { tenant } = sitting();
    const registration = platform.registration({ auth_token_url: services.tokenUrl });
    const res = await post(`/api/clients/${tenant.clientId}/lti/platforms`, registration, {
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
  after(async () => {
    await services?.close();
    await platform?.close();
  });

  it('goes from the platform’s launch form to the first saved answer, then submits', async function () {
    const visitor = browser();
    const { page } = visitor;
    const { test } = sitting();
    const sub = `student-${randomUUID()}`;
    flow.sub = sub;
    flow.lineitem = services.lineitem(test.id);
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

    await page.getByRole('button', { name: 'Submit the test' }).click();
    await page.getByRole('button', { name: 'Submit now' }).click();
    await page.getByText(/Your score:/).waitFor();
    assert.match(await page.getByText(/Your score:/).innerText(), /Your score: 2 of 18/);
    await checkPage(page, this, 'lti submitted');
    flow.submitted = true;
    assert.deepEqual(visitor.errors, []);
  });

  it('delivers the submitted score to the platform’s line item, for the launch’s user', async () => {
    assert.ok(flow.submitted, 'the launch step submitted');
    // Posted by the event's trigger in the emulators (the outbox's lti_score channel), not by this test.
    const until = Date.now() + 30_000;
    let received = services.scores.filter((s) => s.lineitem === flow.lineitem);
    while (received.length === 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 250));
      received = services.scores.filter((s) => s.lineitem === flow.lineitem);
    }
    assert.equal(received.length, 1, 'one score at the line item within 30 s');
    assert.equal(received[0].contentType, 'application/vnd.ims.lis.v1.score+json');
    const { timestamp, ...score } = received[0].body;
    assert.ok(!Number.isNaN(Date.parse(timestamp)), `a timestamp: ${timestamp}`);
    assert.deepEqual(score, {
      userId: flow.sub,
      scoreGiven: 2,
      scoreMaximum: 18,
      activityProgress: 'Completed',
      gradingProgress: 'FullyGraded',
    });
  });
});
