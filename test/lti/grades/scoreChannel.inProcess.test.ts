import assert from 'node:assert/strict';
import { ltiScoreChannel, forgetCachedPlatforms } from '../../../functions/src/lti/grades/scoreChannel';
import { forgetAllAccessTokens, platformAccessToken } from '../../../functions/src/lti/platformToken';
import { as, writeQuestion } from '../../exams/fixtures';
import { publishTest, startOk } from '../../attempts/fixtures';
import { essayTest } from '../../grading/fixtures';
import { failReads } from '../../support/faults';
import { createTenant, createUser } from '../../support/fixtures';
import { post } from '../../support/http';
import {
  deliveryFor,
  eventAbout,
  eventsOf,
  linkOutcome,
  registerPlatform,
  startPlatform,
  writeAttempt,
} from '../fixtures';
import type { PlatformServices } from '../platformServices';

// The lti_score channel, called as the outbox's engine calls it: plan an event
// (read from Firestore as the API recorded it), then send each delivery to a
// platform written in the tests with jose.

const SCORE_SCOPE = 'https://purl.imsglobal.org/spec/lti-ags/scope/score';

let platform: PlatformServices & { clientIds: string[] };
before(async () => {
  platform = await startPlatform();
});
after(() => platform.close());
beforeEach(() => {
  forgetAllAccessTokens();
  forgetCachedPlatforms();
});

/** Plans the event and sends each delivery: the planned deliveries and each try's outcome. */
async function deliver(clientId: string, event: Parameters<typeof ltiScoreChannel.plan>[0]) {
  const planned = await ltiScoreChannel.plan(event);
  const outcomes = [];
  for (const p of planned) outcomes.push(await ltiScoreChannel.send(deliveryFor(clientId, p, event.type)));
  return { planned, outcomes };
}

