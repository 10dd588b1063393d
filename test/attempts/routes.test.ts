import assert from 'node:assert/strict';
import { adminDb } from '../support/admin';
import { expectError, expectValidation, ISO_UTC } from '../support/assertions';
import { auditRecordsFor, createRoleMatrix, createUser, signInAnonymously, type RoleMatrix } from '../support/fixtures';
import { freshIp, get, post, type ApiResponse } from '../support/http';
import { as, writeQuestion } from '../exams/fixtures';
import {
  attemptDoc,
  expire,
  mixedQuestions,
  publishTest,
  RIGHT,
  seatsUsed,
  start,
  startOk,
  tokenQuery,
  writeShareCode,
} from './fixtures';

// The attempts endpoints over HTTP (Hosting → Functions emulator → Firestore
// emulator), one describe per endpoint. Concurrency is tested in-process
// (service.inProcess.test.ts), where requests truly overlap.

const KEY_FIELDS = /"(correct_answer|tolerance|token_hash|results)"/;

let m: RoleMatrix;
let test: any; // published, shuffle 1, allow_review 1, mixed question types
let questions: Awaited<ReturnType<typeof mixedQuestions>>;

const newStudent = () => createUser('student', m.tenant.clientId);
const answerOf = (text: string) => RIGHT[text];

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
  questions = await mixedQuestions(m.tenant.clientId);
  ({ test } = await publishTest(m.tenant.admin.token, m.tenant.clientId, {
    questions,
    extra: { shuffle: 1, allow_review: 1, timer: 30 },
  }));
});

