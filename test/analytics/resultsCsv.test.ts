import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { FieldValue } from 'firebase-admin/firestore';
import { EventEmitter } from 'node:events';
import { parse } from '../../functions/node_modules/csv-parse/dist/cjs/sync.cjs';
import { EXPORT_PAGE_SIZE, resultsCsv } from '../../functions/src/analytics/resultsExport';
import { FIXED_COLUMNS } from '../../functions/src/analytics/resultsRows';
import type { StoredAttempt } from '../../functions/src/attempts/documents';
import type { Principal } from '../../functions/src/auth/principal';
import type { Reply } from '../../functions/src/http/route';
import { adminDb } from '../support/admin';
import { BASE_URL } from '../support/env';
import { expectError } from '../support/assertions';
import { createRoleMatrix, createUser, signInAnonymously, type RoleMatrix } from '../support/fixtures';
import { failReads, duringFault } from '../support/faults';
import { api, freshIp, get, post, type ApiResponse } from '../support/http';
import { startInProcessApi } from '../support/inProcessApi';
import { attemptDoc, expire, publishTest, startOk, writeShareCode } from '../attempts/fixtures';
import {
  as,
  clientDoc,
  createTestAs,
  validTest,
  versionDoc,
  writeFolder,
  writeQuestion,
  type QuestionFixture,
} from '../exams/fixtures';
import { essayTest } from '../grading/fixtures';

/** The integrity columns of an attempt without events: each count and the total 0. */
const NO_EVENTS = Array<string>(8).fill('0');

// The results export over HTTP (Hosting → Functions emulator → Firestore
// emulator). Attempts are taken through the API where their path matters and
// written straight into Firestore, in attempts/rules.ts StoredAttempt's shape,
// where only their number or their stored text does. A Firestore outage is
// injected in-process, and the streaming loop is driven with a stand-in
// response to check backpressure and disconnects.

let m: RoleMatrix;

const csvPath = (testId: string, query = '') => `/api/analytics/tests/${testId}/results.csv${query}`;
const readCsv = (testId: string, token: string | undefined, query = '') => get(csvPath(testId, query), as(token));

/** The export counts against the strict per-user limit (10 a minute): each export here is made by a fresh administrator of the tenant. */
const exporter = async (): Promise<string> => (await createUser('client_admin', m.tenant.clientId)).token;
// The reply's text has lost its byte order mark (fetch's UTF-8 decoding drops it): the bytes are read where it matters.
const rowsOf = (res: ApiResponse): string[][] => parse(res.text, { bom: true });
/** The columns the export had before it named classes, emails, candidate numbers and local times: most checks here are about the rest. */
const NEW_COLUMNS = ['student_email', 'classes', 'candidate_number', 'Started (UTC)', 'Submitted (UTC)'];
const withoutNew = (row: string[]): string[] =>
  row.filter((_, i) => !NEW_COLUMNS.includes((FIXED_COLUMNS as readonly string[])[i] ?? ''));
const col = (name: string) => (FIXED_COLUMNS as readonly string[]).indexOf(name);
/** The export's bytes as sent. */
async function csvBytes(testId: string, token: string): Promise<Buffer> {
  const res = await fetch(`${BASE_URL}${csvPath(testId)}`, {
    headers: { Authorization: `Bearer ${token}`, 'X-Forwarded-For': freshIp() },
  });
  assert.equal(res.status, 200);
  return Buffer.from(await res.arrayBuffer());
}

function expectCsv(res: ApiResponse): string[][] {
  assert.equal(res.status, 200, res.text);
  assert.match(res.headers.get('content-type') ?? '', /^text\/csv; charset=utf-8$/i);
  return rowsOf(res);
}

/** Content-Disposition: attachment, named (quoted or not: both are the same header). */
function expectAttachment(res: ApiResponse, fileName: string): void {
  const header = res.headers.get('content-disposition') ?? '';
  assert.ok([`attachment; filename=${fileName}`, `attachment; filename="${fileName}"`].includes(header), header);
}

