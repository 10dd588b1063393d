import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { FieldValue } from 'firebase-admin/firestore';
import { expectError, expectValidation, ISO_UTC } from '../support/assertions';
import { createRoleMatrix, createUser, signInAnonymously, type RoleMatrix } from '../support/fixtures';
import { freshIp, get, post } from '../support/http';
import { attemptDoc, publishTest, startOk, tokenQuery, writeShareCode } from '../attempts/fixtures';
import { as } from '../exams/fixtures';
import { essayTest } from '../grading/fixtures';

// GET /api/analytics/students/{studentId} over HTTP (Hosting → Functions
// emulator → Firestore and Auth emulators), with real tokens. Attempts are
// started, answered and submitted through the API; the expected figures are
// computed here from the scores the submits answered.

let m: RoleMatrix;
let testA: any; // 2 questions × 2 marks = 4
let testB: any; // 3 questions × 2 marks = 6

const RIGHT = '4'; // the key of every default fixture question ('What is 2 + 2?')
const WRONG = '3';

const path = (studentId: string, query = '') => `/api/analytics/students/${encodeURIComponent(studentId)}${query}`;
const read = (token: string, studentId: string, query = '') => get(path(studentId, query), as(token));
const newStudent = () => createUser('student', m.tenant.clientId);

interface Submitted {
  attempt_id: string;
  test_id: string;
  score: number;
  total_marks: number;
  submitted_at: string;
}

/** Starts the test for the student, answers `right` questions right and the rest wrong, and submits. */
async function take(token: string, test: any, right: number): Promise<Submitted> {
  const started = await startOk(token, { test_id: test.id });
  for (const [i, q] of started.test_details.questions.entries()) {
    const saved = await post(
      `/api/attempts/${started.attempt_id}/answers`,
      { question_id: q.id, student_answer: i < right ? RIGHT : WRONG },
      as(token),
    );
    assert.equal(saved.status, 200, saved.text);
  }
  const res = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(token));
  assert.equal(res.status, 200, res.text);
  return {
    attempt_id: started.attempt_id,
    test_id: test.id,
    score: res.body.score,
    total_marks: res.body.total_marks,
    submitted_at: res.body.submitted_at,
  };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const close = (actual: number | null, expected: number, what: string) =>
  assert.ok(actual !== null && Math.abs(actual - expected) <= 0.00005 + 1e-9, `${what}: ${actual} ≠ ${expected}`);
const decimals = (value: number) => (String(value).split('.')[1] ?? '').length;

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
  ({ test: testA } = await publishTest(m.tenant.admin.token, m.tenant.clientId, {
    count: 2,
    extra: { test_name: 'Fractions quiz' },
  }));
  ({ test: testB } = await publishTest(m.tenant.admin.token, m.tenant.clientId, {
    count: 3,
    extra: { test_name: 'Geometry final' },
  }));
});