describe('POST /api/attempts', () => {
  it('starts an attempt for a Student: 201 with token, times, and the questions without answer keys', async () => {
    const student = await newStudent();
    const res = await start(student.token, { test_id: test.id });
    assert.equal(res.status, 201, res.text);
    const body = res.body;
    assert.equal(body.status, 'in_progress');
    assert.equal(body.resumed, false);
    assert.match(body.started_at, ISO_UTC);
    assert.equal(Date.parse(body.expires_at) - Date.parse(body.started_at), 30 * 60_000);
    assert.match(body.attempt_token, /^[A-Za-z0-9_-]{43}$/, '256 bits, base64url');
    assert.equal(body.test_details.test_id, test.id);
    assert.equal(body.test_details.questions.length, 5);
    assert.equal(body.test_details.total_marks, 6);
    assert.ok(!KEY_FIELDS.test(res.text), res.text);
    const stored = (await attemptDoc(m.tenant.clientId, body.attempt_id).get()).data()!;
    assert.equal(stored.student_id, student.uid);
    assert.notEqual(stored.token_hash, body.attempt_token, 'only a hash is stored');
    assert.ok(!JSON.stringify(stored).includes(body.attempt_token));
  });

  it('shows the same shuffled order on every read of the attempt', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    const read = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body.test_details.questions, started.test_details.questions);
  });

  it('refuses a Student starting for another student with 403', async () => {
    const [a, b] = await Promise.all([newStudent(), newStudent()]);
    expectError(await start(a.token, { test_id: test.id, student_id: b.uid }), 403, 'FORBIDDEN');
  });

  it('resumes the attempt in progress with 200 and a fresh token; the old token stops working', async () => {
    const student = await newStudent();
    const first = await startOk(student.token, { test_id: test.id });
    const again = await start(student.token, { test_id: test.id });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.attempt_id, first.attempt_id);
    assert.equal(again.body.resumed, true);
    assert.notEqual(again.body.attempt_token, first.attempt_token);
    expectError(
      await get(`/api/attempts/${first.attempt_id}${tokenQuery(first.attempt_token)}`, { ip: freshIp() }),
      403,
      'FORBIDDEN',
    );
    assert.equal(
      (await get(`/api/attempts/${first.attempt_id}${tokenQuery(again.body.attempt_token)}`, { ip: freshIp() })).status,
      200,
    );
  });

  it('lets a Client Admin start for a student of its organization, naming student_id', async () => {
    const student = await newStudent();
    const res = await start(m.tenant.admin.token, { test_id: test.id, student_id: student.uid });
    assert.equal(res.status, 201, res.text);
    assert.equal((await attemptDoc(m.tenant.clientId, res.body.attempt_id).get()).get('student_id'), student.uid);
  });

  it('refuses a Client Admin without student_id (400), for a non-student (400), for a stranger (404), on another organization’s test (403)', async () => {
    expectValidation(await start(m.tenant.admin.token, { test_id: test.id }), ['body.student_id']);
    expectValidation(await start(m.tenant.admin.token, { test_id: test.id, student_id: m.tenant.admin.uid }), [
      'body.student_id',
    ]);
    expectError(
      await start(m.tenant.admin.token, { test_id: test.id, student_id: m.otherTenant.student.uid }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await start(m.otherTenant.admin.token, { test_id: test.id, student_id: m.otherTenant.student.uid }),
      403,
      'FORBIDDEN',
    );
  });

  it('lets a Super Admin start for a student of the test’s organization', async () => {
    const student = await newStudent();
    const res = await start(m.superAdmin.token, { test_id: test.id, student_id: student.uid });
    assert.equal(res.status, 201, res.text);
  });

  it('refuses a Student of another organization (403) and an unknown test (404)', async () => {
    expectError(await start(m.otherTenant.student.token, { test_id: test.id }), 403, 'FORBIDDEN');
    expectError(await start(m.tenant.student.token, { test_id: 'no-such-test' }), 404, 'NOT_FOUND');
  });

  it('refuses a user with no role (403) and a Guest without a share code (403)', async () => {
    expectError(await start(m.noRole.token, { test_id: test.id }), 403, 'FORBIDDEN');
    expectError(await start(m.guest.token, { test_id: test.id }), 403, 'FORBIDDEN');
  });

  it('refuses draft and archived tests with 409', async () => {
    const { test: archived } = await publishTest(m.tenant.admin.token, m.tenant.clientId, { count: 1 });
    assert.equal((await post(`/api/tests/${archived.id}/archive`, undefined, as(m.tenant.admin.token))).status, 200);
    const student = await newStudent();
    expectError(await start(student.token, { test_id: archived.id }), 409, 'CONFLICT');
  });

  it('refuses fields a client must not set (score, status, started_at, expires_at, client_id) with 400, storing nothing', async () => {
    const student = await newStudent();
    for (const field of ['score', 'status', 'started_at', 'expires_at', 'client_id', 'attempt_id']) {
      expectValidation(await start(student.token, { test_id: test.id, [field]: field === 'score' ? 100 : 'x' }), [
        'body',
      ]);
    }
    const stored = await adminDb.collectionGroup('attempts').where('student_id', '==', student.uid).get();
    assert.equal(stored.size, 0);
  });

  it('refuses a body with both or neither of test_id and share_code (400)', async () => {
    expectValidation(await start(m.tenant.student.token, {}), ['body.test_id']);
    expectValidation(await start(m.guest.token, { test_id: test.id, share_code: 'ABCDEFGHJKMNP' }), ['body.test_id']);
  });

  it('enforces max_attempts: after the allowed attempts are submitted, a new start is 409', async () => {
    const { test: once } = await publishTest(m.tenant.admin.token, m.tenant.clientId, {
      count: 1,
      extra: { max_attempts: 1 },
    });
    const student = await newStudent();
    const first = await startOk(student.token, { test_id: once.id });
    assert.equal((await post(`/api/attempts/${first.attempt_id}/submit`, undefined, as(student.token))).status, 200);
    expectError(await start(student.token, { test_id: once.id }), 409, 'CONFLICT');
  });

  it('lets a Guest redeem a share code (guest_name kept); the same code again resumes without taking a second use', async () => {
    const code = await writeShareCode(m.tenant.clientId, test.id, { max_uses: 5 });
    const guest = await signInAnonymously();
    const first = await start(guest.token, { share_code: code.toLowerCase(), guest_name: 'Ada' });
    assert.equal(first.status, 201, first.text);
    const again = await start(guest.token, { share_code: code });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.attempt_id, first.body.attempt_id);
    assert.equal(await seatsUsed(code), 1);
    const stored = (await attemptDoc(m.tenant.clientId, first.body.attempt_id).get()).data()!;
    assert.equal(stored.guest, true);
    assert.equal(stored.guest_name, 'Ada');
    assert.equal(stored.student_id, guest.uid);
    const audit = await auditRecordsFor(guest.uid, 'share_code_redeemed');
    assert.equal(audit.length, 1);
    assert.equal(audit[0].details.share_code, code);
    assert.equal(typeof audit[0].ip_address, 'string');
  });

  it('refuses unknown (404), revoked (403), expired (403) and used-up (409) share codes', async () => {
    const revoked = await writeShareCode(m.tenant.clientId, test.id, { revoked: true });
    const expired = await writeShareCode(m.tenant.clientId, test.id, {
      expires_at: new Date(Date.now() - 1000).toISOString(),
    });
    const single = await writeShareCode(m.tenant.clientId, test.id, { max_uses: 1 });
    const [g1, g2, g3, g4, g5] = await Promise.all(Array.from({ length: 5 }, () => signInAnonymously()));
    expectError(await start(g1.token, { share_code: 'ZZZZZZZZZZZZZ' }), 404, 'NOT_FOUND');
    expectError(await start(g2.token, { share_code: revoked }), 403, 'FORBIDDEN');
    expectError(await start(g3.token, { share_code: expired }), 403, 'FORBIDDEN');
    assert.equal((await start(g4.token, { share_code: single })).status, 201);
    expectError(await start(g5.token, { share_code: single }), 409, 'CONFLICT');
    assert.equal(await seatsUsed(single), 1);
  });

  it('counts refused share codes against the address: the eleventh request from it in the minute is 429', async function () {
    this.timeout(60_000);
    const ip = freshIp();
    const guests = await Promise.all(Array.from({ length: 11 }, () => signInAnonymously()));
    for (const guest of guests.slice(0, 10))
      expectError(await start(guest.token, { share_code: 'ZZZZZZZZZZZZZ' }, { ip }), 404, 'NOT_FOUND');
    expectError(await start(guests[10].token, { share_code: 'ZZZZZZZZZZZZZ' }, { ip }), 429, 'RATE_LIMITED');
  });

  it('records attempt_started with who, from where and when', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    const [record] = await auditRecordsFor(student.uid, 'attempt_started');
    assert.equal(record.details.attempt_id, started.attempt_id);
    assert.equal(record.actor_id, student.uid);
    assert.equal(record.client_id, m.tenant.clientId);
    assert.match(record.timestamp, ISO_UTC);
    assert.equal(typeof record.ip_address, 'string');
  });
});