const submit = (attemptId: string, token: string) => post(`/api/attempts/${attemptId}/submit`, undefined, as(token));
const answer = (attemptId: string, token: string, questionId: string, text: string) =>
  post(`/api/attempts/${attemptId}/answers`, { question_id: questionId, student_answer: text }, as(token));

async function submitted(
  token: string,
  body: Record<string, unknown>,
  answers: Array<[string, string]>,
): Promise<string> {
  const started = await startOk(token, body);
  for (const [questionId, text] of answers)
    assert.equal((await answer(started.attempt_id, token, questionId, text)).status, 200);
  const res = await submit(started.attempt_id, token);
  assert.equal(res.status, 200, res.text);
  return started.attempt_id;
}

const setDisplayName = (clientId: string, uid: string, name: string) =>
  clientDoc(clientId).collection('users').doc(uid).update({ display_name: name });

let sequence = 0;
/** A submitted attempt as the submit stores it, written directly (only what the export reads varies). */
function storedAttempt(
  clientId: string,
  test: { id: string; version: number },
  question: QuestionFixture,
  o: Partial<StoredAttempt>,
): StoredAttempt {
  sequence += 1;
  const id = o.id ?? `${clientId}.fixture${String(sequence).padStart(15, '0')}`;
  const submittedAt = o.submitted_at ?? new Date().toISOString();
  const marks = o.score ?? 0;
  return {
    id,
    client_id: clientId,
    test_id: test.id,
    test_name: 'Algebra midterm',
    version: test.version,
    student_id: `student-${sequence}`,
    guest: false,
    guest_name: null,
    share_code: null,
    started_by: `student-${sequence}`,
    status: 'submitted',
    started_at: new Date(Date.parse(submittedAt) - 60_000).toISOString(),
    expires_at: new Date(Date.parse(submittedAt) + 60_000).toISOString(),
    submitted_at: submittedAt,
    auto_submitted: false,
    answers: {},
    question_order: [question.id],
    token_hash: 'f'.repeat(64),
    score: marks,
    total_marks: question.marks,
    percentage: (marks / question.marks) * 100,
    results: [{ question_id: question.id, answered: marks > 0, correct: marks > 0, marks_awarded: marks }],
    ...o,
  };
}

async function writeAttempts(clientId: string, attempts: StoredAttempt[]): Promise<void> {
  for (let i = 0; i < attempts.length; i += 500) {
    const batch = adminDb.batch();
    for (const attempt of attempts.slice(i, i + 500)) batch.set(attemptDoc(clientId, attempt.id), attempt);
    await batch.commit();
  }
}

/** A published test with one question worth 2 marks, for attempts written directly. */
async function oneQuestionTest(): Promise<{ test: any; question: QuestionFixture }> {
  const question = await writeQuestion(m.tenant.clientId, { question_text: 'Only question', marks: 2 });
  const { test } = await publishTest(m.tenant.admin.token, m.tenant.clientId, { questions: [question] });
  return { test, question };
}

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
});

