import assert from 'node:assert/strict';
import { ATTEMPT_BUDGET_BYTES, attemptBytes } from '../../functions/src/attempts/rules';
import type { StoredAttempt } from '../../functions/src/attempts/documents';
import { expectError, expectValidation, ISO_UTC } from '../support/assertions';
import { createRoleMatrix, createUser, type RoleMatrix } from '../support/fixtures';
import { freshIp, get, post, type ApiResponse, type RequestOptions } from '../support/http';
import { as } from '../exams/fixtures';
import { attemptDoc, expire, publishTest, startOk, tokenQuery } from './fixtures';

// Batched answers and client_seq over HTTP (Hosting → Functions emulator →
// Firestore emulator): a batch is validated whole and stored in one write, a
// replay whose client_seq is not above the stored one is reported stale and
// never applied, and the deadline refuses a batch whole. Overlapping batches
// are in concurrency.inProcess.test.ts.

let m: RoleMatrix;
let test: any; // published, 6 questions, in order (shuffle 0)

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
  ({ test } = await publishTest(m.tenant.admin.token, m.tenant.clientId, { count: 6, extra: { timer: 30 } }));
});

interface Started {
  id: string;
  token: string;
  path: string;
  q: string[];
  as: RequestOptions;
}

async function started(testId = test.id): Promise<Started> {
  const student = await createUser('student', m.tenant.clientId);
  const body = await startOk(student.token, { test_id: testId });
  return {
    id: body.attempt_id,
    token: body.attempt_token,
    path: `/api/attempts/${body.attempt_id}/answers`,
    q: body.test_details.questions.map((q: { id: string }) => q.id),
    as: { ...as(student.token), ip: freshIp() },
  };
}

const stored = async (a: Started): Promise<StoredAttempt> =>
  (await attemptDoc(m.tenant.clientId, a.id).get()).data() as StoredAttempt;
const answerOf = async (a: Started, q: string) => (await stored(a)).answers[q];
const ok = (res: ApiResponse) => {
  assert.equal(res.status, 200, res.text);
  return res.body;
};

describe('POST /api/attempts/{attemptId}/answers: a batch', () => {
  it('saves every answer of a batch in one request: 200 {saved: [{question_id, saved_at}] in the order sent, stale: []}', async () => {
    const a = await started();
    const order = [a.q[2], a.q[0], a.q[4]];
    const body = ok(
      await post(a.path, { answers: order.map((q, i) => ({ question_id: q, student_answer: `answer ${i}` })) }, a.as),
    );
    assert.deepEqual(Object.keys(body).sort(), ['saved', 'stale']);
    assert.deepEqual(body.stale, []);
    assert.deepEqual(
      body.saved.map((s: any) => s.question_id),
      order,
    );
    for (const s of body.saved) {
      assert.deepEqual(Object.keys(s).sort(), ['question_id', 'saved_at']);
      assert.match(s.saved_at, ISO_UTC);
    }
    const answers = (await stored(a)).answers;
    order.forEach((q, i) => assert.equal(answers[q].answer, `answer ${i}`));
    assert.equal(Object.keys(answers).length, 3);
  });

  it('keeps the answers saved before to other questions, and replaces those it answers again', async () => {
    const a = await started();
    ok(await post(a.path, { question_id: a.q[0], student_answer: 'kept' }, a.as));
    ok(await post(a.path, { question_id: a.q[1], student_answer: 'old' }, a.as));
    ok(
      await post(
        a.path,
        {
          answers: [
            { question_id: a.q[1], student_answer: 'new' },
            { question_id: a.q[2], student_answer: 'added' },
          ],
        },
        a.as,
      ),
    );
    const answers = (await stored(a)).answers;
    assert.deepEqual(Object.fromEntries(Object.entries(answers).map(([q, s]) => [q, s.answer])), {
      [a.q[0]]: 'kept',
      [a.q[1]]: 'new',
      [a.q[2]]: 'added',
    });
  });

  it('works with ?attempt_token= and with X-Attempt-Token, exactly as a single save; another attempt’s token is 403 and saves nothing', async () => {
    const [a, b] = await Promise.all([started(), started()]);
    const batch = { answers: [{ question_id: a.q[0], student_answer: 'by token', client_seq: 1 }] };
    ok(await post(`${a.path}${tokenQuery(a.token)}`, batch, { ip: freshIp() }));
    const viaHeader = ok(
      await post(
        a.path,
        { answers: [{ question_id: a.q[1], student_answer: 'by header' }] },
        { ip: freshIp(), headers: { 'X-Attempt-Token': a.token } },
      ),
    );
    assert.deepEqual(
      viaHeader.saved.map((s: any) => s.question_id),
      [a.q[1]],
    );
    expectError(
      await post(
        `${a.path}${tokenQuery(b.token)}`,
        { answers: [{ question_id: a.q[2], student_answer: 'x' }] },
        { ip: freshIp() },
      ),
      403,
      'FORBIDDEN',
    );
    const answers = (await stored(a)).answers;
    assert.equal(answers[a.q[0]].answer, 'by token');
    assert.equal(answers[a.q[0]].client_seq, 1);
    assert.equal(answers[a.q[1]].answer, 'by header');
    assert.equal(answers[a.q[2]], undefined);
  });

  it('refuses another student (403) and after submission (409), whole', async () => {
    const a = await started();
    const other = await createUser('student', m.tenant.clientId);
    expectError(
      await post(a.path, { answers: [{ question_id: a.q[0], student_answer: 'x' }] }, as(other.token)),
      403,
      'FORBIDDEN',
    );
    ok(await post(`/api/attempts/${a.id}/submit`, undefined, a.as));
    expectError(await post(a.path, { answers: [{ question_id: a.q[0], student_answer: 'x' }] }, a.as), 409, 'CONFLICT');
    assert.deepEqual((await stored(a)).answers, {});
  });
});

