import assert from 'node:assert/strict';
import { sumsOf } from '../../functions/src/analytics/store';
import { adminDb } from '../support/admin';
import { holdFirstQuery } from '../support/faults';
import { createTenant, createUser, type TestUser } from '../support/fixtures';
import { api, freshIp, type ApiResponse, type RequestOptions } from '../support/http';
import { startApiInstances, type ApiInstances } from '../support/apiInstances';
import type { InProcessApi } from '../support/inProcessApi';
import { testDoc, writeQuestion } from '../exams/fixtures';
import { attemptDoc, publishTest, slotDoc } from '../attempts/fixtures';
import { plusMinutes, submissionCommits, untilAnswered } from './crowd';

// Sittings changes racing the takers, with requests that truly overlap (the
// real app served by two instances against the emulators, this process and a
// child: within one the transactions on an attempt queue, attempts/attemptGate.ts,
// across the two they race, and the requests go to each in turn). Each guarantee is held by
// one transaction on the attempt (sittings/sweeps.ts applyDeadline, the
// override's transaction in sittings/store.ts): an extension and a submit are
// serialized, of two overrides the attempt follows the one that committed
// last, and a closing time moved into the past closes the attempt with exactly
// the answers acknowledged before it. A 503 (a lock wait that timed out on a
// loaded emulator) writes nothing and is sent again, as a client would.

let instances: ApiInstances;
/** The instance in this process: its logs, and the faults a test makes in it. */
let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;