describe('GET /api/analytics/tests/{testId}/results.csv', function () {
  this.timeout(120_000);

  it('answers one row per submitted attempt, oldest submission first, with names, figures and marks per question', async () => {
    const { clientId } = m.tenant;
    const questions = await Promise.all([
      writeQuestion(clientId, {
        question_text: '  Capital\nof France? ',
        options: ['Paris', 'Rome'],
        correct_answer: 'Paris',
        marks: 1,
      }),
      writeQuestion(clientId, {
        question_text: 'Spell cat',
        question_type: 'short_answer',
        options: [],
        correct_answer: 'cat',
        marks: 2,
      }),
      writeQuestion(clientId, {
        question_text: `A long question ${'x'.repeat(80)}`,
        question_type: 'true_false',
        options: ['True', 'False'],
        correct_answer: 'True',
        marks: 1,
      }),
    ]);
    const [france, cat, long] = questions;
    const { test } = await publishTest(m.tenant.admin.token, clientId, { questions });
    const [ada, bob, cleo, dan] = await Promise.all([1, 2, 3, 4].map(() => createUser('student', clientId)));
    await Promise.all([setDisplayName(clientId, ada.uid, 'Ada Lovelace'), setDisplayName(clientId, cleo.uid, 'Cleo')]);

    // Cleo's time ran out a minute ago: closed automatically, dated at its expiry, so it is the oldest submission.
    const cleoStarted = await startOk(cleo.token, { test_id: test.id });
    await answer(cleoStarted.attempt_id, cleo.token, france.id, 'Paris');
    const adaAttempt = await submitted(ada.token, { test_id: test.id }, [
      [france.id, 'Paris'],
      [cat.id, 'dog'],
    ]);
    const code = await writeShareCode(clientId, test.id);
    const guest = await signInAnonymously();
    const guestAttempt = await submitted(guest.token, { share_code: code, guest_name: 'Grace Hopper' }, [
      [france.id, 'Rome'],
      [cat.id, 'CAT'],
      [long.id, 'true'],
    ]);
    const danAttempt = await submitted(dan.token, { test_id: test.id }, [[long.id, 'false']]);
    await clientDoc(clientId).collection('users').doc(dan.uid).delete(); // a student whose profile is gone: no name
    await expire(clientId, cleoStarted.attempt_id);
    assert.equal((await get(`/api/attempts/${cleoStarted.attempt_id}`, as(cleo.token))).status, 200);
    await startOk(bob.token, { test_id: test.id }); // in progress: not a result

    const res = await readCsv(test.id, await exporter());
    const rows = expectCsv(res);
    expectAttachment(res, `results-${test.id}-v1.csv`);
    assert.deepEqual(rows[0], [
      ...FIXED_COLUMNS,
      'Q1 · Capital of France?',
      'Q2 · Spell cat',
      `Q3 · A long question ${'x'.repeat(43)}…`,
    ]);
    for (const row of rows) row.splice(0, row.length, ...withoutNew(row));
    assert.equal(rows.length, 5, res.text);

    const stored = await Promise.all(
      [cleoStarted.attempt_id, adaAttempt, guestAttempt, danAttempt].map(async (id) =>
        (await attemptDoc(clientId, id).get()).data()!,
      ),
    );
    const [cleoDoc, adaDoc, guestDoc, danDoc] = stored;
    assert.deepEqual(
      rows.slice(1).map((r) => r[0]),
      [cleoDoc, adaDoc, guestDoc, danDoc].map((d) => d.id),
      'ordered by submitted_at',
    );
    assert.deepEqual(rows[1], [
      cleoDoc.id,
      cleo.uid,
      'Cleo',
      '1',
      '4',
      '25',
      cleoDoc.submitted_at,
      'true',
      '',
      ...NO_EVENTS,
      '1',
      '',
      '',
    ]);
    assert.deepEqual(rows[2], [
      adaDoc.id,
      ada.uid,
      'Ada Lovelace',
      '1',
      '4',
      '25',
      adaDoc.submitted_at,
      'false',
      '',
      ...NO_EVENTS,
      '1',
      '0',
      '',
    ]);
    assert.deepEqual(rows[3], [
      guestDoc.id,
      guest.uid,
      'Grace Hopper',
      '3',
      '4',
      '75',
      guestDoc.submitted_at,
      'false',
      '',
      ...NO_EVENTS,
      '0',
      '2',
      '1',
    ]);
    assert.deepEqual(rows[4], [
      danDoc.id,
      dan.uid,
      '',
      '0',
      '4',
      '0',
      danDoc.submitted_at,
      'false',
      '',
      ...NO_EVENTS,
      '',
      '',
      '0',
    ]);
  });

  it('says pending for an attempt whose essay awaits its grade, with that essay’s cell and the percentage empty, and the grade once given', async () => {
    const { clientId } = m.tenant;
    const { test, essays, choice } = await essayTest(m.tenant.admin.token, clientId);
    const student = await createUser('student', clientId);
    const attemptId = await submitted(student.token, { test_id: test.id }, [
      [choice.id, '4'],
      [essays[0].id, 'Plants turn light into sugar.'],
    ]);
    const column = (rows: string[][], name: string) => rows[0].indexOf(name);

    let rows = expectCsv(await readCsv(test.id, await exporter()));
    assert.equal(rows.length, 2, rows.join('\n'));
    assert.notEqual(column(rows, 'grading'), -1, `a grading column: ${rows[0].join(',')}`);
    assert.equal(rows[1][column(rows, 'grading')], 'pending');
    assert.equal(rows[1][column(rows, 'score')], '2', 'the marks so far, which the cells add up to');
    assert.equal(rows[1][column(rows, 'percentage')], '', 'no percentage until the score is final');
    assert.deepEqual(rows[1].slice(-2), ['2', 'awaiting grading'], 'the ungraded essay’s cell says so, not 0');

    assert.equal(
      (
        await post(
          `/api/attempts/${attemptId}/grades`,
          { question_id: essays[0].id, marks: 0 },
          as(m.tenant.admin.token),
        )
      ).status,
      200,
    );
    rows = expectCsv(await readCsv(test.id, await exporter()));
    assert.equal(rows[1][column(rows, 'grading')], 'complete');
    assert.equal(rows[1][column(rows, 'percentage')], '16.6667');
    assert.deepEqual(rows[1].slice(-2), ['2', '0'], 'graded 0 is a 0');
  });

  it('gives a pooled version a column for every question its attempts can hold: an undrawn one is empty, and each row’s cells add up to its score', async () => {
    const { clientId } = m.tenant;
    const folder = await writeFolder(clientId, `Pool ${randomUUID()}`);
    const pool = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        writeQuestion(clientId, { folder_id: folder.id, question_text: `Pool ${i}`, marks: 1 + (i % 3) }),
      ),
    );
    const fixed = await writeQuestion(clientId, { question_text: 'Fixed', marks: 5 });
    const draft = await createTestAs(
      m.tenant.admin.token,
      validTest([fixed.id], { shuffle: 0, pools: [{ folder_id: folder.id, draw: 2 }] }),
    );
    assert.equal((await post(`/api/tests/${draft.id}/publish`, undefined, as(m.tenant.admin.token))).status, 200);
    const version = (await versionDoc(clientId, draft.id, 1).get()).data()!;
    const poolIds: string[] = version.pools[0].question_ids;
    const texts = new Map(pool.map((q) => [q.id, q.question_text]));
    const takers = await Promise.all([1, 2, 3].map(() => createUser('student', clientId)));
    const attempts: Array<{ id: string; drawn: string[] }> = [];
    for (const taker of takers) {
      const started = await startOk(taker.token, { test_id: draft.id });
      const ids: string[] = started.test_details.questions.map((q: { id: string }) => q.id);
      // The fixed question and the first drawn one right, the other drawn one left blank.
      for (const id of ids.slice(0, 2))
        assert.equal((await answer(started.attempt_id, taker.token, id, '4')).status, 200);
      assert.equal((await submit(started.attempt_id, taker.token)).status, 200);
      attempts.push({ id: started.attempt_id, drawn: ids.filter((id) => id !== fixed.id) });
    }

    const rows = expectCsv(await readCsv(draft.id, await exporter()));
    const questionColumns = rows[0].slice(rows[0].indexOf('auto_submitted') + 1).filter((name) => /^Q\d+ /.test(name));
    assert.deepEqual(questionColumns, ['Q1 · Fixed', ...poolIds.map((id, i) => `Q${i + 2} · ${texts.get(id)}`)]);
    const first = rows[0].length - questionColumns.length;
    assert.equal(rows.length, 4);
    for (const row of rows.slice(1)) {
      const attempt = attempts.find((a) => a.id === row[0])!;
      const stored = (await attemptDoc(clientId, attempt.id).get()).data()!;
      const cells = row.slice(first);
      // As a spreadsheet's SUM reads them: text and empty cells count for nothing.
      const sum = cells.reduce((total, cell) => total + (/^-?[\d.]+$/.test(cell) ? Number(cell) : 0), 0);
      assert.equal(sum, stored.score, `the cells of ${row[0]} add up to its score`);
      assert.equal(row[rows[0].indexOf('score')], String(stored.score));
      poolIds.forEach((id, i) => {
        if (!attempt.drawn.includes(id)) assert.equal(cells[i + 1], 'not drawn', `${id} was not drawn: it says so`);
      });
      assert.equal(cells[0], '5');
      assert.match(cells[1 + poolIds.indexOf(attempt.drawn[0])], /^\d/, 'the drawn question answered has its marks');
      assert.equal(
        cells[1 + poolIds.indexOf(attempt.drawn[1])],
        '',
        'the drawn question left blank is empty, not "not drawn"',
      );
    }
  });

  it('is a gradebook a spreadsheet opens: a BOM and CRLF, plain-text headers, name, email, classes, candidate number, times in the organization’s zone', async () => {
    const { clientId } = m.tenant;
    const html = await writeQuestion(clientId, {
      question_text: '<p>Testing Iota Question &amp; Zo&euml;</p>',
      text_format: 'html',
      marks: 2,
    } as Partial<QuestionFixture>);
    const plain = await writeQuestion(clientId, { question_text: 'Second', marks: 1 });
    const { test } = await publishTest(m.tenant.admin.token, clientId, { questions: [html, plain] });
    const zoe = await createUser('student', clientId);
    await clientDoc(clientId)
      .collection('users')
      .doc(zoe.uid)
      .update({ display_name: 'Zoë Peña', candidate_number: 'C-017', class_ids: [] });
    const klass = clientDoc(clientId).collection('classes').doc();
    await klass.set({ id: klass.id, client_id: clientId, name: '9C Français', code: null, member_count: 1 });
    const attemptId = await submitted(zoe.token, { test_id: test.id }, [[html.id, 'Paris']]);
    // The class the student was in when the attempt started: written on the attempt as the start would.
    await attemptDoc(clientId, attemptId).update({ class_ids: [klass.id] });
    const before = (await clientDoc(clientId).get()).data()!;
    await clientDoc(clientId).update({ time_zone: 'Europe/Paris' });
    try {
      const bytes = await csvBytes(test.id, await exporter());
      assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'a UTF-8 byte order mark first');
      const text = bytes.toString('utf8');
      assert.ok(text.includes('Zoë Peña'), 'the name in UTF-8');
      assert.equal(text.split('\r\n').length, 3, 'header and one row, each ended by CRLF');
      assert.ok(!/[^\r]\n/.test(text), 'no bare LF');
      const rows: string[][] = parse(text, { bom: true });
      const header = rows[0];
      assert.deepEqual(header.slice(-2), ['Q1 · Testing Iota Question & Zoë', 'Q2 · Second']);
      assert.ok(
        header.includes('Started (Europe/Paris)') && header.includes('Submitted (Europe/Paris)'),
        header.join(),
      );
      const row = rows[1];
      const cell = (name: string) => row[header.indexOf(name)];
      const stored = (await attemptDoc(clientId, attemptId).get()).data()!;
      assert.equal(cell('student_name'), 'Zoë Peña');
      assert.equal(cell('student_email'), zoe.email);
      assert.equal(cell('classes'), '9C Français');
      assert.equal(cell('candidate_number'), 'C-017');
      const paris = (iso: string) =>
        new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Paris', dateStyle: 'short', timeStyle: 'medium' })
          .format(new Date(iso))
          .replace(',', '');
      assert.equal(cell('Submitted (Europe/Paris)'), paris(stored.submitted_at));
      assert.equal(cell('Started (Europe/Paris)'), paris(stored.started_at));
      assert.equal(cell('submitted_at'), stored.submitted_at, 'the UTC instant is kept for programs');
      assert.deepEqual(
        row.slice(-2),
        [String(stored.results[0].marks_awarded), ''],
        'the unanswered question is empty',
      );
    } finally {
      await clientDoc(clientId).update({ time_zone: before.time_zone ?? FieldValue.delete() });
    }
  });

  it('answers only the header for a published test nobody has submitted yet', async () => {
    const { test } = await oneQuestionTest();
    const rows = expectCsv(await readCsv(test.id, await exporter()));
    assert.deepEqual(rows, [[...FIXED_COLUMNS, 'Q1 · Only question']]);
  });

  it('neutralises a name beginning with =, +, -, @, tab or carriage return with a leading quote, as csv-stringify does', async () => {
    const { test, question } = await oneQuestionTest();
    // The API trims a guest_name, so a leading tab or CR can only come from stored data: written directly.
    const names = [
      '=HYPERLINK("http://evil.example","x")',
      '+1+1',
      '-2+3',
      '@SUM(A1:A2)',
      '\tcmd',
      '\rcmd',
      'Plain, "quoted" name',
    ];
    const base = Date.parse('2024-05-01T10:00:00.000Z');
    const written = names.map((name, i) =>
      storedAttempt(m.tenant.clientId, test, question, {
        guest: true,
        guest_name: name,
        submitted_at: new Date(base + i * 1000).toISOString(),
        score: 2,
        results: [{ question_id: question.id, answered: true, correct: false, marks_awarded: -0.5 }],
      }),
    );
    await writeAttempts(m.tenant.clientId, written);
    // And one through the API, as a Guest would type it.
    const guest = await signInAnonymously();
    const code = await writeShareCode(m.tenant.clientId, test.id);
    await submitted(guest.token, { share_code: code, guest_name: '=1+2' }, []);

    const rows = expectCsv(await readCsv(test.id, await exporter())).slice(1);
    assert.deepEqual(
      rows.map((r) => r[2]),
      [
        '\'=HYPERLINK("http://evil.example","x")',
        "'+1+1",
        "'-2+3",
        "'@SUM(A1:A2)",
        "'\tcmd",
        "'\rcmd",
        'Plain, "quoted" name',
        "'=1+2",
      ],
    );
    assert.equal(rows[0][FIXED_COLUMNS.length], '-0.5', 'a negative mark is a number, not escaped');
  });

  it('streams more than one page: 1,050 attempts, each exactly once, in (submitted_at, id) order', async function () {
    this.timeout(300_000);
    const { test, question } = await oneQuestionTest();
    const count = 2 * EXPORT_PAGE_SIZE + 50;
    const base = Date.parse('2024-06-01T08:00:00.000Z');
    // Seven attempts share each second, so ties (broken by id) straddle the page boundaries.
    const attempts = Array.from({ length: count }, (_, i) =>
      storedAttempt(m.tenant.clientId, test, question, {
        submitted_at: new Date(base + Math.floor(i / 7) * 1000).toISOString(),
        score: i % 3,
        guest: i % 5 === 0,
        guest_name: i % 5 === 0 ? `Guest ${i}` : null,
        student_id: i % 5 === 0 ? `guest-${i}` : m.tenant.student.uid,
      }),
    );
    await writeAttempts(m.tenant.clientId, attempts);

    const res = await readCsv(test.id, await exporter());
    const rows = expectCsv(res).slice(1);
    const expected = [...attempts].sort((a, b) =>
      a.submitted_at! < b.submitted_at!
        ? -1
        : a.submitted_at! > b.submitted_at!
          ? 1
          : a.id < b.id
            ? -1
            : a.id > b.id
              ? 1
              : 0,
    );
    assert.equal(rows.length, count);
    assert.deepEqual(
      rows.map((r) => r[0]),
      expected.map((a) => a.id),
    );
    const byId = new Map(attempts.map((a) => [a.id, a]));
    for (const row of rows) {
      const a = byId.get(row[0])!;
      assert.equal(row[2], a.guest ? a.guest_name : 'Test student');
      assert.equal(row[col('score')], String(a.score));
      assert.equal(row[FIXED_COLUMNS.length], a.score ? String(a.score) : '');
    }
  });

  it('describes the latest published version by default and another with ?version=; an unknown version is 404', async () => {
    const { clientId } = m.tenant;
    const token = m.tenant.admin.token;
    const [q1, q2] = await Promise.all([
      writeQuestion(clientId, { question_text: 'First edition question', marks: 1 }),
      writeQuestion(clientId, { question_text: 'Second edition question', marks: 3 }),
    ]);
    const test = await createTestAs(token, validTest([q1.id], { shuffle: 0 }));
    assert.equal((await post(`/api/tests/${test.id}/publish`, undefined, as(token))).status, 200);
    const [first, second] = await Promise.all([createUser('student', clientId), createUser('student', clientId)]);
    const v1Attempt = await submitted(first.token, { test_id: test.id }, [[q1.id, '4']]);
    assert.equal((await post(`/api/tests/${test.id}/archive`, undefined, as(token))).status, 200);
    assert.equal((await post(`/api/tests/${test.id}/restore`, undefined, as(token))).status, 200);
    const edited = await api('PUT', `/api/tests/${test.id}`, {
      ...as(token),
      body: validTest([q1.id, q2.id], { shuffle: 0 }),
    });
    assert.equal(edited.status, 200, edited.text);
    const republished = await post(`/api/tests/${test.id}/publish`, undefined, as(token));
    assert.equal(republished.body.version, 2, republished.text);
    const v2Attempt = await submitted(second.token, { test_id: test.id }, [[q2.id, '4']]);

    const latest = await readCsv(test.id, await exporter());
    expectAttachment(latest, `results-${test.id}-v2.csv`);
    assert.deepEqual(
      expectCsv(latest).map((r) => [r[0], ...r.slice(FIXED_COLUMNS.length)]),
      [
        ['attempt_id', 'Q1 · First edition question', 'Q2 · Second edition question'],
        [v2Attempt, '', '3'],
      ],
    );
    const v1 = await readCsv(test.id, await exporter(), '?version=1');
    expectAttachment(v1, `results-${test.id}-v1.csv`);
    assert.deepEqual(
      expectCsv(v1).map((r) => [r[0], r[col('total_marks')], ...r.slice(FIXED_COLUMNS.length)]),
      [
        ['attempt_id', 'total_marks', 'Q1 · First edition question'],
        [v1Attempt, '1', '1'],
      ],
    );
    expectError(await readCsv(test.id, token, '?version=3'), 404, 'NOT_FOUND');
    expectError(await readCsv(test.id, token, '?version=0'), 400, 'VALIDATION_ERROR');
  });

  it('lets a Super Admin export any organization’s test; refuses Students, Guests and another organization’s Client Admin with 403', async () => {
    const { test } = await oneQuestionTest();
    expectCsv(await readCsv(test.id, m.superAdmin.token));
    expectError(await readCsv(test.id, m.tenant.student.token), 403, 'FORBIDDEN');
    expectError(await readCsv(test.id, m.guest.token), 403, 'FORBIDDEN');
    expectError(await readCsv(test.id, m.otherTenant.admin.token), 403, 'FORBIDDEN');
    expectError(await readCsv(test.id, m.otherTenant.student.token), 403, 'FORBIDDEN');
    expectError(await readCsv(test.id, undefined), 401, 'UNAUTHORIZED');
  });

  it('answers 404 for an unknown test and for a test never published', async () => {
    expectError(await readCsv(randomUUID(), await exporter()), 404, 'NOT_FOUND');
    expectError(await readCsv(randomUUID(), m.superAdmin.token), 404, 'NOT_FOUND');
    const draft = await createTestAs(m.tenant.admin.token, validTest([(await writeQuestion(m.tenant.clientId)).id]));
    expectError(await readCsv(draft.id, await exporter()), 404, 'NOT_FOUND');
  });

  it('answers 503 SERVICE_UNAVAILABLE as a JSON error when the first page cannot be read', async () => {
    const { test, question } = await oneQuestionTest();
    await writeAttempts(m.tenant.clientId, [storedAttempt(m.tenant.clientId, test, question, { score: 2 })]);
    const server = await startInProcessApi({ sensitivePerMinute: 100_000 });
    try {
      const read = () => get(csvPath(test.id), { token: m.tenant.admin.token, ip: freshIp(), baseUrl: server.baseUrl });
      const outcome = await duringFault(() => failReads(new RegExp(`^clients/${m.tenant.clientId}/attempts$`)), read);
      expectError(outcome.result, 503, 'SERVICE_UNAVAILABLE');
      assert.ok(outcome.result.headers.get('retry-after'), 'Retry-After is set');
      assert.equal(outcome.result.headers.get('content-disposition'), null, 'no file was started');
      // Healed, the same request answers the file.
      assert.equal(expectCsv(await read()).length, 2);
    } finally {
      await server.close();
    }
  });
});