describe('POST /api/attempts/{attemptId}/answers: a batch validated whole', () => {
  it('names the bad item (body.answers.3.question_id) and saves nothing of the good ones', async () => {
    const a = await started();
    const answers: any[] = a.q.slice(0, 3).map((q) => ({ question_id: q, student_answer: 'good' }));
    answers.push({ student_answer: 'no question' });
    expectValidation(await post(a.path, { answers }, a.as), ['body.answers.3.question_id']);
    expectValidation(
      await post(a.path, { answers: [answers[0], { question_id: a.q[4], student_answer: 'x', client_seq: -1 }] }, a.as),
      ['body.answers.1.client_seq'],
    );
    expectValidation(
      await post(
        a.path,
        { answers: [answers[0], { question_id: a.q[4], student_answer: 'x', client_seq: 1.5 }] },
        a.as,
      ),
      ['body.answers.1.client_seq'],
    );
    expectValidation(
      await post(a.path, { answers: [answers[0], { question_id: a.q[4], student_answer: 'x'.repeat(2001) }] }, a.as),
      ['body.answers.1.student_answer'],
    );
    expectValidation(await post(a.path, { answers: [{ ...answers[0], score: 1 }] }, a.as), ['body.answers.0']);
    assert.deepEqual((await stored(a)).answers, {});
  });

  it('refuses a question answered twice in one batch, naming its second item, and saves nothing', async () => {
    const a = await started();
    const res = await post(
      a.path,
      {
        answers: [
          { question_id: a.q[0], student_answer: 'A' },
          { question_id: a.q[1], student_answer: 'B' },
          { question_id: a.q[0], student_answer: 'C' },
        ],
      },
      a.as,
    );
    expectValidation(res, ['body.answers.2.question_id'], ['answers.0']);
    assert.deepEqual((await stored(a)).answers, {});
  });

  it('takes 1 to 100 items: an empty batch and 101 items are 400 at body.answers', async () => {
    const a = await started();
    expectValidation(await post(a.path, { answers: [] }, a.as), ['body.answers']);
    const many = Array.from({ length: 101 }, (_, i) => ({ question_id: `question-${i}`, student_answer: 'x' }));
    expectValidation(await post(a.path, { answers: many }, a.as), ['body.answers']);
    // 100 is the most: past validation, the questions not in the attempt are what is refused.
    const hundred = await post(a.path, { answers: many.slice(0, 100) }, a.as);
    expectValidation(hundred, ['body.answers.0.question_id', 'body.answers.99.question_id']);
    assert.deepEqual((await stored(a)).answers, {});
  });

  it('refuses a batch naming a question not part of the attempt (400 naming that item), saving nothing', async () => {
    const a = await started();
    const res = await post(
      a.path,
      {
        answers: [
          { question_id: a.q[0], student_answer: 'A' },
          { question_id: 'not-in-this-attempt', student_answer: 'B' },
          { question_id: a.q[1], student_answer: 'C' },
        ],
      },
      a.as,
    );
    expectValidation(res, ['body.answers.1.question_id']);
    assert.equal(res.body.details.length, 1, res.text);
    assert.deepEqual((await stored(a)).answers, {});
  });

  it('refuses a body of neither shape (400 at body), and one answer mixed with a batch', async () => {
    const a = await started();
    expectValidation(await post(a.path, { answer: 'x' }, a.as), ['body']);
    expectValidation(
      await post(
        a.path,
        { question_id: a.q[0], student_answer: 'x', answers: [{ question_id: a.q[1], student_answer: 'y' }] },
        a.as,
      ),
      ['body'],
    );
    expectValidation(await post(a.path, [{ question_id: a.q[0], student_answer: 'x' }], a.as), ['body']);
    assert.deepEqual((await stored(a)).answers, {});
  });

  it('measures the storage budget for the batch as a whole: 413 naming the item that takes it past, nothing saved', async () => {
    const a = await started();
    // The attempt 3,000 bytes under its budget, as the Admin SDK writes it (a long answer stored whole).
    const ref = attemptDoc(m.tenant.clientId, a.id);
    const current = (await ref.get()).data() as StoredAttempt;
    const filler = { answer: '', saved_at: new Date().toISOString() };
    const base = attemptBytes(ref.path, { ...current, answers: { [a.q[5]]: filler } });
    filler.answer = 'f'.repeat(ATTEMPT_BUDGET_BYTES - 3_000 - base);
    await ref.update({ answers: { [a.q[5]]: filler } });
    const item = (q: string) => ({ question_id: q, student_answer: 'x'.repeat(1_200) });
    // Each alone fits, two fit; the third takes it past.
    const res = await post(a.path, { answers: [item(a.q[0]), item(a.q[1]), item(a.q[2])] }, a.as);
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    assert.deepEqual(
      res.body.details.map((d: any) => d.path),
      ['body.answers.2.student_answer'],
    );
    assert.deepEqual(Object.keys((await stored(a)).answers), [a.q[5]]);
    // Shortening the stored answer in the same batch makes the room.
    ok(
      await post(
        a.path,
        { answers: [{ question_id: a.q[5], student_answer: '' }, item(a.q[0]), item(a.q[1]), item(a.q[2])] },
        a.as,
      ),
    );
    assert.equal(Object.keys((await stored(a)).answers).length, 4);
  });
});