before(async function () {
  this.timeout(60_000);
  instances = await startApiInstances({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  server = instances.first;
  tenant = await createTenant();
});
after(() => instances.close());
afterEach(function () {
  // What the service logged as unexpected, printed when a test failed.
  if (this.currentTest?.state === 'failed') {
    for (const entry of server.logs
      .filter((e) => e.message === 'Unhandled error' || e.message === 'Backend unavailable')
      .slice(0, 20))
      console.log(JSON.stringify(entry.data).slice(0, 2000));
  }
  server.logs.length = 0;
});

const retries = { count: 0 };
const call = (
  method: string,
  path: string,
  token: string,
  body?: unknown,
  baseUrl = instances.nextBaseUrl(),
): Promise<ApiResponse> =>
  untilAnswered(() => api(method, path, { token, body, ip: freshIp(), baseUrl } satisfies RequestOptions), retries);
const later = <T>(ms: number, send: () => Promise<T>): Promise<T> =>
  new Promise((resolve, reject) => setTimeout(() => send().then(resolve, reject), ms));
const jitter = (ms: number) => Math.floor(Math.random() * ms);

async function startFor(student: TestUser, testId: string): Promise<any> {
  const res = await call('POST', '/api/attempts', student.token, { test_id: testId });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

/** The attempt as stored, with the commit of its submission (one, or the test fails). */
async function submittedState(studentId: string, attemptId: string) {
  const snap = await attemptDoc(tenant.clientId, attemptId).get();
  const commits = await submissionCommits(studentId, attemptId);
  assert.equal(commits.length, 1, `attempt ${attemptId} is scored once (one attempt_submitted record)`);
  return { stored: snap.data()!, updated: snap.updateTime!, submittedAt: commits[0].createTime! };
}

const extendedRecords = async (studentId: string, attemptId: string) =>
  (
    await adminDb
      .collection('audit_logs')
      .where('user_id', '==', studentId)
      .where('event_type', '==', 'attempt_extended')
      .get()
  ).docs.filter((d) => d.get('details.attempt_id') === attemptId);

after(() => {
  if (retries.count > 0) console.log(`      (${retries.count} requests answered 503 by a lock wait and sent again)`);
});

describe('POST /api/attempts/{attemptId}/extend racing the submit', function () {
  this.timeout(240_000);

  it('lands before the submit (200, and the submitted attempt keeps it) or after it (409, and the attempt is untouched); either way the attempt is scored once and written last by its submit', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
    const students = await Promise.all(Array.from({ length: 10 }, () => createUser('student', tenant.clientId)));
    const started = await Promise.all(students.map((s) => startFor(s, test.id)));
    // Each pair at once, one or the other sent a few milliseconds first, so both orders occur.
    const raced = await Promise.all(
      students.map((student, i) => {
        const path = `/api/attempts/${started[i].attempt_id}`;
        const [extendDelay, submitDelay] = i % 2 === 0 ? [0, jitter(30)] : [jitter(30), 0];
        return Promise.all([
          later(extendDelay, () => call('POST', `${path}/extend`, tenant.admin.token, { minutes: 7 })),
          later(submitDelay, () => call('POST', `${path}/submit`, student.token)),
        ]);
      }),
    );
    let extendedFirst = 0;
    for (const [i, [extended, submitted]] of raced.entries()) {
      const attemptId = started[i].attempt_id;
      assert.equal(submitted.status, 200, submitted.text);
      assert.ok(extended.status === 200 || extended.status === 409, extended.text);
      const { stored, updated, submittedAt } = await submittedState(students[i].uid, attemptId);
      assert.equal(stored.status, 'submitted');
      assert.equal(stored.submitted_by, 'taker');
      // Nothing wrote the attempt after its submission.
      assert.ok(
        updated.isEqual(submittedAt),
        `attempt ${i} was written at ${updated.toDate().toISOString()}, after its submission (${submittedAt.toDate().toISOString()})`,
      );
      if (extended.status === 200) {
        extendedFirst += 1;
        assert.deepEqual(Object.values(stored.extensions), [7]);
        assert.equal(stored.expires_at, plusMinutes(started[i].expires_at, 7));
        assert.equal(extended.body.expires_at, stored.expires_at);
      } else {
        assert.deepEqual(stored.extensions ?? {}, {});
        assert.equal(stored.expires_at, started[i].expires_at);
      }
      assert.equal((await extendedRecords(students[i].uid, attemptId)).length, extended.status === 200 ? 1 : 0);
    }
    assert.equal(
      (await sumsOf({ clientId: tenant.clientId, testId: test.id, version: test.version })).n,
      students.length,
      'the analytics count each submit once',
    );
    console.log(`      (${extendedFirst} of ${students.length} extensions landed before their submit)`);
  });
});

describe('POST /api/tests/{testId}/extend racing submits', function () {
  this.timeout(240_000);

  it('answers in extended the attempts that received the minutes; those still in progress all did, once; each submitted one was written last by its submit', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
    const students = await Promise.all(Array.from({ length: 18 }, () => createUser('student', tenant.clientId)));
    const started = await Promise.all(students.map((s) => startFor(s, test.id)));
    const submit = (i: number) => call('POST', `/api/attempts/${started[i].attempt_id}/submit`, students[i].token);
    // Submits at the press (0-3), while the sweep holds the attempts its query found in progress (4-7),
    // and as its transactions run (8-11); 12-17 stay in progress.
    const hold = holdFirstQuery(new RegExp(`^clients/${tenant.clientId}/attempts$`), 1_500);
    let press: ApiResponse;
    let submits: ApiResponse[];
    try {
      // In this process, where its query is held.
      const pressing = call('POST', `/api/tests/${test.id}/extend`, tenant.admin.token, { minutes: 9 }, server.baseUrl);
      const atPress = [0, 1, 2, 3].map((i) => later(jitter(30), () => submit(i)));
      await hold.reached;
      const whileHeld = [4, 5, 6, 7].map((i) => submit(i));
      const asRun = [8, 9, 10, 11].map((i) => later(1_500 + jitter(150), () => submit(i)));
      [press, ...submits] = await Promise.all([pressing, ...atPress, ...whileHeld, ...asRun]);
    } finally {
      hold.heal();
    }
    assert.equal(press.status, 200, press.text);
    const sweeps = await adminDb.collection('deadline_sweeps').where('test_id', '==', test.id).get();
    assert.equal(sweeps.size, 1);
    const sweepId = sweeps.docs[0].id;
    assert.equal(sweeps.docs[0].get('pending'), false);

    let received = 0;
    let submittedAfter = 0;
    for (const [i, student] of students.entries()) {
      const attemptId = started[i].attempt_id;
      const stored = (await attemptDoc(tenant.clientId, attemptId).get()).data()!;
      const has = stored.extensions?.[sweepId] !== undefined;
      if (has) received += 1;
      assert.equal(Object.keys(stored.extensions ?? {}).length, has ? 1 : 0);
      assert.equal(stored.expires_at, plusMinutes(started[i].expires_at, has ? 9 : 0));
      assert.equal((await extendedRecords(student.uid, attemptId)).length, has ? 1 : 0);
      if (i < submits.length) {
        assert.equal(submits[i].status, 200, submits[i].text);
        const { updated, submittedAt } = await submittedState(student.uid, attemptId);
        assert.equal(stored.status, 'submitted');
        assert.ok(
          updated.isEqual(submittedAt),
          `attempt ${i} was written at ${updated.toDate().toISOString()}, after its submission (${submittedAt.toDate().toISOString()})`,
        );
        if (has) submittedAfter += 1;
      } else {
        assert.equal(stored.status, 'in_progress');
        assert.ok(has, `attempt ${i}, still in progress, received the extension`);
        assert.equal(
          (await slotDoc(tenant.clientId, test.id, student.uid).get()).get('in_progress.expires_at'),
          stored.expires_at,
        );
      }
    }
    assert.equal(press.body.extended, received);
    assert.equal(sweeps.docs[0].get('changed'), received);
    assert.equal(
      (await sumsOf({ clientId: tenant.clientId, testId: test.id, version: test.version })).n,
      submits.length,
      'the analytics count each submit once',
    );
    console.log(
      `      (${submittedAfter} of ${submits.length} submitted attempts received the extension before their submit)`,
    );
  });
});

describe('PUT /api/tests/{testId}/overrides/{studentId} racing itself', function () {
  this.timeout(240_000);

  it('leaves the attempt in progress on the deadline of the override that committed last, and counts one override', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 1 });
    for (let round = 0; round < 3; round++) {
      const student = await createUser('student', tenant.clientId);
      const started = await startFor(student, test.id);
      const timers = Array.from({ length: 12 }, (_, i) => 60 + 5 * i);
      const results = await Promise.all(
        timers.map((timer) =>
          later(jitter(20), () =>
            call('PUT', `/api/tests/${test.id}/overrides/${student.uid}`, tenant.admin.token, { timer }),
          ),
        ),
      );
      results.forEach((res, i) => {
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.timer, timers[i]);
      });
      const override = (await testDoc(tenant.clientId, test.id).collection('overrides').doc(student.uid).get()).data()!;
      const stored = (await attemptDoc(tenant.clientId, started.attempt_id).get()).data()!;
      assert.equal(stored.status, 'in_progress');
      assert.equal(
        stored.expires_at,
        plusMinutes(started.started_at, override.timer),
        `round ${round}: the override says ${override.timer} minutes`,
      );
      assert.equal(
        (await slotDoc(tenant.clientId, test.id, student.uid).get()).get('in_progress.expires_at'),
        stored.expires_at,
      );
      const count = await testDoc(tenant.clientId, test.id).collection('sitting_counts').doc('overrides').get();
      assert.equal(count.get('count'), round + 1, 'one override per student');
    }
  });
});

