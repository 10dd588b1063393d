import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import type { LogEntry } from '../../functions/src/platform/log';
import { attemptDoc, publishTest } from '../attempts/fixtures';
import { adminDb } from '../support/admin';
import { auditRecordsFor, auditRecordsWritten, createTenant, createUser, whenWritten } from '../support/fixtures';
import { stallAuth, stallFirestore } from '../support/faults';
import { freshIp, get, post, type ApiResponse, type RequestOptions } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { decodePayload, expired } from '../support/tokens';

// A Firestore or Auth call that does not answer (held below the SDK, as a
// stalled backend holds it): the request is answered the documented 503 with
// Retry-After within 10 s, and once the call answers after all, the request
// writes nothing. The real app served in-process, so the stall can be injected.

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;
let test: { id: string };

const at = (token: string): RequestOptions => ({ token, ip: freshIp(), baseUrl: server.baseUrl });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function timed<T>(request: Promise<T>): Promise<{ res: T; ms: number }> {
  const started = performance.now();
  const res = await request;
  return { res, ms: performance.now() - started };
}

function assertDeadlineAnswer({ res, ms }: { res: ApiResponse; ms: number }): void {
  assert.equal(res.status, 503, res.text);
  assert.ok(ms < 10_000, `answered after ${Math.round(ms)} ms`);
  assert.equal(res.body.error, 'SERVICE_UNAVAILABLE');
  assert.equal(res.body.status, 503);
  assert.equal(res.headers.get('retry-after'), '5');
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
}

/** Waits until the service has logged `message` (the handler's late end, after the stall). */
async function logged(message: string, since: number): Promise<LogEntry> {
  for (let i = 0; i < 100; i++) {
    const entry = server.logs.slice(since).find((e) => e.message === message);
    if (entry) return entry;
    await sleep(100);
  }
  throw new Error(`"${message}" was never logged: ${JSON.stringify(server.logs.slice(since))}`);
}

const serverErrors = (since: number) =>
  server.logs.slice(since).filter((e) => e.message === 'Unhandled error' || e.message.includes('does not match'));

async function startedAttempt() {
  const student = await createUser('student', tenant.clientId);
  const started = await post('/api/attempts', { test_id: test.id }, at(student.token));
  assert.equal(started.status, 201, started.text);
  return {
    student,
    attemptId: started.body.attempt_id as string,
    questionIds: started.body.test_details.questions.map((q: { id: string }) => q.id) as string[],
  };
}

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
  ({ test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 }));
});
after(() => server.close());

describe('a request whose Firestore or Auth call stalls', function () {
  this.timeout(60_000);

  it('answers a save whose read of the attempt stalls 503 with Retry-After within 10 s; when the read returns, the save is not written; the same save sent again is', async () => {
    const { student, attemptId, questionIds } = await startedAttempt();
    const since = server.logs.length;
    const stall = stallFirestore(new RegExp(`attempts/${attemptId}$`));
    const save = { question_id: questionIds[0], student_answer: 'late', client_seq: 1 };
    try {
      assertDeadlineAnswer(await timed(post(`/api/attempts/${attemptId}/answers`, save, at(student.token))));
      assert.ok(stall.held() > 0, 'the read was held');
    } finally {
      stall.heal();
    }
    // The held read goes out now and returns: the transaction's commit is refused before it is sent.
    await logged('A write of a request answered at its deadline was refused, unsent', since);
    const stored = (await attemptDoc(tenant.clientId, attemptId).get()).data()!;
    assert.equal(stored.answers[questionIds[0]], undefined, 'nothing written after the 503');
    assert.deepEqual(serverErrors(since), [], 'the handler’s late end is no server error');
    const again = await post(`/api/attempts/${attemptId}/answers`, save, at(student.token));
    assert.equal(again.status, 200, again.text);
    const after = (await attemptDoc(tenant.clientId, attemptId).get()).data()!;
    assert.equal(after.answers[questionIds[0]].answer, 'late');
  });

  it('answers a submit whose read stalls 503 within 10 s and leaves the attempt in progress; submitted when sent again', async () => {
    const { student, attemptId } = await startedAttempt();
    const since = server.logs.length;
    const stall = stallFirestore(new RegExp(`attempts/${attemptId}$`));
    try {
      assertDeadlineAnswer(await timed(post(`/api/attempts/${attemptId}/submit`, undefined, at(student.token))));
    } finally {
      stall.heal();
    }
    await logged('A write of a request answered at its deadline was refused, unsent', since);
    assert.equal((await attemptDoc(tenant.clientId, attemptId).get()).data()!.status, 'in_progress');
    assert.deepEqual(serverErrors(since), []);
    const again = await post(`/api/attempts/${attemptId}/submit`, undefined, at(student.token));
    assert.equal(again.status, 200, again.text);
    assert.equal((await attemptDoc(tenant.clientId, attemptId).get()).data()!.status, 'submitted');
  });

  it('answers a read whose Firestore call stalls 503 within 10 s, and sends nothing more nor logs a server error when it returns', async () => {
    const { student, attemptId } = await startedAttempt();
    const since = server.logs.length;
    const stall = stallFirestore(new RegExp(`attempts/${attemptId}$`));
    try {
      assertDeadlineAnswer(await timed(get(`/api/attempts/${attemptId}`, at(student.token))));
    } finally {
      stall.heal();
    }
    await sleep(1_000);
    assert.deepEqual(serverErrors(since), []);
    assert.ok(
      server.logs.slice(since).some((e) => e.message === 'A backend call stalled: answered 503 at the deadline'),
    );
  });

  it('waits for a commit in flight rather than guess its outcome: the save held 10 s in its commit is answered 200 and stored', async () => {
    const { student, attemptId, questionIds } = await startedAttempt();
    const stall = stallFirestore(new RegExp(`attempts/${attemptId}$`), ['commit']);
    const release = setTimeout(() => stall.heal(), 10_000);
    try {
      const { res, ms } = await timed(
        post(
          `/api/attempts/${attemptId}/answers`,
          { question_id: questionIds[1], student_answer: 'held' },
          at(student.token),
        ),
      );
      assert.equal(res.status, 200, res.text);
      assert.ok(ms >= 9_500, `answered after ${Math.round(ms)} ms, before its commit was let through`);
    } finally {
      clearTimeout(release);
      stall.heal();
    }
    const stored = (await attemptDoc(tenant.clientId, attemptId).get()).data()!;
    assert.equal(stored.answers[questionIds[1]].answer, 'held');
  });

  it('answers a write whose revocation check with Auth stalls 503 within 10 s; the attempt is not started when Auth answers', async () => {
    const student = await createUser('student', tenant.clientId);
    const since = server.logs.length;
    const stall = stallAuth();
    try {
      assertDeadlineAnswer(await timed(post('/api/attempts', { test_id: test.id }, at(student.token))));
      assert.ok(stall.held() > 0, 'an Auth call was held');
    } finally {
      stall.heal();
    }
    await sleep(2_000);
    assert.deepEqual(serverErrors(since), []);
    const attempts = await attemptDoc(tenant.clientId, 'x').parent.where('student_id', '==', student.uid).get();
    assert.equal(attempts.size, 0, 'no attempt started after the 503');
  });
});