describe('GET /api/analytics/students/{studentId}', () => {
  // One student with three submitted attempts on two tests (in this order) and one in progress.
  let busy: Awaited<ReturnType<typeof newStudent>>;
  let submitted: Submitted[];
  let inProgress: string;

  before(async function () {
    this.timeout(60_000);
    busy = await newStudent();
    submitted = [];
    submitted.push(await take(busy.token, testA, 2)); // 4 / 4
    submitted.push(await take(busy.token, testA, 1)); // 2 / 4
    submitted.push(await take(busy.token, testB, 1)); // 2 / 6
    inProgress = (await startOk(busy.token, { test_id: testA.id })).attempt_id;
  });

  it('answers the fields and figures of the submitted attempts on two tests', async () => {
    const res = await read(m.tenant.admin.token, busy.uid);
    assert.equal(res.status, 200, res.text);
    const body = res.body;
    assert.deepEqual(Object.keys(body).sort(), [
      'average_percentage',
      'average_score',
      'best_percentage',
      'client_id',
      'completed',
      'data',
      'pagination',
      'pending_grading',
      'student_id',
      'total_attempts',
    ]);
    assert.equal(body.student_id, busy.uid);
    assert.equal(body.client_id, m.tenant.clientId);
    assert.equal(body.completed, 3);
    assert.deepEqual(
      submitted.map((s) => [s.score, s.total_marks]),
      [
        [4, 4],
        [2, 4],
        [2, 6],
      ],
      'the fixture scores as intended',
    );
    const percentages = submitted.map((s) => (s.score / s.total_marks) * 100);
    close(body.average_score, mean(submitted.map((s) => s.score)), 'average_score');
    close(body.average_percentage, mean(percentages), 'average_percentage');
    close(body.best_percentage, Math.max(...percentages), 'best_percentage');
    for (const figure of ['average_score', 'average_percentage', 'best_percentage']) {
      assert.ok(decimals(body[figure]) <= 4, `${figure} has at most 4 decimals: ${body[figure]}`);
    }

    const newest = submitted[submitted.length - 1];
    const row = body.data[0];
    assert.deepEqual(Object.keys(row).sort(), [
      'attempt_id',
      'auto_submitted',
      'grading',
      'pending_marks',
      'percentage',
      'score',
      'submitted_at',
      'test_id',
      'test_name',
      'total_marks',
      'version',
    ]);
    assert.equal(row.attempt_id, newest.attempt_id);
    assert.equal(row.test_id, testB.id);
    assert.equal(row.test_name, 'Geometry final');
    assert.equal(row.version, 1);
    assert.equal(row.score, 2);
    assert.equal(row.total_marks, 6);
    close(row.percentage, (2 / 6) * 100, 'row percentage');
    assert.equal(row.submitted_at, newest.submitted_at);
    assert.match(row.submitted_at, ISO_UTC);
    assert.equal(row.auto_submitted, false);
  });

  it('counts the attempt in progress in total_attempts, not in completed or the rows', async () => {
    const res = await read(m.tenant.admin.token, busy.uid);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.total_attempts, 4);
    assert.equal(res.body.completed, 3);
    assert.equal(res.body.pagination.total, 3);
    assert.ok(!res.body.data.some((r: any) => r.attempt_id === inProgress));
  });

  it('lists the submitted attempts newest first, a page at a time (limit, then the cursor)', async () => {
    const newestFirst = [...submitted].reverse().map((s) => s.attempt_id);
    const all = await read(busy.token, busy.uid);
    assert.deepEqual(
      all.body.data.map((r: any) => r.attempt_id),
      newestFirst,
    );
    const submittedAts = all.body.data.map((r: any) => r.submitted_at);
    assert.deepEqual(submittedAts, [...submittedAts].sort().reverse());

    const seen: string[] = [];
    let res = await read(busy.token, busy.uid, '?limit=1');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.pagination.total, 3);
    seen.push(...res.body.data.map((r: any) => r.attempt_id));
    while (res.body.pagination.next_cursor) {
      res = await read(busy.token, busy.uid, `?limit=1&cursor=${encodeURIComponent(res.body.pagination.next_cursor)}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.length, 1);
      seen.push(...res.body.data.map((r: any) => r.attempt_id));
    }
    assert.deepEqual(seen, newestFirst);
    const second = await read(busy.token, busy.uid, '?limit=1&page=2');
    assert.deepEqual(
      second.body.data.map((r: any) => r.attempt_id),
      [newestFirst[1]],
    );
    // The figures describe every submitted attempt, whatever the page.
    assert.equal(second.body.completed, 3);
    assert.equal(second.body.total_attempts, 4);
  });

  it('lets a Student read itself (200) and refuses another student (403) or another organization (403)', async () => {
    const mine = await read(busy.token, busy.uid);
    assert.equal(mine.status, 200, mine.text);
    assert.equal(mine.body.completed, 3);
    const other = await newStudent();
    expectError(await read(other.token, busy.uid), 403, 'FORBIDDEN');
    expectError(await read(busy.token, m.tenant.student.uid), 403, 'FORBIDDEN');
    expectError(await read(busy.token, busy.uid, `?client_id=${m.otherTenant.clientId}`), 403, 'FORBIDDEN');
    const same = await read(busy.token, busy.uid, `?client_id=${m.tenant.clientId}`);
    assert.equal(same.status, 200, same.text);
  });

  it('lets a Client Admin read its organization’s student (200); another organization’s student or naming another client_id is 403', async () => {
    const res = await read(m.tenant.admin.token, m.tenant.student.uid);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.client_id, m.tenant.clientId);
    expectError(await read(m.otherTenant.admin.token, busy.uid), 403, 'FORBIDDEN');
    expectError(await read(m.otherTenant.admin.token, m.tenant.admin.uid), 403, 'FORBIDDEN');
    expectError(await read(m.tenant.admin.token, busy.uid, `?client_id=${m.otherTenant.clientId}`), 403, 'FORBIDDEN');
  });

  it('answers 404 for a uid that is no user, to a Client Admin and to a Super Admin', async () => {
    const unknown = `nobody-${randomUUID()}`;
    expectError(await read(m.tenant.admin.token, unknown), 404, 'NOT_FOUND');
    expectError(await read(m.superAdmin.token, unknown), 404, 'NOT_FOUND');
    expectError(await read(m.superAdmin.token, unknown, `?client_id=${m.tenant.clientId}`), 404, 'NOT_FOUND');
    expectError(await read(m.tenant.admin.token, 'a/b'), 404, 'NOT_FOUND');
  });

  it('lets a Super Admin read any student: the organization from the student’s account, or the client_id it names', async () => {
    const own = await read(m.superAdmin.token, busy.uid);
    assert.equal(own.status, 200, own.text);
    assert.equal(own.body.client_id, m.tenant.clientId);
    assert.equal(own.body.completed, 3);
    const named = await read(m.superAdmin.token, busy.uid, `?client_id=${m.tenant.clientId}`);
    assert.equal(named.status, 200, named.text);
    assert.deepEqual(named.body, own.body);
    const elsewhere = await read(m.superAdmin.token, busy.uid, `?client_id=${m.otherTenant.clientId}`);
    assert.equal(elsewhere.status, 200, elsewhere.text);
    assert.equal(elsewhere.body.client_id, m.otherTenant.clientId);
    assert.equal(elsewhere.body.total_attempts, 0, 'no attempts in the organization named');
    expectError(await read(m.superAdmin.token, busy.uid, `?client_id=${randomUUID()}`), 404, 'NOT_FOUND');
  });

  it('answers a Guest’s attempts in the organization: to its Client Admin, and to a Super Admin naming client_id (without it 400)', async function () {
    this.timeout(30_000);
    const code = await writeShareCode(m.tenant.clientId, testA.id);
    const guest = await signInAnonymously();
    const started = await startOk(guest.token, { share_code: code, guest_name: 'Ada' });
    const submit = await post(
      `/api/attempts/${started.attempt_id}/submit${tokenQuery(started.attempt_token)}`,
      undefined,
      { ip: freshIp() },
    );
    assert.equal(submit.status, 200, submit.text);

    const byAdmin = await read(m.tenant.admin.token, guest.uid);
    assert.equal(byAdmin.status, 200, byAdmin.text);
    assert.equal(byAdmin.body.total_attempts, 1);
    assert.equal(byAdmin.body.completed, 1);
    assert.deepEqual(
      byAdmin.body.data.map((r: any) => r.attempt_id),
      [started.attempt_id],
    );
    assert.equal(byAdmin.body.average_score, 0);
    assert.equal(byAdmin.body.best_percentage, 0);

    expectValidation(await read(m.superAdmin.token, guest.uid), ['query.client_id']);
    const bySuper = await read(m.superAdmin.token, guest.uid, `?client_id=${m.tenant.clientId}`);
    assert.equal(bySuper.status, 200, bySuper.text);
    assert.deepEqual(bySuper.body, byAdmin.body);
  });

  it('refuses a Guest token (403), even for itself', async () => {
    expectError(await read(m.guest.token, busy.uid), 403, 'FORBIDDEN');
    expectError(await read(m.guest.token, m.guest.uid), 403, 'FORBIDDEN');
  });

  it('answers zeros and nulls for a student with no attempts', async () => {
    const idle = await newStudent();
    for (const token of [idle.token, m.tenant.admin.token, m.superAdmin.token]) {
      const res = await read(token, idle.uid);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        { ...res.body, pagination: undefined },
        {
          student_id: idle.uid,
          client_id: m.tenant.clientId,
          total_attempts: 0,
          completed: 0,
          pending_grading: 0,
          average_score: null,
          average_percentage: null,
          best_percentage: null,
          data: [],
          pagination: undefined,
        },
      );
      assert.equal(res.body.pagination.total, 0);
      assert.equal(res.body.pagination.next_cursor, null);
    }
  });

  it('leaves an attempt awaiting an essay grade out of completed, the averages and the best (pending_grading), and counts it once when graded', async function () {
    this.timeout(30_000);
    const student = await newStudent();
    const final = await take(student.token, testA, 1); // 2 / 4 = 50 %
    const { test, essays, choice } = await essayTest(m.tenant.admin.token, m.tenant.clientId);
    const started = await startOk(student.token, { test_id: test.id });
    const answers = [
      { question_id: choice.id, student_answer: '4' },
      { question_id: essays[0].id, student_answer: 'Plants turn light into sugar.' },
    ];
    assert.equal(
      (await post(`/api/attempts/${started.attempt_id}/answers`, { answers }, as(student.token))).status,
      200,
    );
    const done = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
    assert.deepEqual([done.body.score, done.body.total_marks, done.body.grading], [2, 12, 'pending']);

    const pending = await read(m.tenant.admin.token, student.uid);
    assert.equal(pending.status, 200, pending.text);
    assert.equal(pending.body.total_attempts, 2);
    assert.equal(pending.body.completed, 1, 'the pending attempt is not complete');
    assert.equal(pending.body.pending_grading, 1);
    assert.equal(pending.body.average_score, final.score);
    assert.equal(pending.body.average_percentage, 50);
    assert.equal(pending.body.best_percentage, 50);
    const [pendingRow, finalRow] = pending.body.data;
    assert.equal(pendingRow.attempt_id, started.attempt_id);
    assert.equal(pendingRow.grading, 'pending');
    assert.equal(pendingRow.pending_marks, 10);
    assert.equal(pendingRow.percentage, null, 'no percentage until the score is final');
    assert.equal(finalRow.grading, null);

    const graded = await post(
      `/api/attempts/${started.attempt_id}/grades`,
      { question_id: essays[0].id, marks: 10 },
      as(m.tenant.admin.token),
    );
    assert.equal(graded.status, 200, graded.text);
    const after = await read(m.tenant.admin.token, student.uid);
    assert.equal(after.body.total_attempts, 2);
    assert.equal(after.body.completed, 2);
    assert.equal(after.body.pending_grading, 0);
    assert.equal(after.body.average_score, 7); // (2 + 12) / 2
    assert.equal(after.body.average_percentage, 75); // (50 + 100) / 2
    assert.equal(after.body.best_percentage, 100);
    assert.equal(after.body.data[0].grading, 'complete');
    assert.equal(after.body.data[0].percentage, 100);
  });

  it('names the test and figures the percentage of an older attempt stored without them', async () => {
    const student = await newStudent();
    const taken = await take(student.token, testA, 1);
    await attemptDoc(m.tenant.clientId, taken.attempt_id).update({
      test_name: FieldValue.delete(),
      percentage: FieldValue.delete(),
    });
    const res = await read(m.tenant.admin.token, student.uid);
    assert.equal(res.status, 200, res.text);
    const [row] = res.body.data;
    assert.equal(row.attempt_id, taken.attempt_id);
    assert.equal(row.test_name, 'Fractions quiz', 'from the frozen version');
    assert.equal(row.percentage, 50);
  });
});