type StreamTarget = Parameters<NonNullable<Reply['stream']>['write']>[0];

/** A response that accepts writes only when told to, and can hang up. */
class StandInResponse extends EventEmitter {
  chunks: string[] = [];
  destroyed = false;
  constructor(private readonly accept: (chunkIndex: number) => boolean) {
    super();
  }
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return this.accept(this.chunks.length - 1);
  }
  hangUp(): void {
    this.destroyed = true;
    this.emit('close');
  }
}

describe('results export streaming (in-process)', function () {
  this.timeout(120_000);
  const superAdmin = (): Principal => ({
    uid: m.superAdmin.uid,
    email: m.superAdmin.email,
    role: 'super_admin',
    clientId: null,
    guest: false,
    authTime: 0,
  });
  let test: any;
  const count = EXPORT_PAGE_SIZE + 10;

  before(async function () {
    this.timeout(120_000);
    const made = await oneQuestionTest();
    test = made.test;
    const base = Date.parse('2024-07-01T08:00:00.000Z');
    await writeAttempts(
      m.tenant.clientId,
      Array.from({ length: count }, (_, i) =>
        storedAttempt(m.tenant.clientId, test, made.question, {
          submitted_at: new Date(base + i * 1000).toISOString(),
        }),
      ),
    );
  });

  it('waits for drain whenever a write is refused, then writes the rest: the header, then one chunk per page', async () => {
    const stream = await resultsCsv(superAdmin(), test.id, undefined);
    let waiting = 0;
    const res: StandInResponse = new StandInResponse(() => {
      waiting += 1;
      setTimeout(() => {
        waiting -= 1;
        res.emit('drain');
      }, 5);
      return false;
    });
    await stream.write(res as unknown as StreamTarget);
    assert.equal(res.chunks.length, 3);
    assert.equal(waiting, 0, 'every refused write was waited for');
    const rows: string[][] = parse(res.chunks.join(''));
    assert.equal(rows.length, count + 1);
    assert.equal(new Set(rows.slice(1).map((r) => r[0])).size, count);
  });

  it('stops reading when the client hangs up while a write waits', async () => {
    const stream = await resultsCsv(superAdmin(), test.id, undefined);
    const res: StandInResponse = new StandInResponse(() => {
      setTimeout(() => res.hangUp(), 5);
      return false;
    });
    await stream.write(res as unknown as StreamTarget);
    assert.equal(res.chunks.length, 1, 'only the header was written');
  });

  it('fails the write when a later page cannot be read, so the route cuts the response instead of ending it', async () => {
    const stream = await resultsCsv(superAdmin(), test.id, undefined);
    const res = new StandInResponse(() => true);
    const heal = failReads(new RegExp(`^clients/${m.tenant.clientId}/attempts$`));
    try {
      await assert.rejects(stream.write(res as unknown as StreamTarget), /UNAVAILABLE/);
    } finally {
      heal();
    }
    assert.equal(res.chunks.length, 2, 'the header and the first page went out before the failure');
  });
});