describe('GET /api/attempts/{attemptId}', () => {
  it('answers the taker its saved answers and the questions, without keys or review before submission', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    const q = started.test_details.questions[0];
    await post(
      `/api/attempts/${started.attempt_id}/answers`,
      { question_id: q.id, student_answer: 'x' },
      as(student.token),
    );
    const res = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.answers.map((a: any) => [a.question_id, a.student_answer]),
      [[q.id, 'x']],
    );
    assert.equal(res.body.score, null);
    assert.equal(res.body.review, undefined);
    assert.ok(!KEY_FIELDS.test(res.text), res.text);
  });

  it('follows object-level authorization: another student, another organization’s admin and another guest get 403; the tenant’s admin and a Super Admin read it', async () => {
    const [a, b] = await Promise.all([newStudent(), newStudent()]);
    const started = await startOk(a.token, { test_id: test.id });
    const path = `/api/attempts/${started.attempt_id}`;
    expectError(await get(path, as(b.token)), 403, 'FORBIDDEN');
    expectError(await get(path, as(m.otherTenant.admin.token)), 403, 'FORBIDDEN');
    expectError(await get(path, as(m.otherTenant.student.token)), 403, 'FORBIDDEN');
    expectError(await get(path, as(m.guest.token)), 403, 'FORBIDDEN');
    assert.equal((await get(path, as(m.tenant.admin.token))).status, 200);
    assert.equal((await get(path, as(m.superAdmin.token))).status, 200);
  });

  it('opens with ?attempt_token= alone; a token of another attempt is 403; no credential at all is 401; no such attempt is 404', async () => {
    const [a, b] = await Promise.all([newStudent(), newStudent()]);
    const [ta, tb] = await Promise.all([
      startOk(a.token, { test_id: test.id }),
      startOk(b.token, { test_id: test.id }),
    ]);
    assert.equal(
      (await get(`/api/attempts/${ta.attempt_id}${tokenQuery(ta.attempt_token)}`, { ip: freshIp() })).status,
      200,
    );
    expectError(
      await get(`/api/attempts/${ta.attempt_id}${tokenQuery(tb.attempt_token)}`, { ip: freshIp() }),
      403,
      'FORBIDDEN',
    );
    expectError(await get(`/api/attempts/${ta.attempt_id}`, { ip: freshIp() }), 401, 'UNAUTHORIZED');
    expectError(await get(`/api/attempts/no-such-attempt`, as(m.superAdmin.token)), 404, 'NOT_FOUND');
  });

  it('shows the review (answers, correctness, keys) after submission when allow_review is 1', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
    const res = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
    assert.equal(res.body.status, 'submitted');
    assert.equal(res.body.review.length, 5);
    assert.ok(res.body.review.every((r: any) => typeof r.correct_answer === 'string'));
  });

  it('withholds the review from the taker when allow_review is 0, but not from the organization’s admin', async () => {
    const { test: noReview } = await publishTest(m.tenant.admin.token, m.tenant.clientId, {
      count: 2,
      extra: { allow_review: 0 },
    });
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: noReview.id });
    await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
    const mine = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
    assert.equal(mine.body.status, 'submitted');
    assert.equal(mine.body.review, undefined);
    assert.ok(!KEY_FIELDS.test(mine.text), mine.text);
    const admin = await get(`/api/attempts/${started.attempt_id}`, as(m.tenant.admin.token));
    assert.equal(admin.body.review.length, 2);
  });

  it('closes an overdue attempt when it is read, scoring the answers saved in time', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    const france = started.test_details.questions.find((q: any) => q.question_text === 'Capital of France?');
    await post(
      `/api/attempts/${started.attempt_id}/answers`,
      { question_id: france.id, student_answer: 'Paris' },
      as(student.token),
    );
    await expire(m.tenant.clientId, started.attempt_id, 60);
    const res = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
    assert.equal(res.body.status, 'submitted');
    assert.equal(res.body.auto_submitted, true);
    assert.equal(res.body.score, 1);
    assert.equal(res.body.submitted_at, res.body.expires_at);
    const [record] = await auditRecordsFor(student.uid, 'attempt_submitted');
    assert.equal(record.details.automatic, true);
  });
});

