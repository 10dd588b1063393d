import assert from 'node:assert/strict';
import { adminDb } from '../support/admin';
import { createTenant, createUser } from '../support/fixtures';
import { failWrites, transactionLost } from '../support/faults';
import { freshIp, post, type RequestOptions } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { attemptDoc, publishTest } from './fixtures';

// A taker's own saves in flight while it submits: the emulator's transactions
// lose to one another's locks, and the submit (or a save) that lost is run again
// within the request's budget rather than answered 503 (firestore/contention.ts;
// without it, the race below answers 503 in every round). The real app served
// in-process: its transactions on one attempt queue (attempts/attemptGate.ts),
// so the loss is made to happen (across instances it happens by itself).

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;

const at = (token: string): RequestOptions => ({ token, ip: freshIp(), baseUrl: server.baseUrl });
const ROUNDS = 8;
const SAVES = 12;

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
});
after(() => server.close());

describe('POST /api/attempts/{attemptId}/submit racing the taker’s own saves', function () {
  this.timeout(600_000);

  it(`answers 200 to the submit in each of ${ROUNDS} races with ${SAVES} saves in flight; each save is 200 and scored, or 409 and not stored`, async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: SAVES });
    const seen: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const student = await createUser('student', tenant.clientId);
      const started = (await post('/api/attempts', { test_id: test.id }, at(student.token))).body;
      const ids: string[] = started.test_details.questions.map((q: { id: string }) => q.id);
      // The submit's first commit loses to the saves, as the emulator's lock waits make it lose when they pile up:
      // in every round, not only when timing allows. Its next run meets the saves for real.
      const heal = failWrites(new RegExp(`attempt_slots/${student.uid}$`), { times: 1, error: transactionLost });
      const saves = ids.map((id) =>
        post(
          `/api/attempts/${started.attempt_id}/answers`,
          { question_id: id, student_answer: 'x' },
          at(student.token),
        ),
      );
      const submit = post(`/api/attempts/${started.attempt_id}/submit`, undefined, at(student.token));
      const [saved, submitted] = await Promise.all([Promise.all(saves), submit]).finally(heal);
      seen.push(`round ${round}: submit ${submitted.status}, saves ${saved.map((r) => r.status).join(',')}`);
      assert.equal(submitted.status, 200, `${seen.join('\n')}\n${submitted.text}`);
      for (const r of saved) assert.ok(r.status === 200 || r.status === 409, `${seen.join('\n')}\n${r.text}`);
      // What was stored is what was answered 200: each save is in the submitted attempt, or refused and not stored.
      const accepted = ids.filter((_, i) => saved[i].status === 200);
      const stored = (await attemptDoc(tenant.clientId, started.attempt_id).get()).data()!;
      assert.equal(stored.status, 'submitted');
      assert.deepEqual(Object.keys(stored.answers).sort(), [...accepted].sort(), seen.join('\n'));
      const audits = await adminDb
        .collection('audit_logs')
        .where('user_id', '==', student.uid)
        .where('event_type', '==', 'attempt_submitted')
        .get();
      assert.equal(audits.size, 1);
    }
    console.log(`      (${seen.join('; ')})`);
  });

  it('answers 200 to every one of 24 saves of one attempt in flight at once, each stored', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 24 });
    for (let round = 0; round < 3; round++) {
      const student = await createUser('student', tenant.clientId);
      const started = (await post('/api/attempts', { test_id: test.id }, at(student.token))).body;
      const ids: string[] = started.test_details.questions.map((q: { id: string }) => q.id);
      const saved = await Promise.all(
        ids.map((id, i) =>
          post(
            `/api/attempts/${started.attempt_id}/answers`,
            { question_id: id, student_answer: `a${i}` },
            at(student.token),
          ),
        ),
      );
      assert.deepEqual(
        saved.map((r) => r.status),
        ids.map(() => 200),
        `round ${round}: ${saved
          .filter((r) => r.status !== 200)
          .map((r) => r.text)
          .join('\n')}`,
      );
      const stored = (await attemptDoc(tenant.clientId, started.attempt_id).get()).get('answers');
      assert.equal(Object.keys(stored).length, ids.length);
    }
  });

  it('answers 503 with Retry-After, and writes nothing, when the submit still loses once its budget (20 s) is spent', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
    const student = await createUser('student', tenant.clientId);
    const started = (await post('/api/attempts', { test_id: test.id }, at(student.token))).body;
    const heal = failWrites(new RegExp(`attempt_slots/${student.uid}$`), { error: transactionLost });
    const t0 = Date.now();
    const submitted = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, at(student.token)).finally(
      heal,
    );
    assert.equal(submitted.status, 503, submitted.text);
    assert.equal(submitted.headers.get('retry-after'), '5');
    assert.ok(Date.now() - t0 < 30_000, `answered after ${Date.now() - t0} ms`);
    const stored = (await attemptDoc(tenant.clientId, started.attempt_id).get()).data()!;
    assert.equal(stored.status, 'in_progress');
    const audits = await adminDb
      .collection('audit_logs')
      .where('user_id', '==', student.uid)
      .where('event_type', '==', 'attempt_submitted')
      .get();
    assert.equal(audits.size, 0);
    // Nothing was decided: the submit sent again scores it.
    assert.equal((await post(`/api/attempts/${started.attempt_id}/submit`, undefined, at(student.token))).status, 200);
  });
});