describe('PATCH /api/tests/{testId} moving closes_at into the past while saves are in flight', function () {
  this.timeout(240_000);

  it('submits the attempt; each save answered 200 is stored and scored as answered, each other save is 409', async () => {
    const questions = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        writeQuestion(tenant.clientId, { question_text: `Q${i}`, options: ['A', 'B'], correct_answer: 'A', marks: 1 }),
      ),
    );
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { questions });
    let refused = 0;
    for (let round = 0; round < 2; round++) {
      const student = await createUser('student', tenant.clientId);
      const started = await startFor(student, test.id);
      const ids: string[] = started.test_details.questions.map((q: { id: string }) => q.id);
      const saves = ids.map((id, i) =>
        later(i * 60 + jitter(60), () =>
          call('POST', `/api/attempts/${started.attempt_id}/answers`, student.token, {
            question_id: id,
            student_answer: 'A',
          }),
        ),
      );
      const closesAt = new Date(Date.now() - 60_000).toISOString();
      const moved = await later(1_400, () =>
        api('PATCH', `/api/tests/${test.id}`, {
          token: tenant.admin.token,
          body: { closes_at: closesAt },
          ip: freshIp(),
          baseUrl: server.baseUrl,
        }),
      );
      const saved = await Promise.all(saves);
      assert.equal(moved.status, 200, moved.text);
      for (const res of saved) assert.ok(res.status === 200 || res.status === 409, res.text);
      const accepted = ids.filter((_, i) => saved[i].status === 200).sort();
      refused += ids.length - accepted.length;
      const stored = (await attemptDoc(tenant.clientId, started.attempt_id).get()).data()!;
      assert.equal(stored.status, 'submitted');
      assert.equal(stored.submitted_by, 'deadline');
      assert.deepEqual(
        Object.keys(stored.answers).sort(),
        accepted,
        `round ${round}: the answers stored are the saves answered 200`,
      );
      const answered = (stored.results as Array<{ question_id: string; answered: boolean }>)
        .filter((r) => r.answered)
        .map((r) => r.question_id)
        .sort();
      assert.deepEqual(answered, accepted, `round ${round}: the results count every save answered 200`);
      assert.equal(stored.score, accepted.length);
      // Open again for the next round.
      assert.equal((await call('PATCH', `/api/tests/${test.id}`, tenant.admin.token, { closes_at: null })).status, 200);
    }
    console.log(`      (${refused} of 100 saves arrived after the close and were refused with 409)`);
  });
});
