import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { attemptDoc, publishTest } from '../attempts/fixtures';
import { FIRESTORE_HOST } from '../support/env';
import { auditRecordsFor, auditRecordsWritten, createTenant, createUser } from '../support/fixtures';
import { freshIp, get, post, type ApiResponse, type RequestOptions } from '../support/http';
import { decodePayload } from '../support/tokens';

// A real stall: the Firestore emulator of this run is stopped (SIGSTOP) for 20 s
// while a taker saves and submits through the emulated function, then let go
// (SIGCONT). Each request is answered the JSON 503 with Retry-After within 10 s,
// and what it would have written is not there after the emulator resumes; a new
// sign-in's login record, which no reply waits for, is.
// Kept to this one file: nothing else of the run talks to Firestore meanwhile.

const STOPPED_MS = 20_000;

/** The pid of the process listening on the Firestore emulator's port (this run's, among others on other ports). */
function firestoreEmulatorPid(): number {
  const port = FIRESTORE_HOST.split(':').pop();
  const listing = execFileSync('ss', ['-H', '-ltnp', `sport = :${port}`], { encoding: 'utf8' });
  const pid = /pid=(\d+)/.exec(listing)?.[1];
  if (!pid) throw new Error(`No process found listening on ${FIRESTORE_HOST}: ${listing}`);
  return Number(pid);
}

async function timed(request: Promise<ApiResponse>): Promise<{ res: ApiResponse; ms: number }> {
  const started = performance.now();
  const res = await request;
  return { res, ms: performance.now() - started };
}

function assertDeadlineAnswer({ res, ms }: { res: ApiResponse; ms: number }): void {
  assert.equal(res.status, 503, res.text);
  assert.ok(ms < 10_000, `answered after ${Math.round(ms)} ms`);
  assert.equal(res.body.error, 'SERVICE_UNAVAILABLE');
  assert.equal(res.headers.get('retry-after'), '5');
}

/** Stops the Firestore emulator while `work` runs and for `ms` in all (from the stop), then lets it go. */
async function whileStopped<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const pid = firestoreEmulatorPid();
  const stoppedAt = performance.now();
  process.kill(pid, 'SIGSTOP');
  try {
    const result = await work();
    const rest = ms - (performance.now() - stoppedAt);
    if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    return result;
  } finally {
    process.kill(pid, 'SIGCONT');
  }
}

describe('the service while the Firestore emulator is stopped for 20 s', function () {
  this.timeout(120_000);
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let student: Awaited<ReturnType<typeof createUser>>;
  let attemptId: string;
  let questionIds: string[];
  const as = (): RequestOptions => ({ token: student.token, ip: freshIp() });

  before(async () => {
    tenant = await createTenant();
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
    student = await createUser('student', tenant.clientId);
    const started = await post('/api/attempts', { test_id: test.id }, as());
    assert.equal(started.status, 201, started.text);
    attemptId = started.body.attempt_id;
    questionIds = started.body.test_details.questions.map((q: { id: string }) => q.id);
    // Two workers of the emulated function warm, so the two requests below meet no cold start.
    for (let i = 0; i < 2; i++)
      await Promise.all([get(`/api/attempts/${attemptId}`, as()), get(`/api/attempts/${attemptId}`, as())]);
  });

  it('answers a save and a submit the JSON 503 with Retry-After within 10 s; after the emulator resumes neither is written, and both go through when sent again', async () => {
    const save = { question_id: questionIds[0], student_answer: 'during the stall', client_seq: 1 };
    const answers = await whileStopped(STOPPED_MS, () =>
      Promise.all([
        timed(post(`/api/attempts/${attemptId}/answers`, save, as())),
        timed(post(`/api/attempts/${attemptId}/submit`, undefined, as())),
      ]),
    );
    for (const answer of answers) assertDeadlineAnswer(answer);
    console.log(
      `      (save ${answers[0].res.status} in ${Math.round(answers[0].ms)} ms, submit ${answers[1].res.status} in ${Math.round(answers[1].ms)} ms)`,
    );
    // The stalled requests' reads return now, and their commits are refused: let them run out.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const stored = (await attemptDoc(tenant.clientId, attemptId).get()).data()!;
    assert.equal(stored.answers[questionIds[0]], undefined, 'the save answered 503 is not stored');
    assert.equal(stored.status, 'in_progress', 'the submit answered 503 did not submit');

    // The service works again: the same save (same client_seq), then the submit.
    const saved = await post(`/api/attempts/${attemptId}/answers`, save, as());
    assert.equal(saved.status, 200, saved.text);
    const submitted = await post(`/api/attempts/${attemptId}/submit`, undefined, as());
    assert.equal(submitted.status, 200, submitted.text);
    const after = (await attemptDoc(tenant.clientId, attemptId).get()).data()!;
    assert.equal(after.answers[questionIds[0]].answer, 'during the stall');
    assert.equal(after.status, 'submitted');
  });

  it('answers a new sign-in’s first request the JSON 503 with Retry-After within 10 s; after the emulator resumes its login record is there, once', async () => {
    // Signed in, and never used before the stop: its first request is the one that records the login.
    const newcomer = await createUser('student', tenant.clientId);
    const answer = await whileStopped(12_000, () => timed(get('/api/me', { token: newcomer.token, ip: freshIp() })));
    assertDeadlineAnswer(answer);
    console.log(`      (a new sign-in's GET /api/me ${answer.res.status} in ${Math.round(answer.ms)} ms)`);
    const loginId = `login_${newcomer.uid}_${decodePayload(newcomer.token).auth_time}`;
    assert.deepEqual(
      (await auditRecordsWritten(newcomer.uid, 'login', 1)).map((r) => r.id),
      [loginId],
      'the login record, written when Firestore answered',
    );
    const again = await get('/api/me', { token: newcomer.token, ip: freshIp() });
    assert.equal(again.status, 200, again.text);
    assert.equal((await auditRecordsFor(newcomer.uid, 'login')).length, 1, 'the login is recorded once');
  });
});