describe('POST /api/attempts/{attemptId}/answers: client_seq', () => {
  it('answers one answer without client_seq exactly as before: {question_id, student_answer, saved_at}', async () => {
    const a = await started();
    const body = ok(await post(a.path, { question_id: a.q[0], student_answer: 'plain' }, a.as));
    assert.deepEqual(Object.keys(body).sort(), ['question_id', 'saved_at', 'student_answer']);
    assert.equal(body.student_answer, 'plain');
    assert.ok(!('client_seq' in (await answerOf(a, a.q[0]))), 'nothing new is stored either');
  });

  it('replays of one question out of order: a seq not above the stored one is 200 stale: true with the answer that stays; the newest always stays', async () => {
    const a = await started();
    const send = (seq: number) =>
      post(a.path, { question_id: a.q[0], student_answer: `v${seq}`, client_seq: seq }, a.as);
    const first = ok(await send(3));
    assert.deepEqual(Object.keys(first).sort(), ['client_seq', 'question_id', 'saved_at', 'stale', 'student_answer']);
    assert.deepEqual(
      { ...first, saved_at: 'T' },
      { question_id: a.q[0], student_answer: 'v3', saved_at: 'T', client_seq: 3, stale: false },
    );
    for (const seq of [1, 3, 2, 0]) {
      const replay = ok(await send(seq));
      assert.deepEqual(replay, { ...first, stale: true }, `seq ${seq}: the stored answer, as it was`);
    }
    assert.deepEqual(await answerOf(a, a.q[0]), { answer: 'v3', saved_at: first.saved_at, client_seq: 3 });
    const newer = ok(await send(5));
    assert.equal(newer.stale, false);
    assert.equal(newer.student_answer, 'v5');
    ok(await send(4));
    assert.equal((await answerOf(a, a.q[0])).answer, 'v5');
  });

  it('a batch with a stale and a fresh item: applies the fresh one, lists the stale one, and leaves its answer as it was', async () => {
    const a = await started();
    ok(
      await post(
        a.path,
        {
          answers: [
            { question_id: a.q[0], student_answer: 'newer', client_seq: 7 },
            { question_id: a.q[1], student_answer: 'one', client_seq: 1 },
          ],
        },
        a.as,
      ),
    );
    const before = await answerOf(a, a.q[0]);
    const body = ok(
      await post(
        a.path,
        {
          answers: [
            { question_id: a.q[0], student_answer: 'replayed', client_seq: 6 },
            { question_id: a.q[1], student_answer: 'two', client_seq: 2 },
            { question_id: a.q[2], student_answer: 'unnumbered' },
          ],
        },
        a.as,
      ),
    );
    assert.deepEqual(body.stale, [a.q[0]]);
    assert.deepEqual(
      body.saved.map((s: any) => s.question_id),
      [a.q[1], a.q[2]],
    );
    assert.deepEqual(await answerOf(a, a.q[0]), before);
    assert.equal((await answerOf(a, a.q[1])).answer, 'two');
    assert.equal((await answerOf(a, a.q[1])).client_seq, 2);
  });

  it('a batch of stale items only: 200, saved [], every item stale, nothing changed', async () => {
    const a = await started();
    ok(
      await post(
        a.path,
        {
          answers: [
            { question_id: a.q[0], student_answer: 'A', client_seq: 2 },
            { question_id: a.q[1], student_answer: 'B', client_seq: 2 },
          ],
        },
        a.as,
      ),
    );
    const before = (await stored(a)).answers;
    const body = ok(
      await post(
        a.path,
        {
          answers: [
            { question_id: a.q[1], student_answer: 'b', client_seq: 1 },
            { question_id: a.q[0], student_answer: 'a', client_seq: 2 },
          ],
        },
        a.as,
      ),
    );
    assert.deepEqual(body, { saved: [], stale: [a.q[1], a.q[0]] });
    assert.deepEqual((await stored(a)).answers, before);
  });

  it('a save without client_seq is applied and keeps the stored seq: an older numbered answer replayed after it is still stale', async () => {
    const a = await started();
    ok(await post(a.path, { question_id: a.q[0], student_answer: 'numbered', client_seq: 4 }, a.as));
    const plain = ok(await post(a.path, { question_id: a.q[0], student_answer: 'unnumbered' }, a.as));
    assert.deepEqual(Object.keys(plain).sort(), ['question_id', 'saved_at', 'student_answer']);
    assert.deepEqual(await answerOf(a, a.q[0]), { answer: 'unnumbered', saved_at: plain.saved_at, client_seq: 4 });
    const late = ok(await post(a.path, { question_id: a.q[0], student_answer: 'older', client_seq: 3 }, a.as));
    assert.equal(late.stale, true);
    assert.equal(late.student_answer, 'unnumbered');
    assert.equal((await answerOf(a, a.q[0])).answer, 'unnumbered');
  });

  it('shows the stored client_seq on a read of the attempt, so a client that lost its counter goes on from it', async () => {
    const a = await started();
    ok(
      await post(
        a.path,
        {
          answers: [
            { question_id: a.q[0], student_answer: 'A', client_seq: 9 },
            { question_id: a.q[1], student_answer: 'B' },
          ],
        },
        a.as,
      ),
    );
    const read = await get(`/api/attempts/${a.id}`, a.as);
    assert.equal(read.status, 200, read.text);
    const byQuestion = Object.fromEntries(read.body.answers.map((x: any) => [x.question_id, x]));
    assert.equal(byQuestion[a.q[0]].client_seq, 9);
    assert.ok(!('client_seq' in byQuestion[a.q[1]]));
  });
});

