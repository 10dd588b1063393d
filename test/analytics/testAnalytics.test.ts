import assert from 'node:assert/strict';
import { expectError } from '../support/assertions';
import { createTenant, createUser, signInAnonymously } from '../support/fixtures';
import { get, post, type ApiResponse } from '../support/http';
import { as, clientDoc, draftWithQuestions } from '../exams/fixtures';
import { expire, mixedQuestions, publishTest, RIGHT, startOk, writeShareCode } from '../attempts/fixtures';
import { analytics, take } from './fixtures';

// GET /api/analytics/tests/{testId} and its repair, through the emulators with
// real tokens. The statistics themselves are unit-tested on a worked example
// (statistics.test.ts); here: the figures the submits maintain, versions,
// nulls, permissions, and the repair.

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const recompute = (token: string, testId: string, query = ''): Promise<ApiResponse> =>
  post(`/api/analytics/tests/${testId}/recompute${query}`, undefined, as(token));

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('GET /api/analytics/tests/{testId}', function () {
  this.timeout(120_000);
  let tenant: Tenant;
  let test: any;
  let scores: number[];

  before(async () => {
    tenant = await createTenant();
    ({ test } = await publishTest(tenant.admin.token, tenant.clientId, {
      questions: await mixedQuestions(tenant.clientId),
    }));
    const patterns: Array<Record<string, string>> = [
      RIGHT,
      { ...RIGHT, 'Pi to 2 places': '3', 'Spell cat': 'dog' },
      { 'Capital of France?': 'Rome', 'Primes?': '2', 'Water is wet': 'true' },
      { 'Capital of France?': 'paris', 'Primes?': '2|4', 'Water is wet': 'false', 'Spell cat': 'cat' },
    ];
    const students = await Promise.all(patterns.map(() => createUser('student', tenant.clientId)));
    scores = [];
    for (const [i, pattern] of patterns.entries()) scores.push(await take(students[i], test.id, pattern));
    // One more, left in progress: started, not completed.
    await startOk(tenant.student.token, { test_id: test.id });
  });

  it('answers the interface’s fields with the figures of the submitted attempts', async () => {
    const res = await analytics(tenant.admin.token, test.id);
    assert.equal(res.status, 200, res.text);
    const a = res.body;
    assert.equal(a.total_attempts, 5);
    assert.equal(a.completed, 4);
    assert.equal(a.in_progress, 1);
    assert.ok(Math.abs(a.average_score - mean(scores)) < 1e-4, `${a.average_score} vs ${mean(scores)}`);
    assert.equal(a.highest_score, Math.max(...scores));
    assert.equal(a.lowest_score, Math.min(...scores));
    assert.equal(a.total_marks, 6);
    assert.ok(Math.abs(a.average_percentage - (mean(scores) / 6) * 100) < 1e-4);
    const sd = Math.sqrt(scores.reduce((s, x) => s + (x - mean(scores)) ** 2, 0) / (scores.length - 1));
    assert.ok(Math.abs(a.standard_deviation - sd) < 1e-4, `${a.standard_deviation} vs ${sd}`);
    assert.equal(a.score_distribution.length, 10);
    assert.equal(
      a.score_distribution.reduce((s: number, b: { count: number }) => s + b.count, 0),
      4,
    );
    for (const score of scores) {
      const band = Math.min(9, Math.floor((score / 6) * 10 + 1e-9));
      assert.ok(a.score_distribution[band].count >= 1, `score ${score} counted in band ${band}`);
    }
    assert.equal(typeof a.cronbach_alpha === 'number' || a.cronbach_alpha === null, true);
    assert.deepEqual(Object.keys(a.difficulty_analysis), ['easy']);
    const easy = a.difficulty_analysis.easy;
    assert.equal(easy.questions, 5);
    assert.equal(easy.correct_rate, Math.round((easy.correct / easy.answered) * 1e4) / 1e4);
    assert.equal(a.version, 1);
    assert.equal(a.latest_version, 1);
  });

  it('counts per question how often it was answered, answered correctly and each option chosen', async () => {
    const a = (await analytics(tenant.admin.token, test.id)).body;
    const byText = Object.fromEntries(a.questions.map((q: any) => [q.question_text, q]));
    const capital = byText['Capital of France?'];
    assert.equal(capital.times_answered, 4);
    assert.equal(capital.times_correct, 3);
    assert.deepEqual(capital.option_counts, [
      { option: 'Paris', count: 3 },
      { option: 'Rome', count: 1 },
      { option: 'Oslo', count: 0 },
    ]);
    assert.equal(capital.other_choices, 0);
    assert.equal(capital.facility_index, 0.75);
    const primes = byText['Primes?'];
    // "3|2", "3|2", "2", "2|4": every option ticked counts.
    assert.deepEqual(primes.option_counts, [
      { option: '2', count: 4 },
      { option: '3', count: 2 },
      { option: '4', count: 1 },
    ]);
    assert.equal(primes.times_correct, 2);
    assert.equal(byText['Spell cat'].option_counts, null, 'free text has no options');
    assert.equal(byText['Pi to 2 places'].times_answered, 2);
    for (const q of a.questions) {
      assert.ok(
        q.discrimination_index === null || (q.discrimination_index >= -100 && q.discrimination_index <= 100),
        JSON.stringify(q),
      );
    }
  });

  it('never sends an answer key', async () => {
    const res = await analytics(tenant.admin.token, test.id);
    assert.doesNotMatch(res.text, /correct_answer|tolerance|token_hash/);
  });

  it('describes one frozen version: the latest by default, ?version= picks an earlier one, an unknown one is 404', async () => {
    for (const move of ['archive', 'restore', 'publish']) {
      const res = await post(`/api/tests/${test.id}/${move}`, undefined, as(tenant.admin.token));
      assert.equal(res.status, 200, `${move}: ${res.text}`);
    }
    const latest = (await analytics(tenant.admin.token, test.id)).body;
    assert.equal(latest.version, 2);
    assert.equal(latest.latest_version, 2);
    assert.equal(latest.completed, 0);
    assert.equal(latest.average_score, null);
    const first = (await analytics(tenant.admin.token, test.id, '?version=1')).body;
    assert.equal(first.version, 1);
    assert.equal(first.completed, 4);
    expectError(await analytics(tenant.admin.token, test.id, '?version=3'), 404, 'NOT_FOUND');
    expectError(await analytics(tenant.admin.token, test.id, '?version=0'), 400, 'VALIDATION_ERROR');
  });

  it('gives null, not 0 or NaN, for every measure undefined with fewer than two attempts', async () => {
    const { test: fresh } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
    const none = (await analytics(tenant.admin.token, fresh.id)).body;
    for (const field of [
      'average_score',
      'average_percentage',
      'highest_score',
      'lowest_score',
      'standard_deviation',
      'cronbach_alpha',
    ]) {
      assert.equal(none[field], null, field);
    }
    assert.equal(none.questions[0].facility_index, null);
    await take(tenant.student, fresh.id, { 'Question 1': 'A' });
    const one = (await analytics(tenant.admin.token, fresh.id)).body;
    assert.equal(one.completed, 1);
    assert.equal(typeof one.average_score, 'number');
    for (const field of ['standard_deviation', 'cronbach_alpha']) assert.equal(one[field], null, field);
    for (const q of one.questions) assert.equal(q.discrimination_index, null);
  });

  it('answers a test never published with zero attempts and no version', async () => {
    const draft = await draftWithQuestions(tenant.admin.token, tenant.clientId);
    const res = await analytics(tenant.admin.token, draft.test.id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.version, null);
    assert.equal(res.body.total_attempts, 0);
    assert.deepEqual(res.body.questions, []);
  });

  it('counts an attempt submitted automatically at its deadline', async () => {
    const { test: timed } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
    const started = await startOk(tenant.student.token, { test_id: timed.id });
    await expire(tenant.clientId, started.attempt_id);
    const read = await get(`/api/attempts/${started.attempt_id}`, as(tenant.student.token));
    assert.equal(read.body.status, 'submitted');
    const a = (await analytics(tenant.admin.token, timed.id)).body;
    assert.equal(a.completed, 1);
    assert.equal(a.auto_submitted, 1);
  });

  it('lets a Super Admin read any organization’s test', async () => {
    const sa = await createUser('super_admin');
    const res = await analytics(sa.token, test.id, '?version=1');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.client_id, tenant.clientId);
  });

  it('refuses another organization’s Client Admin (403), Students (403) and Guests (403), and an unknown test is 404', async () => {
    const other = await createTenant();
    expectError(await analytics(other.admin.token, test.id), 403, 'FORBIDDEN');
    expectError(await analytics(tenant.student.token, test.id), 403, 'FORBIDDEN');
    const code = await writeShareCode(tenant.clientId, test.id);
    const guest = await signInAnonymously();
    await startOk(guest.token, { share_code: code });
    expectError(await analytics(guest.token, test.id), 403, 'FORBIDDEN');
    expectError(await analytics(tenant.admin.token, 'no-such-test'), 404, 'NOT_FOUND');
  });
});