describe('POST /api/attempts/{attemptId}/answers', () => {
  it('saves an answer (200 with saved_at); saving the same question again replaces it', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    const q = started.test_details.questions[0];
    const path = `/api/attempts/${started.attempt_id}/answers`;
    const first = await post(path, { question_id: q.id, student_answer: 'one' }, as(student.token));
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(Object.keys(first.body).sort(), ['question_id', 'saved_at', 'student_answer']);
    assert.match(first.body.saved_at, ISO_UTC);
    await post(path, { question_id: q.id, student_answer: 'two' }, as(student.token));
    const stored = (await attemptDoc(m.tenant.clientId, started.attempt_id).get()).data()!;
    assert.equal(stored.answers[q.id].answer, 'two');
  });

  it('refuses a question outside the attempt (400), an overlong answer (400) and fields a client must not set (400)', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    const path = `/api/attempts/${started.attempt_id}/answers`;
    const q = started.test_details.questions[0];
    expectValidation(await post(path, { question_id: 'not-in-it', student_answer: 'x' }, as(student.token)), [
      'body.question_id',
    ]);
    expectValidation(await post(path, { question_id: q.id, student_answer: 'x'.repeat(2001) }, as(student.token)), [
      'body.student_answer',
    ]);
    for (const field of ['score', 'status', 'saved_at', 'client_id']) {
      expectValidation(await post(path, { question_id: q.id, student_answer: 'x', [field]: 1 }, as(student.token)), [
        'body',
      ]);
    }
  });

  it('refuses another student (403) and another organization’s admin (403); accepts the attempt token alone', async () => {
    const [a, b] = await Promise.all([newStudent(), newStudent()]);
    const started = await startOk(a.token, { test_id: test.id });
    const q = started.test_details.questions[0];
    const path = `/api/attempts/${started.attempt_id}/answers`;
    expectError(await post(path, { question_id: q.id, student_answer: 'x' }, as(b.token)), 403, 'FORBIDDEN');
    expectError(
      await post(path, { question_id: q.id, student_answer: 'x' }, as(m.otherTenant.admin.token)),
      403,
      'FORBIDDEN',
    );
    const viaToken = await post(
      `${path}${tokenQuery(started.attempt_token)}`,
      { question_id: q.id, student_answer: 'y' },
      { ip: freshIp() },
    );
    assert.equal(viaToken.status, 200, viaToken.text);
  });

  it('refuses answers after submission (409)', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
    const q = started.test_details.questions[0];
    expectError(
      await post(
        `/api/attempts/${started.attempt_id}/answers`,
        { question_id: q.id, student_answer: 'x' },
        as(student.token),
      ),
      409,
      'CONFLICT',
    );
  });

  it('takes an answer within the 30 s grace, refuses one after it (409) and closes the attempt with the answers saved in time', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    const byText = (t: string) => started.test_details.questions.find((q: any) => q.question_text === t);
    const path = `/api/attempts/${started.attempt_id}/answers`;
    await expire(m.tenant.clientId, started.attempt_id, 10); // 10 s past expires_at: inside the grace
    const inGrace = await post(
      path,
      { question_id: byText('Capital of France?').id, student_answer: 'Paris' },
      as(student.token),
    );
    assert.equal(inGrace.status, 200, inGrace.text);
    await expire(m.tenant.clientId, started.attempt_id, 31);
    expectError(
      await post(path, { question_id: byText('Spell cat').id, student_answer: 'cat' }, as(student.token)),
      409,
      'CONFLICT',
    );
    const stored = (await attemptDoc(m.tenant.clientId, started.attempt_id).get()).data()!;
    assert.equal(stored.status, 'submitted');
    assert.equal(stored.score, 1);
    assert.equal(stored.answers[byText('Spell cat').id], undefined);
  });
});

