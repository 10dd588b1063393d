import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { writeNetworks } from '../../functions/src/networks/store';
import { forgetRegisteredNetworks } from '../../functions/src/networks/registry';
import { createTenant, createUser, type TestUser } from '../support/fixtures';
import { api, type ApiResponse } from '../support/http';
import { startInProcessApi, TEST_CONFIG, type InProcessApi } from '../support/inProcessApi';
import { writeQuestion, type QuestionFixture } from '../exams/fixtures';
import { attemptDoc, publishTest } from '../attempts/fixtures';

// The exam hall, small: 30 students of one organization behind one address of
// its registered network, with the interface's default limits (TEST_CONFIG:
// 100 requests a minute per address, 10 sensitive), real ID tokens from the Auth
// emulator and the real app served in-process, so the requests truly overlap.
// They all start at once, each saves 16 answers with client_seq, three go
// offline and replay their queue late, out of order, in batches. Counting by
// identity on a registered network must leave no 429, nothing may answer 5xx,
// every acknowledged answer must be stored, and no stale replay may be applied.
// (`npm run bench:hall` is the full-size run: 300 students and 30 guests.)

const STUDENTS = 30;
const QUESTIONS = 16;
const OFFLINE = new Set([3, 13, 23]);

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;
let questions: QuestionFixture[];
let testId: string;
let students: TestUser[];
// One IPv4 address per run (IPv4 is counted per address), inside a /24 registered for the tenant.
const subnet = `198.18.${randomInt(0, 256)}`;
const HALL_IP = `${subnet}.${randomInt(1, 255)}`;

interface Item {
  question_id: string;
  student_answer: string;
  client_seq: number;
}

