import assert from 'node:assert/strict';
import { adminDb } from '../support/admin';
import { createTenant, createUser, signInAnonymously } from '../support/fixtures';
import { freshIp, post, type RequestOptions } from '../support/http';
import { startApiInstances, type ApiInstances } from '../support/apiInstances';
import { writeQuestion } from '../exams/fixtures';
import { attemptDoc, publishTest, seatsUsed, slotDoc, writeShareCode } from './fixtures';

// Requests that truly overlap: the real app served by two instances, this
// process and a child (the Functions emulator runs one request at a time per
// worker, so nothing would race there), each request to the next instance in
// turn. Within an instance the transactions on one attempt queue
// (attempts/attemptGate.ts); across the two only the transaction holds.
// Each guarantee here is guarded by one transaction in attempts/ (starting.ts, answering.ts, closing.ts); with
// that transaction replaced by plain reads and a batch, each test fails. Two
// overlapping batches answering one question are guarded by client_seq too
// (answerMerge.ts isStale): without it, the older one landing last overwrites.

let instances: ApiInstances;
let tenant: Awaited<ReturnType<typeof createTenant>>;

const at = (token: string): RequestOptions => ({ token, ip: freshIp(), baseUrl: instances.nextBaseUrl() });
const statuses = (results: Array<{ status: number }>) => results.map((r) => r.status).sort((a, b) => a - b);
const count = (list: number[], status: number) => list.filter((s) => s === status).length;