describe('POST /api/attempts/{attemptId}/submit', () => {
  it('scores every question type by the marking scheme, once: a second submit is 409 and the score stays', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    for (const q of started.test_details.questions) {
      const saved = await post(
        `/api/attempts/${started.attempt_id}/answers`,
        { question_id: q.id, student_answer: answerOf(q.question_text) },
        as(student.token),
      );
      assert.equal(saved.status, 200, saved.text);
    }
    const res = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), [
      'grading',
      'pending_marks',
      'score',
      'status',
      'submitted_at',
      'total_marks',
    ]);
    assert.equal(res.body.grading, null, 'no essays: nothing to grade');
    assert.equal(res.body.pending_marks, 0);
    assert.equal(res.body.status, 'submitted');
    assert.equal(res.body.score, 6);
    assert.equal(res.body.total_marks, 6);
    assert.match(res.body.submitted_at, ISO_UTC);
    expectError(
      await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token)),
      409,
      'CONFLICT',
    );
    assert.equal((await attemptDoc(m.tenant.clientId, started.attempt_id).get()).get('score'), 6);
    const [record] = await auditRecordsFor(student.uid, 'attempt_submitted');
    assert.equal(record.details.automatic, false);
    assert.equal(record.details.score, 6);
  });

  it('takes negative marks for wrong answers when negative_marking is 1, never below 0', async () => {
    const qs = await mixedQuestions(m.tenant.clientId);
    const { test: negative } = await publishTest(m.tenant.admin.token, m.tenant.clientId, {
      questions: qs,
      extra: { negative_marking: 1, negative_mark_ratio: 0.5 },
    });
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: negative.id });
    const byText = (t: string) => started.test_details.questions.find((q: any) => q.question_text === t);
    const save = (t: string, a: string) =>
      post(
        `/api/attempts/${started.attempt_id}/answers`,
        { question_id: byText(t).id, student_answer: a },
        as(student.token),
      );
    await save('Capital of France?', 'Paris'); // +1
    await save('Primes?', '2'); // -1 (half of 2)
    await save('Spell cat', 'dog'); // -0.5
    const res = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
    assert.equal(res.body.score, 0, 'the total -0.5 is raised to 0');
  });

  it('scores a numeric answer with a decimal comma as its point form ("1,41" against 1.41 ± 0.01), keeps it as typed, and scores "1,234" and a word as wrong', async () => {
    const numeric = await writeQuestion(m.tenant.clientId, {
      question_text: 'Square root of 2',
      question_type: 'numeric',
      options: [],
      correct_answer: '1.41',
      tolerance: 0.01,
      marks: 2,
    });
    const { test: commaTest } = await publishTest(m.tenant.admin.token, m.tenant.clientId, {
      questions: [numeric],
      extra: { allow_review: 1, negative_marking: 1, negative_mark_ratio: 0.25 },
    });
    const scoreOf = async (answer: string) => {
      const student = await newStudent();
      const started = await startOk(student.token, { test_id: commaTest.id });
      const saved = await post(
        `/api/attempts/${started.attempt_id}/answers`,
        { question_id: numeric.id, student_answer: answer },
        as(student.token),
      );
      assert.equal(saved.status, 200, saved.text);
      assert.equal(saved.body.student_answer, answer, 'saved as sent');
      const submitted = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
      assert.equal(submitted.status, 200, submitted.text);
      const read = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
      const [item] = read.body.review;
      return { score: submitted.body.score, shown: item.student_answer, marks: item.marks_awarded };
    };
    assert.deepEqual(await scoreOf('1,41'), { score: 2, shown: '1,41', marks: 2 });
    assert.deepEqual(await scoreOf('1,234'), { score: 0, shown: '1,234', marks: -0.5 });
    assert.deepEqual(await scoreOf('Rome'), { score: 0, shown: 'Rome', marks: -0.5 });
  });

  it('refuses another student (403) and another organization’s admin (403); a guest submits with its token', async () => {
    const [a, b] = await Promise.all([newStudent(), newStudent()]);
    const started = await startOk(a.token, { test_id: test.id });
    expectError(await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(b.token)), 403, 'FORBIDDEN');
    expectError(
      await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(m.otherTenant.admin.token)),
      403,
      'FORBIDDEN',
    );
    const code = await writeShareCode(m.tenant.clientId, test.id);
    const guest = await signInAnonymously();
    const mine = await startOk(guest.token, { share_code: code });
    expectError(
      await post(`/api/attempts/${mine.attempt_id}/submit${tokenQuery(started.attempt_token)}`, undefined, {
        ip: freshIp(),
      }),
      403,
      'FORBIDDEN',
    );
    const res = await post(`/api/attempts/${mine.attempt_id}/submit${tokenQuery(mine.attempt_token)}`, undefined, {
      ip: freshIp(),
    });
    assert.equal(res.status, 200, res.text);
  });
});