describe('POST /api/attempts/{attemptId}/answers: a batch and the deadline', () => {
  it('takes a batch within the 30 s grace; refuses one after it whole (409), closing the attempt with the answers saved in time', async () => {
    const a = await started();
    await expire(m.tenant.clientId, a.id, 10); // 10 s past expires_at: inside the grace
    ok(await post(a.path, { answers: [{ question_id: a.q[0], student_answer: 'in time', client_seq: 1 }] }, a.as));
    await expire(m.tenant.clientId, a.id, 31);
    const late = await post(
      a.path,
      {
        answers: [
          { question_id: a.q[1], student_answer: 'late' },
          { question_id: a.q[0], student_answer: 'later', client_seq: 2 },
        ],
      },
      a.as,
    );
    expectError(late, 409, 'CONFLICT');
    const after = await stored(a);
    assert.equal(after.status, 'submitted');
    assert.equal(after.auto_submitted, true);
    assert.deepEqual(Object.keys(after.answers), [a.q[0]]);
    assert.equal(after.answers[a.q[0]].answer, 'in time');
  });

  it('refuses a batch whole (409) once the attempt’s test is archived, and still lets it be submitted', async () => {
    const { test: own } = await publishTest(m.tenant.admin.token, m.tenant.clientId, { count: 2 });
    const a = await started(own.id);
    ok(await post(a.path, { answers: [{ question_id: a.q[0], student_answer: 'before' }] }, a.as));
    assert.equal((await post(`/api/tests/${own.id}/archive`, undefined, as(m.tenant.admin.token))).status, 200);
    const res = await post(
      a.path,
      { answers: [{ question_id: a.q[1], student_answer: 'after', client_seq: 1 }] },
      a.as,
    );
    expectError(res, 409, 'CONFLICT');
    assert.match(res.body.message, /archived/);
    assert.deepEqual(Object.keys((await stored(a)).answers), [a.q[0]]);
    ok(await post(`/api/attempts/${a.id}/submit`, undefined, a.as));
  });
});