describe('POST /api/analytics/tests/{testId}/recompute', function () {
  this.timeout(120_000);
  let tenant: Tenant;
  let test: any;

  before(async () => {
    tenant = await createTenant();
    ({ test } = await publishTest(tenant.admin.token, tenant.clientId, {
      questions: await mixedQuestions(tenant.clientId),
    }));
    const students = await Promise.all([1, 2, 3].map(() => createUser('student', tenant.clientId)));
    await take(students[0], test.id, RIGHT);
    await take(students[1], test.id, { 'Capital of France?': 'Oslo' });
    await take(students[2], test.id, { ...RIGHT, 'Primes?': '2' });
  });

  it('finds nothing to repair when the submits kept the sums', async () => {
    const before = (await analytics(tenant.admin.token, test.id)).body;
    const res = await recompute(tenant.admin.token, test.id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.changed, false);
    assert.equal(res.body.attempts_read, 3);
    assert.deepEqual(res.body.analytics, before);
  });

  it('rebuilds sums that were lost or corrupted from the attempts', async () => {
    const before = (await analytics(tenant.admin.token, test.id)).body;
    const shards = await clientDoc(tenant.clientId)
      .collection('tests')
      .doc(test.id)
      .collection('versions')
      .doc('1')
      .collection('stats_shards')
      .get();
    assert.ok(shards.size >= 1);
    await Promise.all(shards.docs.map((d) => d.ref.delete()));
    await clientDoc(tenant.clientId)
      .collection('tests')
      .doc(test.id)
      .collection('versions')
      .doc('1')
      .collection('stats_shards')
      .doc('7')
      .set({ n: 40, score: { s: 999 } });
    assert.equal((await analytics(tenant.admin.token, test.id)).body.completed, 40);
    const res = await recompute(tenant.admin.token, test.id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.changed, true);
    assert.deepEqual(res.body.analytics, before);
    assert.deepEqual((await analytics(tenant.admin.token, test.id)).body, before);
    const left = await clientDoc(tenant.clientId)
      .collection('tests')
      .doc(test.id)
      .collection('versions')
      .doc('1')
      .collection('stats_shards')
      .get();
    assert.deepEqual(
      left.docs.map((d) => d.id),
      ['0'],
      'the recomputed sums sit on one shard',
    );
  });

  it('refuses with 409 CONFLICT while another recompute of the version holds its claim, takes over a claim left behind expired, and releases its own', async () => {
    const claim = clientDoc(tenant.clientId)
      .collection('tests')
      .doc(test.id)
      .collection('versions')
      .doc('1')
      .collection('stats_leases')
      .doc('recompute');
    await claim.set({ expires_at: new Date(Date.now() + 60_000).toISOString() });
    const refused = await recompute(tenant.admin.token, test.id);
    expectError(refused, 409, 'CONFLICT');
    assert.match(refused.body.message, /recompute of version 1 of this test is running/);
    // A claim whose holder died (never released) stops nobody once it has expired.
    await claim.set({ expires_at: new Date(Date.now() - 1_000).toISOString() });
    const ran = await recompute(tenant.admin.token, test.id);
    assert.equal(ran.status, 200, ran.text);
    assert.equal(ran.body.attempts_read, 3);
    assert.equal((await claim.get()).exists, false, 'released after the recompute');
    assert.equal((await recompute(tenant.admin.token, test.id)).status, 200, 'the next recompute is not refused');
  });

  it('is for administrators of the test’s organization only', async () => {
    const other = await createTenant();
    expectError(await recompute(other.admin.token, test.id), 403, 'FORBIDDEN');
    expectError(await recompute(tenant.student.token, test.id), 403, 'FORBIDDEN');
    expectError(await recompute(tenant.admin.token, test.id, '?version=9'), 404, 'NOT_FOUND');
  });
});