describe('lti_score channel: scores of attempts launched from a platform', () => {
  it('posts the score on submit, FullyGraded, to the line item’s /scores with the score media type and a score-scoped token', async () => {
    const tenant = await createTenant();
    const registration = await registerPlatform(tenant.clientId, platform);
    const question = await writeQuestion(tenant.clientId, {
      question_text: '2+2?',
      options: ['3', '4'],
      correct_answer: '4',
      marks: 2,
    });
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { questions: [question] });
    const lineitem = platform.lineitem();
    const outcome = await linkOutcome(tenant.clientId, test.id, tenant.student.uid, registration, lineitem);
    const started = await startOk(tenant.student.token, { test_id: test.id });
    await post(
      `/api/attempts/${started.attempt_id}/answers`,
      { answers: [{ question_id: question.id, student_answer: '4' }] },
      as(tenant.student.token),
    );
    assert.equal(
      (await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(tenant.student.token))).status,
      200,
    );

    const [event] = await eventsOf(tenant.clientId, test.id, 'attempt.submitted');
    const { planned, outcomes } = await deliver(tenant.clientId, event);
    assert.deepEqual(
      planned.map((p) => p.target),
      [{ kind: 'lti_score', platform_id: registration.id, lineitem, user_sub: outcome.user_sub }],
    );
    assert.deepEqual(JSON.parse(planned[0].payload), {
      userId: outcome.user_sub,
      scoreGiven: 2,
      scoreMaximum: 2,
      timestamp: event.timestamp,
      activityProgress: 'Completed',
      gradingProgress: 'FullyGraded',
    });
    assert.equal(outcomes[0].code, 200);
    assert.equal(outcomes[0].error, null);
    // Once the engine delivers this channel in the emulators too, its post of the same event is the same score.
    const received = platform.scores.filter((s) => s.lineitem === lineitem && s.body.timestamp === event.timestamp);
    assert.ok(received.length >= 1);
    assert.match(received[0].url, /^\/lineitems\/[^/]+\/lineitem\/scores\?type_id=7$/);
    assert.equal(received[0].contentType, 'application/vnd.ims.lis.v1.score+json');
    assert.deepEqual(received[0].scopes, [SCORE_SCOPE]);
    for (const r of received) assert.deepEqual(r.body, JSON.parse(planned[0].payload));
  });

  it('posts PendingManual while an essay waits, FullyGraded after the grade, and again after a regrade', async function () {
    this.timeout(60_000);
    const tenant = await createTenant();
    const registration = await registerPlatform(tenant.clientId, platform);
    const { test, choice, essays } = await essayTest(tenant.admin.token, tenant.clientId);
    const lineitem = platform.lineitem();
    const outcome = await linkOutcome(tenant.clientId, test.id, tenant.student.uid, registration, lineitem);
    const started = await startOk(tenant.student.token, { test_id: test.id });
    const answers = [
      { question_id: choice.id, student_answer: '4' },
      { question_id: essays[0].id, student_answer: 'Plants turn light into sugar.' },
    ];
    await post(`/api/attempts/${started.attempt_id}/answers`, { answers }, as(tenant.student.token));
    await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(tenant.student.token));
    /** What the line item received for one change (the engine, once it delivers this channel here, posts the same). */
    const receivedFor = (timestamp: string) => {
      const bodies = platform.scores.filter((s) => s.lineitem === lineitem && s.body.timestamp === timestamp);
      assert.ok(bodies.length >= 1, `a score for the change at ${timestamp}`);
      return bodies.at(-1)!.body;
    };

    const [submitted] = await eventsOf(tenant.clientId, test.id, 'attempt.submitted');
    await deliver(tenant.clientId, submitted);
    assert.deepEqual(receivedFor(submitted.timestamp), {
      userId: outcome.user_sub,
      scoreGiven: 2,
      scoreMaximum: 12,
      timestamp: submitted.timestamp,
      activityProgress: 'Completed',
      gradingProgress: 'PendingManual',
    });

    const graded = await post(
      `/api/attempts/${started.attempt_id}/grades`,
      { question_id: essays[0].id, marks: 5 },
      as(tenant.admin.token),
    );
    assert.equal(graded.status, 200, graded.text);
    const [gradedEvent] = await eventsOf(tenant.clientId, test.id, 'attempt.graded');
    await deliver(tenant.clientId, gradedEvent);
    assert.deepEqual(receivedFor(gradedEvent.timestamp), {
      userId: outcome.user_sub,
      scoreGiven: 7,
      scoreMaximum: 12,
      timestamp: gradedEvent.timestamp,
      activityProgress: 'Completed',
      gradingProgress: 'FullyGraded',
    });

    // The choice's key corrected to "3": the student's "4" loses its 2 marks.
    const grader = await createUser('client_admin', tenant.clientId);
    const regraded = await post(
      `/api/tests/${test.id}/versions/1/regrade`,
      { question_id: choice.id, correct_answer: '3' },
      as(grader.token),
    );
    assert.equal(regraded.status, 200, regraded.text);
    const [regradeEvent] = await eventsOf(tenant.clientId, test.id, 'attempt.regraded');
    const { outcomes } = await deliver(tenant.clientId, regradeEvent);
    assert.equal(outcomes[0].code, 200);
    assert.deepEqual(receivedFor(regradeEvent.timestamp), {
      userId: outcome.user_sub,
      scoreGiven: 5,
      scoreMaximum: 12,
      timestamp: regradeEvent.timestamp,
      activityProgress: 'Completed',
      gradingProgress: 'FullyGraded',
    });
  });

  it('plans nothing for attempts not launched from a platform, guests’, or a test’s publication', async () => {
    const tenant = await createTenant();
    const linked = await writeAttempt(tenant.clientId, { test_id: 't1', student_id: tenant.student.uid });
    const guest = await writeAttempt(tenant.clientId, { test_id: 't1', student_id: 'guest-1', guest: true });
    assert.deepEqual(await ltiScoreChannel.plan(eventAbout(tenant.clientId, 't1', [linked, guest])), []);
    assert.deepEqual(await ltiScoreChannel.plan(eventAbout(tenant.clientId, 't1', [], 'test.published')), []);
  });

  it('plans one score per line item and user from a regrade of many attempts, reading them in two round trips', async () => {
    const tenant = await createTenant();
    const registration = await registerPlatform(tenant.clientId, platform);
    const students = await Promise.all([1, 2, 3].map(() => createUser('student', tenant.clientId)));
    const attempts = await Promise.all(
      students.map((s, i) =>
        writeAttempt(tenant.clientId, { test_id: 'tR', student_id: s.uid, score: i, final_score: i }),
      ),
    );
    const lineitem = platform.lineitem();
    const outcomes = await Promise.all(
      students.slice(0, 2).map((s) => linkOutcome(tenant.clientId, 'tR', s.uid, registration, lineitem)),
    );
    const planned = await ltiScoreChannel.plan(eventAbout(tenant.clientId, 'tR', attempts, 'attempt.regraded'));
    assert.deepEqual(
      planned.map((p) => [p.target, JSON.parse(p.payload).scoreGiven]),
      outcomes.map((o, i) => [{ kind: 'lti_score', platform_id: registration.id, lineitem, user_sub: o.user_sub }, i]),
    );
  });
});