describe('GET /api/attempts', () => {
  it('shows a Student its own attempts only; naming another student is 403', async () => {
    const [a, b] = await Promise.all([newStudent(), newStudent()]);
    const [mine] = await Promise.all([startOk(a.token, { test_id: test.id }), startOk(b.token, { test_id: test.id })]);
    const res = await get('/api/attempts', as(a.token));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.data.map((x: any) => x.attempt_id),
      [mine.attempt_id],
    );
    assert.ok(!/"answers"|"test_details"/.test(res.text));
    expectError(await get(`/api/attempts?student_id=${b.uid}`, as(a.token)), 403, 'FORBIDDEN');
  });

  it('shows a Client Admin its organization’s attempts, filtered by test, student and status, each with how many answers it saved; another organization is 403', async () => {
    const student = await newStudent();
    const started = await startOk(student.token, { test_id: test.id });
    // Two answers, and a third cleared: a blank answer is no answer, as scoring counts it.
    for (const [i, q] of started.test_details.questions.slice(0, 3).entries()) {
      const saved = await post(
        `/api/attempts/${started.attempt_id}/answers`,
        { question_id: q.id, student_answer: i < 2 ? 'x' : '  ' },
        as(student.token),
      );
      assert.equal(saved.status, 200, saved.text);
    }
    const res = await get(
      `/api/attempts?test_id=${test.id}&student_id=${student.uid}&status=in_progress`,
      as(m.tenant.admin.token),
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.data.map((x: any) => x.attempt_id),
      [started.attempt_id],
    );
    assert.equal(res.body.data[0].answered, 2);
    assert.equal(res.body.pagination.total, 1);
    const submitted = await get(`/api/attempts?student_id=${student.uid}&status=submitted`, as(m.tenant.admin.token));
    assert.equal(submitted.body.data.length, 0);
    expectError(
      await get(`/api/attempts?client_id=${m.tenant.clientId}`, as(m.otherTenant.admin.token)),
      403,
      'FORBIDDEN',
    );
  });

  it('needs client_id from a Super Admin (400) and answers with it', async () => {
    expectValidation(await get('/api/attempts', as(m.superAdmin.token)), ['query.client_id']);
    const res = await get(`/api/attempts?client_id=${m.tenant.clientId}&limit=1`, as(m.superAdmin.token));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.length, 1);
  });

  it('shows a Guest its own attempts', async () => {
    const code = await writeShareCode(m.tenant.clientId, test.id);
    const guest = await signInAnonymously();
    const started = await startOk(guest.token, { share_code: code });
    const res = await get('/api/attempts', as(guest.token));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.data.map((x: any) => x.attempt_id),
      [started.attempt_id],
    );
    expectError(await get(`/api/attempts?client_id=${m.tenant.clientId}`, as(guest.token)), 403, 'FORBIDDEN');
  });

  describe('a Guest paging by cursor (a collection-group list across organizations)', () => {
    let guest: Awaited<ReturnType<typeof signInAnonymously>>;
    let newestFirst: string[];
    let othersAttempt: { clientId: string; attemptId: string; startedAt: string };
    const cursorOf = (page: number, startedAt: string, key: string) =>
      Buffer.from(JSON.stringify([page, startedAt, key])).toString('base64url');

    before(async function () {
      this.timeout(60_000);
      // Three attempts: two tests of one organization and one of another.
      const [{ test: second }, { test: elsewhere }] = await Promise.all([
        publishTest(m.tenant.admin.token, m.tenant.clientId),
        publishTest(m.otherTenant.admin.token, m.otherTenant.clientId),
      ]);
      const codes = await Promise.all([
        writeShareCode(m.tenant.clientId, test.id),
        writeShareCode(m.tenant.clientId, second.id),
        writeShareCode(m.otherTenant.clientId, elsewhere.id),
      ]);
      guest = await signInAnonymously();
      const started: string[] = [];
      for (const code of codes) started.push((await startOk(guest.token, { share_code: code })).attempt_id);
      newestFirst = started.reverse();
      const stranger = await createUser('student', m.otherTenant.clientId);
      const theirs = await startOk(stranger.token, { test_id: elsewhere.id });
      othersAttempt = { clientId: m.otherTenant.clientId, attemptId: theirs.attempt_id, startedAt: theirs.started_at };
    });

    it('walks its 3 attempts with limit=1 by next_cursor, each exactly once, newest first, the last page with next_cursor null', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 1; page <= 3; page += 1) {
        const res: ApiResponse = await get(
          `/api/attempts?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
          as(guest.token),
        );
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.pagination.page, page);
        assert.equal(res.body.pagination.total, 3);
        seen.push(...res.body.data.map((x: any) => x.attempt_id));
        cursor = res.body.pagination.next_cursor;
        if (page < 3) assert.equal(typeof cursor, 'string', res.text);
      }
      assert.equal(cursor, null);
      assert.deepEqual(seen, newestFirst);
    });

    it('a cursor forged to point at another organization’s attempt only moves where its own list resumes: 200 with its own attempts only', async () => {
      const forged = cursorOf(
        1,
        '9999-12-31T00:00:00.000Z',
        `clients/${othersAttempt.clientId}/attempts/${othersAttempt.attemptId}`,
      );
      const res = await get(`/api/attempts?limit=100&cursor=${forged}`, as(guest.token));
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body.data.map((x: any) => x.attempt_id),
        newestFirst,
      );
      for (const item of res.body.data) assert.equal(item.student_id, guest.uid);
      const atTheirs = cursorOf(
        1,
        othersAttempt.startedAt,
        `clients/${othersAttempt.clientId}/attempts/${othersAttempt.attemptId}`,
      );
      const resumed = await get(`/api/attempts?limit=100&cursor=${atTheirs}`, as(guest.token));
      assert.equal(resumed.status, 200, resumed.text);
      assert.ok(
        resumed.body.data.every((x: any) => x.student_id === guest.uid && x.attempt_id !== othersAttempt.attemptId),
        resumed.text,
      );
    });

    it('refuses a cursor whose key is a bare id or not a document path (400 VALIDATION_ERROR at query.cursor)', async () => {
      for (const key of [
        newestFirst[0],
        `clients/${m.tenant.clientId}/attempts`,
        `clients//attempts/${newestFirst[0]}`,
      ]) {
        expectValidation(
          await get(`/api/attempts?limit=1&cursor=${cursorOf(1, '2026-01-01T00:00:00.000Z', key)}`, as(guest.token)),
          ['query.cursor'],
        );
      }
    });
  });
});