describe('The exam hall: 30 students behind one registered address, with the default limits', function () {
  this.timeout(240_000);

  before(async function () {
    this.timeout(120_000);
    tenant = await createTenant();
    await writeNetworks(tenant.clientId, [`${subnet}.0/24`], tenant.admin.uid);
    forgetRegisteredNetworks(); // this process's registry reads the network at its next request
    server = await startInProcessApi({ ...TEST_CONFIG });
    questions = await Promise.all(
      Array.from({ length: QUESTIONS }, (_, i) =>
        writeQuestion(tenant.clientId, { question_text: `Hall question ${i + 1}` }),
      ),
    );
    ({
      test: { id: testId },
    } = await publishTest(tenant.admin.token, tenant.clientId, { questions, extra: { shuffle: 1 } }));
    students = await Promise.all(Array.from({ length: STUDENTS }, () => createUser('student', tenant.clientId)));
  });
  after(() => server?.close());

  it('starts everyone, keeps every acknowledged answer, applies no stale replay, and answers no 429 and no 5xx', async () => {
    assert.equal(TEST_CONFIG.ratePerMinute, 100, 'the interface’s default per-address limit');
    assert.equal(TEST_CONFIG.sensitivePerMinute, 10);
    const statuses: Array<{ step: string; status: number; text: string }> = [];
    const send = async (
      step: string,
      method: string,
      path: string,
      token: string,
      body?: unknown,
      headers?: Record<string, string>,
    ): Promise<ApiResponse> => {
      const res = await api(method, path, { token, body, headers, ip: HALL_IP, baseUrl: server.baseUrl });
      statuses.push({ step, status: res.status, text: res.text.slice(0, 200) });
      return res;
    };
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const outcomes = await Promise.all(
      students.map(async (student, index) => {
        const acked = new Map<string, Item>();
        const stale: Item[] = [];
        const start = await send('start', 'POST', '/api/attempts', student.token, { test_id: testId });
        if (start.status !== 201) return { index, attemptId: null, acked, stale };
        const attemptId = start.body.attempt_id as string;
        const headers = { 'X-Attempt-Token': start.body.attempt_token as string };
        const path = `/api/attempts/${attemptId}/answers`;
        const shown = (start.body.test_details.questions as Array<{ id: string; options: string[] }>).map((q) => q.id);
        const seq = new Map<string, number>();
        const next = (qid: string): Item => {
          const n = (seq.get(qid) ?? 0) + 1;
          seq.set(qid, n);
          // Consecutive versions of an answer differ, so an applied stale one would show.
          return { question_id: qid, student_answer: ['3', '4', '5'][(index + n) % 3], client_seq: n };
        };
        const ack = (item: Item) => {
          const held = acked.get(item.question_id);
          if (!held || item.client_seq > held.client_seq) acked.set(item.question_id, item);
        };
        const saveOnline = async (item: Item) => {
          const res = await send('save', 'POST', path, student.token, item, headers);
          if (res.status === 200) ack(item);
        };
        const queue: Item[] = [];
        for (let position = 0; position < shown.length; position++) {
          await pause(50 + Math.random() * 150);
          const qid = shown[position];
          if (OFFLINE.has(index) && position >= 4 && position < 10) {
            queue.push(next(qid));
            if (position === 6 || position === 9) queue.push(next(shown[position - 2]));
            continue;
          }
          if (OFFLINE.has(index) && position === 10) await saveOnline(next(shown[5]));
          await saveOnline(next(qid));
        }
        if (OFFLINE.has(index)) {
          // Late and out of order, newest first: every older version of a question is then stale.
          const pending = [...queue].sort(
            (a, b) => b.client_seq - a.client_seq || (a.question_id < b.question_id ? -1 : 1),
          );
          while (pending.length > 0) {
            const batch: Item[] = [];
            for (let i = 0; i < pending.length && batch.length < 4;) {
              if (batch.some((b) => b.question_id === pending[i].question_id)) i++;
              else batch.push(...pending.splice(i, 1));
            }
            const res = await send('batch', 'POST', path, student.token, { answers: batch }, headers);
            if (res.status !== 200) continue;
            const staleIds = new Set<string>(res.body.stale);
            for (const item of batch) {
              if (staleIds.has(item.question_id)) stale.push(item);
              else ack(item);
            }
          }
        }
        await send('submit', 'POST', `/api/attempts/${attemptId}/submit`, student.token, undefined, headers);
        return { index, attemptId, acked, stale };
      }),
    );

    const count = (predicate: (s: { step: string; status: number }) => boolean) => statuses.filter(predicate).length;
    const summary = JSON.stringify(
      statuses.reduce<Record<string, number>>(
        (acc, s) => ((acc[`${s.step} ${s.status}`] = (acc[`${s.step} ${s.status}`] ?? 0) + 1), acc),
        {},
      ),
    );
    assert.equal(
      count((s) => s.status === 429),
      0,
      `no request refused with 429 (statuses: ${summary})`,
    );
    assert.equal(
      count((s) => s.status >= 500),
      0,
      `no 5xx (statuses: ${summary})`,
    );
    const unexpected = statuses.filter((s) => s.status !== (s.step === 'start' ? 201 : 200));
    assert.deepEqual(unexpected.slice(0, 5), [], `every request answered as expected (statuses: ${summary})`);

    let acknowledged = 0;
    let staleReported = 0;
    for (const { attemptId, acked, stale, index } of outcomes) {
      assert.ok(attemptId, `student ${index} started`);
      const stored = (await attemptDoc(tenant.clientId, attemptId).get()).data()!;
      assert.equal(stored.status, 'submitted');
      for (const [qid, item] of acked) {
        acknowledged++;
        assert.equal(
          stored.answers[qid]?.answer,
          item.student_answer,
          `student ${index}: the newest acknowledged answer to ${qid} (seq ${item.client_seq}) is stored`,
        );
      }
      for (const item of stale) {
        staleReported++;
        const newest = acked.get(item.question_id)!;
        assert.ok(newest.client_seq > item.client_seq, 'only an answer older than the one held is stale');
        assert.notEqual(
          stored.answers[item.question_id]?.answer,
          item.student_answer,
          `student ${index}: the stale replay of ${item.question_id} was not applied`,
        );
      }
    }
    assert.equal(acknowledged, STUDENTS * QUESTIONS, 'every question of every student has an acknowledged answer');
    // Each offline student revised two queued answers and changed a third again online: three stale versions each.
    assert.equal(staleReported, OFFLINE.size * 3);
  });
});