describe('lti_score channel: the access token', () => {
  it('buys one token (client credentials, a client assertion the platform verifies) and reuses it until it expires', async () => {
    const tenant = await createTenant();
    const registration = await registerPlatform(tenant.clientId, platform);
    const attempt = await writeAttempt(tenant.clientId, { test_id: 'tT', student_id: tenant.student.uid });
    await linkOutcome(tenant.clientId, 'tT', tenant.student.uid, registration, platform.lineitem());
    const mine = () => platform.tokenRequests.filter((r) => r.clientId === registration.platform_client_id);

    for (let i = 0; i < 3; i++) {
      const { outcomes } = await deliver(tenant.clientId, eventAbout(tenant.clientId, 'tT', [attempt]));
      assert.equal(outcomes[0].code, 200, outcomes[0].error ?? '');
    }
    assert.equal(mine().length, 1);
    assert.deepEqual(mine()[0], { clientId: registration.platform_client_id, scopes: [SCORE_SCOPE], refused: null });

    const lifeMs = platform.tokenLifetimeSeconds * 1000;
    const cached = await platformAccessToken(registration, [SCORE_SCOPE], Date.now() + lifeMs - 61_000);
    assert.ok('token' in cached);
    assert.equal(mine().length, 1, 'still good a minute before it expires');
    const renewed = await platformAccessToken(registration, [SCORE_SCOPE], Date.now() + lifeMs);
    assert.ok('token' in renewed);
    assert.equal(mine().length, 2, 'a new one once it has expired');
  });

  it('shares one token request among deliveries sent at once', async () => {
    const tenant = await createTenant();
    const registration = await registerPlatform(tenant.clientId, platform);
    const attempt = await writeAttempt(tenant.clientId, { test_id: 'tS', student_id: tenant.student.uid });
    await linkOutcome(tenant.clientId, 'tS', tenant.student.uid, registration, platform.lineitem());
    const [planned] = await ltiScoreChannel.plan(eventAbout(tenant.clientId, 'tS', [attempt]));
    const outcomes = await Promise.all(
      [1, 2, 3, 4].map(() => ltiScoreChannel.send(deliveryFor(tenant.clientId, planned))),
    );
    assert.deepEqual(
      outcomes.map((o) => o.code),
      [200, 200, 200, 200],
    );
    assert.equal(platform.tokenRequests.filter((r) => r.clientId === registration.platform_client_id).length, 1);
  });

  it('buys a new token after the platform refuses the cached one (401)', async () => {
    const tenant = await createTenant();
    const registration = await registerPlatform(tenant.clientId, platform);
    const attempt = await writeAttempt(tenant.clientId, { test_id: 'tV', student_id: tenant.student.uid });
    await linkOutcome(tenant.clientId, 'tV', tenant.student.uid, registration, platform.lineitem());
    const [planned] = await ltiScoreChannel.plan(eventAbout(tenant.clientId, 'tV', [attempt]));
    assert.equal((await ltiScoreChannel.send(deliveryFor(tenant.clientId, planned))).code, 200);
    platform.revokeTokens();
    const refused = await ltiScoreChannel.send(deliveryFor(tenant.clientId, planned));
    assert.equal(refused.code, 401);
    const again = await ltiScoreChannel.send(deliveryFor(tenant.clientId, planned));
    assert.equal(again.code, 200);
    assert.equal(platform.tokenRequests.filter((r) => r.clientId === registration.platform_client_id).length, 2);
  });
});