/** Lets a stall go after `ms` whatever the test does: a request the service would never answer still ends, late. */
function healAfter(stall: { heal: () => void }, ms: number): () => void {
  const timer = setTimeout(() => stall.heal(), ms);
  return () => {
    clearTimeout(timer);
    stall.heal();
  };
}

const loginId = (user: { uid: string; token: string }) => `login_${user.uid}_${decodePayload(user.token).auth_time}`;

/** Once Firestore answers again: the sign-in's one login record, under its deterministic id. */
async function assertLoginWrittenOnce(user: { uid: string; token: string }): Promise<void> {
  const logins = await auditRecordsWritten(user.uid, 'login', 1);
  assert.deepEqual(
    logins.map((r) => r.id),
    [loginId(user)],
  );
}

describe('bookkeeping records and Auth calls on the deadline', function () {
  this.timeout(60_000);

  it('answers a new sign-in’s first request 200 at once while its login record’s commit stalls, and writes the record once when Firestore answers', async () => {
    const student = await createUser('student', tenant.clientId);
    const stall = stallFirestore(/^audit_logs\//, ['commit']);
    const heal = healAfter(stall, 12_000);
    try {
      const first = await timed(get('/api/me', at(student.token)));
      assert.equal(first.res.status, 200, first.res.text);
      assert.ok(first.ms < 2_000, `answered after ${Math.round(first.ms)} ms: the login record held the reply`);
      // Another request of the same sign-in while the first record is still held writes no second one.
      assert.equal((await get('/api/me', at(student.token))).status, 200);
      assert.equal(stall.held(), 1, 'one login commit in flight for the sign-in');
    } finally {
      heal();
    }
    await assertLoginWrittenOnce(student);
    assert.equal((await get('/api/me', at(student.token))).status, 200);
    await sleep(500);
    assert.equal((await auditRecordsFor(student.uid, 'login')).length, 1, 'recorded once');
  });

  it('answers a refused token 401 at once while the token_rejected commit stalls; the record is written when Firestore answers', async () => {
    const ip = freshIp();
    const stall = stallFirestore(/^audit_logs\//, ['commit']);
    const heal = healAfter(stall, 12_000);
    try {
      const refused = await timed(
        get('/api/me', { ip, token: expired(tenant.student.token), baseUrl: server.baseUrl }),
      );
      assert.equal(refused.res.status, 401, refused.res.text);
      assert.equal(refused.res.body.error, 'UNAUTHORIZED');
      assert.ok(refused.ms < 2_000, `answered after ${Math.round(refused.ms)} ms: the record held the reply`);
    } finally {
      heal();
    }
    const fromIp = async () => (await adminDb.collection('audit_logs').where('ip_address', '==', ip).get()).docs;
    assert.deepEqual(
      (await whenWritten(1, fromIp)).map((d) => [d.data().event_type, d.data().reason]),
      [['token_rejected', 'expired']],
    );
  });

  it('answers a new sign-in’s first request 503 with Retry-After within 10 s while every Firestore call stalls; the login record is written once when Firestore answers', async () => {
    const student = await createUser('student', tenant.clientId);
    const since = server.logs.length;
    const stall = stallFirestore(/./);
    const heal = healAfter(stall, 15_000);
    try {
      assertDeadlineAnswer(await timed(get('/api/me', at(student.token))));
    } finally {
      heal();
    }
    await assertLoginWrittenOnce(student);
    assert.deepEqual(serverErrors(since), []);
  });

  it('answers an invitation whose account lookup stalls in Auth 503 with Retry-After within 10 s', async () => {
    const student = await createUser('student', tenant.clientId);
    const since = server.logs.length;
    // The link is ours (a digest in Firestore); the account it is for is read from Auth first.
    const stall = stallAuth(/accounts:lookup/);
    const heal = healAfter(stall, 15_000);
    try {
      assertDeadlineAnswer(
        await timed(post(`/api/users/${student.uid}/invitation`, undefined, at(tenant.admin.token))),
      );
      assert.ok(stall.held() >= 1, 'the account’s lookup was held');
    } finally {
      heal();
    }
    await sleep(1_000);
    assert.deepEqual(serverErrors(since), []);
  });
});