before(async function () {
  this.timeout(60_000);
  instances = await startApiInstances({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
});
after(() => instances.close());

describe('attempts under truly concurrent requests', function () {
  this.timeout(180_000);

  it('scores once when 20 submits of one attempt arrive at once: one 200, nineteen 409, one audit record', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
    const student = await createUser('student', tenant.clientId);
    const started = (await post('/api/attempts', { test_id: test.id }, at(student.token))).body;
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        post(`/api/attempts/${started.attempt_id}/submit`, undefined, at(student.token)),
      ),
    );
    const list = statuses(results);
    assert.equal(count(list, 200), 1, JSON.stringify(list));
    assert.equal(count(list, 409), 19, JSON.stringify(list));
    const audits = await adminDb
      .collection('audit_logs')
      .where('user_id', '==', student.uid)
      .where('event_type', '==', 'attempt_submitted')
      .get();
    assert.equal(audits.size, 1);
  });

  it('keeps every answer when 16 answers to different questions are saved at once', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 16 });
    const student = await createUser('student', tenant.clientId);
    const started = (await post('/api/attempts', { test_id: test.id }, at(student.token))).body;
    const questions: Array<{ id: string }> = started.test_details.questions;
    const results = await Promise.all(
      questions.map((q, i) =>
        post(
          `/api/attempts/${started.attempt_id}/answers`,
          { question_id: q.id, student_answer: `answer ${i}` },
          at(student.token),
        ),
      ),
    );
    assert.deepEqual(
      statuses(results),
      questions.map(() => 200),
      results.map((r) => r.text).join('\n'),
    );
    const stored = (await attemptDoc(tenant.clientId, started.attempt_id).get()).get('answers');
    assert.equal(Object.keys(stored).length, 16);
    questions.forEach((q, i) => assert.equal(stored[q.id].answer, `answer ${i}`));
  });

  it('lets the higher client_seq win when two batches answering the same question overlap, whichever lands last', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 3 });
    const student = await createUser('student', tenant.clientId);
    const started = (await post('/api/attempts', { test_id: test.id }, at(student.token))).body;
    const [contested, lowOnly, highOnly]: string[] = started.test_details.questions.map((q: { id: string }) => q.id);
    const path = `/api/attempts/${started.attempt_id}/answers`;
    const batch = (seq: number, other: string) => ({
      answers: [
        { question_id: other, student_answer: `other ${seq}`, client_seq: seq },
        { question_id: contested, student_answer: `seq ${seq}`, client_seq: seq },
      ],
    });
    const ROUNDS = 12;
    let lowStale = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const low = 2 * round + 1;
      const high = low + 1;
      // Both in flight together; the older one is sent last in every other round (as a late replay would be), after 0 to 4 ms.
      const send = (seq: number, other: string) => post(path, batch(seq, other), at(student.token));
      const highFirst = round % 2 === 0;
      const first = highFirst ? send(high, highOnly) : send(low, lowOnly);
      await new Promise((resolve) => setTimeout(resolve, round % 5));
      const second = highFirst ? send(low, lowOnly) : send(high, highOnly);
      const [a, b] = await Promise.all([first, second]);
      const [highRes, lowRes] = highFirst ? [a, b] : [b, a];
      assert.equal(highRes.status, 200, highRes.text);
      assert.equal(lowRes.status, 200, lowRes.text);
      const stored = (await attemptDoc(tenant.clientId, started.attempt_id).get()).get('answers');
      assert.deepEqual(
        { answer: stored[contested].answer, client_seq: stored[contested].client_seq },
        { answer: `seq ${high}`, client_seq: high },
        `round ${round}: the higher seq stays (${highFirst ? 'high' : 'low'} sent first); replies ${highRes.text} ${lowRes.text}`,
      );
      // The higher one is never stale; the lower one is stale exactly when it landed after the higher one.
      assert.deepEqual(highRes.body.stale, [], highRes.text);
      const lowWasStale = lowRes.body.stale.includes(contested);
      if (lowWasStale) lowStale += 1;
      // Each batch's other question is its own, with a seq higher every round: always saved, whatever its batch-mate was judged.
      assert.equal(stored[highOnly].answer, `other ${high}`);
      assert.equal(stored[lowOnly].answer, `other ${low}`);
    }
    // Not asserted (timing decides), but reported: how often the older batch landed last and was judged stale.
    console.log(`      (the lower seq landed after the higher one, and was stale, in ${lowStale} of ${ROUNDS} rounds)`);
  });

  it('never loses an answer racing the submit: each is either 200 and in the score, or 409 and not stored', async () => {
    const questions = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        writeQuestion(tenant.clientId, { question_text: `Q${i}`, options: ['A', 'B'], correct_answer: 'A', marks: 1 }),
      ),
    );
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { questions });
    let raced = 0;
    for (let round = 0; round < 4; round++) {
      const student = await createUser('student', tenant.clientId);
      const started = (await post('/api/attempts', { test_id: test.id }, at(student.token))).body;
      const ids: string[] = started.test_details.questions.map((q: { id: string }) => q.id);
      const saves = ids.map((id) =>
        post(
          `/api/attempts/${started.attempt_id}/answers`,
          { question_id: id, student_answer: 'A' },
          at(student.token),
        ),
      );
      const submit = post(`/api/attempts/${started.attempt_id}/submit`, undefined, at(student.token));
      const [saved, submitted] = await Promise.all([Promise.all(saves), submit]);
      assert.equal(submitted.status, 200, submitted.text);
      const accepted = ids.filter((_, i) => saved[i].status === 200);
      for (const r of saved) assert.ok(r.status === 200 || r.status === 409, r.text);
      raced += ids.length - accepted.length;
      const stored = (await attemptDoc(tenant.clientId, started.attempt_id).get()).data()!;
      // Every answer answered 200 is stored and scored (each is right: 1 mark); none answered 409 is stored.
      assert.equal(stored.score, accepted.length, `round ${round}: score ${stored.score}, accepted ${accepted.length}`);
      assert.equal(submitted.body.score, accepted.length);
      assert.deepEqual(Object.keys(stored.answers).sort(), [...accepted].sort());
    }
    // Not asserted (timing decides), but reported: how many saves lost the race to the submit.
    console.log(`      (${raced} of 24 saves arrived after the submit and were refused with 409)`);
  });

  it('never exceeds max_attempts under parallel starts: one new attempt, the rest resume it', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 1, extra: { max_attempts: 2 } });
    const student = await createUser('student', tenant.clientId);
    const first = (await post('/api/attempts', { test_id: test.id }, at(student.token))).body;
    await post(`/api/attempts/${first.attempt_id}/submit`, undefined, at(student.token));
    const results = await Promise.all(
      Array.from({ length: 10 }, () => post('/api/attempts', { test_id: test.id }, at(student.token))),
    );
    const list = statuses(results);
    assert.equal(count(list, 201), 1, JSON.stringify(results.map((r) => r.text)));
    assert.equal(count(list, 200), 9, JSON.stringify(list));
    assert.equal(new Set(results.map((r) => r.body.attempt_id)).size, 1, 'every start answers the same attempt');
    const attempts = await adminDb
      .collection('clients')
      .doc(tenant.clientId)
      .collection('attempts')
      .where('student_id', '==', student.uid)
      .get();
    assert.equal(attempts.size, 2);
    assert.equal((await slotDoc(tenant.clientId, test.id, student.uid).get()).get('count'), 2);
    await post(`/api/attempts/${results[0].body.attempt_id}/submit`, undefined, at(student.token));
    const more = await Promise.all(
      Array.from({ length: 5 }, () => post('/api/attempts', { test_id: test.id }, at(student.token))),
    );
    assert.deepEqual(statuses(more), [409, 409, 409, 409, 409]);
  });

  it('never exceeds max_uses when 40 guests redeem one code at once', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 1 });
    const code = await writeShareCode(tenant.clientId, test.id, { max_uses: 7 });
    const guests = await Promise.all(Array.from({ length: 40 }, () => signInAnonymously()));
    // As a browser would: a 503 (the emulator's lock timeouts on a loaded machine) is retried after a pause.
    const redeem = async (token: string) => {
      for (let tries = 0; ; tries += 1) {
        const res = await post('/api/attempts', { share_code: code }, at(token));
        if (res.status !== 503 || tries === 5) return res;
        await new Promise((resolve) => setTimeout(resolve, 200 + Math.random() * 800));
      }
    };
    const results = await Promise.all(guests.map((g) => redeem(g.token)));
    const list = statuses(results);
    assert.equal(count(list, 201), 7, JSON.stringify(list));
    assert.equal(count(list, 409), 33, JSON.stringify(list));
    assert.equal(await seatsUsed(code), 7);
    const attempts = await adminDb
      .collection('clients')
      .doc(tenant.clientId)
      .collection('attempts')
      .where('share_code', '==', code)
      .get();
    assert.equal(attempts.size, 7);
  });
});