describe('lti_score channel: failures', () => {
  async function linkedDelivery() {
    const tenant = await createTenant();
    const registration = await registerPlatform(tenant.clientId, platform);
    const attempt = await writeAttempt(tenant.clientId, { test_id: 'tF', student_id: tenant.student.uid });
    const lineitem = platform.lineitem();
    await linkOutcome(tenant.clientId, 'tF', tenant.student.uid, registration, lineitem);
    const event = eventAbout(tenant.clientId, 'tF', [attempt]);
    const [planned] = await ltiScoreChannel.plan(event);
    return { tenant, registration, lineitem, event, delivery: deliveryFor(tenant.clientId, planned) };
  }

  it('a line item answering 500 is a failed try with its code (retried by the engine), not a throw', async () => {
    const { delivery } = await linkedDelivery();
    platform.failScores({ status: 500, body: '{"error":"database down"}' });
    const outcome = await ltiScoreChannel.send(delivery);
    assert.equal(outcome.code, 500);
    assert.match(outcome.error!, /The line item answered 500: \{"error":"database down"\}/);
    assert.equal(outcome.gone, undefined);
    assert.equal((await ltiScoreChannel.send(delivery)).code, 200, 'the next try lands');
  });

  it('a token endpoint that fails or refuses is a failed try naming it, and no score is posted', async () => {
    const { delivery, lineitem } = await linkedDelivery();
    platform.failTokens(
      { status: 500, body: 'upstream broke' },
      { status: 400, body: '{"error":"invalid_client","error_description":"unknown key"}' },
    );
    const first = await ltiScoreChannel.send(delivery);
    assert.equal(first.code, null);
    assert.equal(first.error, 'The token endpoint answered 500: upstream broke');
    const second = await ltiScoreChannel.send(delivery);
    assert.equal(second.error, 'The token endpoint refused (400 invalid_client: unknown key)');
    assert.equal(platform.scores.filter((s) => s.lineitem === lineitem).length, 0);
  });

  it('a line item that does not answer within 15 s is a failed try (timeout), not a throw', async function () {
    this.timeout(30_000);
    const { delivery } = await linkedDelivery();
    platform.failScores({ hangMs: 17_000 });
    const outcome = await ltiScoreChannel.send(delivery);
    assert.equal(outcome.code, null);
    assert.equal(outcome.error, 'No answer within 15 s');
    assert.ok(outcome.ms >= 14_500 && outcome.ms < 16_500, String(outcome.ms));
  });

  it('a deleted registration is a final failure (gone), with no token bought', async () => {
    const { tenant, registration, delivery } = await linkedDelivery();
    const { adminDb } = await import('../../support/admin');
    await adminDb.doc(`clients/${tenant.clientId}/lti_platforms/${registration.id}`).delete();
    const outcome = await ltiScoreChannel.send(delivery);
    assert.deepEqual(
      { code: outcome.code, error: outcome.error, gone: outcome.gone },
      {
        code: null,
        error: 'The LTI platform registration was deleted',
        gone: true,
      },
    );
    assert.equal(platform.tokenRequests.filter((r) => r.clientId === registration.platform_client_id).length, 0);
  });

  it('Firestore failing makes plan and send throw (a backend fault the engine retries), posting nothing', async () => {
    const { tenant, event, delivery, lineitem } = await linkedDelivery();
    forgetCachedPlatforms();
    let heal = failReads(/\/(attempts|lti_outcomes)\//);
    try {
      await assert.rejects(ltiScoreChannel.plan(event), (err: { code?: number }) => err.code === 14);
    } finally {
      heal();
    }
    heal = failReads(/\/lti_platforms\//);
    try {
      await assert.rejects(ltiScoreChannel.send(delivery), (err: { code?: number }) => err.code === 14);
    } finally {
      heal();
    }
    assert.equal(platform.scores.filter((s) => s.lineitem === lineitem).length, 0);
    assert.equal((await ltiScoreChannel.plan(event)).length, 1, tenant.clientId);
  });
});

describe('lti_score channel: tenant isolation', () => {
  it('never posts for another organization: its attempts, outcomes and registrations are not read', async () => {
    const a = await createTenant();
    const b = await createTenant();
    const registrationA = await registerPlatform(a.clientId, platform);
    const attemptA = await writeAttempt(a.clientId, { test_id: 'tI', student_id: a.student.uid });
    const lineitem = platform.lineitem();
    await linkOutcome(a.clientId, 'tI', a.student.uid, registrationA, lineitem);

    // B's event naming A's attempt, and B's own attempt at the same test id by the same uid: nothing.
    const attemptB = await writeAttempt(b.clientId, { test_id: 'tI', student_id: a.student.uid });
    assert.deepEqual(await ltiScoreChannel.plan(eventAbout(b.clientId, 'tI', [attemptA, attemptB])), []);

    // A delivery of B aimed at A's registration finds no registration under B: nothing is posted.
    const [plannedA] = await ltiScoreChannel.plan(eventAbout(a.clientId, 'tI', [attemptA]));
    const outcome = await ltiScoreChannel.send(deliveryFor(b.clientId, plannedA));
    assert.equal(outcome.gone, true);
    assert.equal(platform.scores.filter((s) => s.lineitem === lineitem).length, 0);
    assert.equal(platform.tokenRequests.filter((r) => r.clientId === registrationA.platform_client_id).length, 0);
  });
});
