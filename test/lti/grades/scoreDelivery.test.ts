import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { adminDb } from '../../support/admin';
import { BASE_URL } from '../../support/env';
import { createTenant } from '../../support/fixtures';
import { freshIp, post } from '../../support/http';
import { publishedTestOn } from '../fixtures';
import { fragment, idTokenFor, launch, startServicesOf } from '../flow';
import { startPlatform, type TestPlatform } from '../platform';
import type { PlatformServices } from '../platformServices';

// The score's whole way in the emulators, as deployed: a launch with a line
// item, the student's submit through the API, the event's trigger fanning it out
// to the lti_score channel, and the score arriving at the platform's line item.
// Nothing here calls the channel: only the wiring in app.ts and the trigger can
// deliver it.

/** Polls until `check` gives a value, for up to `ms`. */
async function eventually<T>(check: () => T | undefined, ms: number, what: string): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`waited ${ms / 1000} s for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('lti_score delivery: a launched student’s submit, through the outbox trigger', function () {
  this.timeout(90_000);
  let platform: TestPlatform;
  let services: PlatformServices;
  before(async () => {
    platform = await startPlatform();
    services = await startServicesOf(BASE_URL, platform);
  });
  after(async () => {
    await services?.close();
    await platform?.close();
  });

  it('posts exactly one FullyGraded score to the launch’s line item for the launch’s user', async () => {
    const tenant = await createTenant();
    const registered = await post(
      `/api/clients/${tenant.clientId}/lti/platforms`,
      platform.registration({ auth_token_url: services.tokenUrl }),
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(registered.status, 201, registered.text);
    // Two questions of 2 marks (publishedTestOn): one answered right.
    const test = await publishedTestOn(BASE_URL, tenant.admin.token, tenant.clientId);
    const lineitem = services.lineitem();
    const sub = `student-${randomUUID()}`;
    const launched = await launch(BASE_URL, platform, (nonce) =>
      platform.sign(
        platform.resourceLink({
          user: { sub, name: 'Lin Student' },
          course: { id: `course-${randomUUID()}`, title: 'Physics 101' },
          testId: test.id,
          nonce,
          lineitem,
        }),
      ),
    );
    assert.equal(launched.status, 302, launched.text);
    const token = await idTokenFor(fragment(launched.location).token);
    const as = { token, ip: freshIp() };

    const started = await post('/api/attempts', { test_id: test.id }, as);
    assert.equal(started.status, 201, started.text);
    const attemptId = started.body.attempt_id as string;
    const saved = await post(
      `/api/attempts/${attemptId}/answers`,
      { answers: [{ question_id: started.body.test_details.questions[0].id, student_answer: '4' }] },
      as,
    );
    assert.equal(saved.status, 200, saved.text);
    const submitted = await post(`/api/attempts/${attemptId}/submit`, undefined, as);
    assert.equal(submitted.status, 200, submitted.text);

    const score = await eventually(
      () => services.scores.find((s) => s.lineitem === lineitem),
      30_000,
      'the score at the line item',
    );
    assert.equal(score.contentType, 'application/vnd.ims.lis.v1.score+json');
    assert.deepEqual(
      { ...score.body, timestamp: typeof score.body.timestamp },
      {
        userId: sub,
        scoreGiven: 2,
        scoreMaximum: 4,
        timestamp: 'string',
        activityProgress: 'Completed',
        gradingProgress: 'FullyGraded',
      },
    );
    // The delivery is recorded as delivered once, and no second post follows (no retry, no duplicate fan-out).
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(services.scores.filter((s) => s.lineitem === lineitem).length, 1);
    const deliveries = await adminDb.collection(`clients/${tenant.clientId}/deliveries`).get();
    assert.deepEqual(
      deliveries.docs.map((d) => [d.get('target.kind'), d.get('status'), d.get('tries'), d.get('last_code')]),
      [['lti_score', 'delivered', 1, 200]],
    );
  });
});
