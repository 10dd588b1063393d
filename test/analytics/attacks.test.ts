import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { FieldValue } from 'firebase-admin/firestore';
import { forgetAccountFacts } from '../../functions/src/http/authenticate';
import { closeOverdue } from '../../functions/src/attempts/closing';
import { hashAttemptToken } from '../../functions/src/attempts/tokens';
import { encodeCursor } from '../../functions/src/shared/pagination';
import { adminAuth } from '../support/admin';
import { expectError } from '../support/assertions';
import { authInternalError, duringFault, failReads, failWrites, replaceAuth } from '../support/faults';
import {
  createRoleMatrix,
  createTenant,
  createUser,
  signIn,
  signInAnonymously,
  waitPastAuthTime,
  type RoleMatrix,
  type TestUser,
} from '../support/fixtures';
import { api, freshIp, get, patch, post, type ApiResponse, type RequestOptions } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { as, clientDoc, testDoc, writeQuestion } from '../exams/fixtures';
import {
  attemptDoc,
  expire,
  mixedQuestions,
  publishTest,
  RIGHT,
  startOk,
  tokenQuery,
  writeShareCode,
} from '../attempts/fixtures';

// A hostile review of the analytics endpoints, with real requests:
// through Hosting → Functions emulator for what a caller can send, and with the
// app in-process (requests that truly overlap, faults underneath) for races and
// outages. Each `it` states the property it attacks. Written by an attacker
// review of the analytics; kept as the regression suite of what it tried.

const testPath = (testId: string, query = '') => `/api/analytics/tests/${testId}${query}`;
const csvPath = (testId: string, query = '') => `/api/analytics/tests/${testId}/results.csv${query}`;
const recomputePath = (testId: string, query = '') => `/api/analytics/tests/${testId}/recompute${query}`;
const studentPath = (studentId: string, query = '') => `/api/analytics/students/${studentId}${query}`;

/** Never a 5xx, and any error is the documented JSON error body. */
function noServerError(res: ApiResponse, label: string): void {
  assert.ok(res.status < 500, `${label}: ${res.status} ${res.text.slice(0, 300)}`);
  if (res.status >= 400) {
    assert.match(
      res.headers.get('content-type') ?? '',
      /application\/json/,
      `${label}: non-JSON error ${res.status} ${res.text.slice(0, 200)}`,
    );
    expectError(res, res.status, res.body.error);
  }
}

const SECRET = `SECRET-KEY-${randomUUID()}`;

/** Sensitive routes (the repair, the export) allow 10 a minute per user: a fresh account every 8 requests. */
function rotating(make: () => Promise<TestUser>): () => Promise<string> {
  let user: TestUser | undefined;
  let used = 0;
  return async () => {
    if (!user || used >= 8) {
      user = await make();
      used = 0;
    }
    used += 1;
    return user.token;
  };
}

// ---------------------------------------------------------------- shared fixture (through the emulators)

describe('analytics under attack (review)', function () {
  let m: RoleMatrix;
  let test: any;
  let otherTest: any;
  let guestStarted: any;
  let otherStudent: TestUser;
  const OTHER_NAME = `Other Org Student ${randomUUID().slice(0, 8)}`;

  before(async function () {
    this.timeout(120_000);
    m = await createRoleMatrix();
    const questions = [
      ...(await mixedQuestions(m.tenant.clientId)),
      await writeQuestion(m.tenant.clientId, {
        question_text: 'Codeword?',
        question_type: 'short_answer',
        options: [],
        correct_answer: SECRET,
        marks: 1,
      }),
    ];
    ({ test } = await publishTest(m.tenant.admin.token, m.tenant.clientId, { questions }));
    // The tenant's student: everything right except the codeword.
    const started = await startOk(m.tenant.student.token, { test_id: test.id });
    for (const q of started.test_details.questions) {
      const answer = RIGHT[q.question_text] ?? 'wrong';
      assert.equal(
        (
          await post(
            `/api/attempts/${started.attempt_id}/answers`,
            { question_id: q.id, student_answer: answer },
            as(m.tenant.student.token),
          )
        ).status,
        200,
      );
    }
    assert.equal(
      (await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(m.tenant.student.token))).status,
      200,
    );
    // A Guest with a formula for a name, through a share code and its attempt token.
    const code = await writeShareCode(m.tenant.clientId, test.id);
    guestStarted = await startOk(m.guest.token, {
      share_code: code,
      guest_name: '=HYPERLINK("http://evil.example","x")',
    });
    assert.equal(
      (
        await post(
          `/api/attempts/${guestStarted.attempt_id}/submit${tokenQuery(guestStarted.attempt_token)}`,
          undefined,
          { ip: freshIp() },
        )
      ).status,
      200,
    );
    // Another organization with its own named student and submitted attempt.
    otherStudent = await createUser('student', m.otherTenant.clientId);
    await clientDoc(m.otherTenant.clientId)
      .collection('users')
      .doc(otherStudent.uid)
      .update({ display_name: OTHER_NAME });
    ({ test: otherTest } = await publishTest(m.otherTenant.admin.token, m.otherTenant.clientId, { count: 2 }));
    const o = await startOk(otherStudent.token, { test_id: otherTest.id });
    assert.equal((await post(`/api/attempts/${o.attempt_id}/submit`, undefined, as(otherStudent.token))).status, 200);
  });

  describe('attack: who may read analytics (through Hosting)', function () {
    this.timeout(120_000);

    it('another organization’s Client Admin gets 403 on all four endpoints, and naming client_id does not help', async () => {
      const token = m.otherTenant.admin.token;
      expectError(await get(testPath(test.id), as(token)), 403, 'FORBIDDEN');
      expectError(await get(csvPath(test.id), as(token)), 403, 'FORBIDDEN');
      expectError(await post(recomputePath(test.id), undefined, as(token)), 403, 'FORBIDDEN');
      expectError(await get(studentPath(m.tenant.student.uid), as(token)), 403, 'FORBIDDEN');
      // The test endpoints take no client_id at all; the student endpoint refuses another organization's.
      expectError(
        await get(testPath(test.id, `?client_id=${m.otherTenant.clientId}`), as(token)),
        400,
        'VALIDATION_ERROR',
      );
      expectError(
        await get(studentPath(m.tenant.student.uid, `?client_id=${m.tenant.clientId}`), as(token)),
        403,
        'FORBIDDEN',
      );
      // Its own client_id with the other organization's student: that student is no member of its organization.
      expectError(
        await get(studentPath(m.tenant.student.uid, `?client_id=${m.otherTenant.clientId}`), as(token)),
        403,
        'FORBIDDEN',
      );
    });

    it('a Student gets 403 on a test’s analytics, export and repair, and on another student; itself is 200', async () => {
      const token = m.tenant.student.token;
      expectError(await get(testPath(test.id), as(token)), 403, 'FORBIDDEN');
      expectError(await get(csvPath(test.id), as(token)), 403, 'FORBIDDEN');
      expectError(await post(recomputePath(test.id), undefined, as(token)), 403, 'FORBIDDEN');
      const classmate = await createUser('student', m.tenant.clientId);
      expectError(await get(studentPath(classmate.uid), as(token)), 403, 'FORBIDDEN');
      expectError(await get(studentPath(m.guest.uid), as(token)), 403, 'FORBIDDEN');
      expectError(
        await get(studentPath(m.tenant.student.uid, `?client_id=${m.otherTenant.clientId}`), as(token)),
        403,
        'FORBIDDEN',
      );
      const self = await get(studentPath(m.tenant.student.uid), as(token));
      assert.equal(self.status, 200, self.text);
      assert.equal(self.body.completed, 1);
    });

    it('a Guest token gets 403 everywhere, even on itself; its attempt token alone is 401; a user with no role 403', async () => {
      for (const token of [m.guest.token, m.noRole.token]) {
        expectError(await get(testPath(test.id), as(token)), 403, 'FORBIDDEN');
        expectError(await get(csvPath(test.id), as(token)), 403, 'FORBIDDEN');
        expectError(await post(recomputePath(test.id), undefined, as(token)), 403, 'FORBIDDEN');
      }
      expectError(await get(studentPath(m.guest.uid), as(m.guest.token)), 403, 'FORBIDDEN');
      const q = tokenQuery(guestStarted.attempt_token);
      for (const res of [
        await get(testPath(test.id, q), { ip: freshIp() }),
        await get(csvPath(test.id, q), { ip: freshIp() }),
        await post(recomputePath(test.id, q), undefined, { ip: freshIp() }),
        await get(studentPath(m.guest.uid, q), { ip: freshIp() }),
      ]) {
        expectError(res, 401, 'UNAUTHORIZED');
      }
      // With a token too, the attempt_token is an unknown query parameter (400) or refused (403): never served.
      const both = await get(testPath(test.id, q), as(m.tenant.admin.token));
      assert.ok(both.status === 400, both.text);
    });

    it('a Client Admin naming an account of no organization that never took its tests (a Super Admin, a Guest) gets 404, as for an unknown uid', async () => {
      const t = m.tenant.admin.token;
      expectError(await get(studentPath(randomUUID()), as(t)), 404, 'NOT_FOUND');
      expectError(await get(studentPath(m.superAdmin.uid), as(t)), 404, 'NOT_FOUND');
      const stranger = await signInAnonymously();
      expectError(await get(studentPath(stranger.uid), as(t)), 404, 'NOT_FOUND');
    });

    it('a Client Admin of a deactivated organization gets 403', async () => {
      const inactive = await createTenant({ active_status: 0 });
      expectError(await get(studentPath(inactive.student.uid), as(inactive.admin.token)), 403, 'FORBIDDEN');
      expectError(await get(testPath(test.id), as(inactive.admin.token)), 403, 'FORBIDDEN');
    });

    it('Super Admin: any test; a student from its claims; a Guest or a Super Admin needs client_id (400); an unknown or impossible client_id is 404', async () => {
      const t = m.superAdmin.token;
      assert.equal((await get(testPath(otherTest.id), as(t))).status, 200);
      assert.equal((await get(csvPath(otherTest.id), as(t))).status, 200);
      const s = await get(studentPath(otherStudent.uid), as(t));
      assert.equal(s.status, 200, s.text);
      assert.equal(s.body.client_id, m.otherTenant.clientId);
      expectError(await get(studentPath(m.guest.uid), as(t)), 400, 'VALIDATION_ERROR');
      expectError(await get(studentPath(m.superAdmin.uid), as(t)), 400, 'VALIDATION_ERROR');
      expectError(await get(studentPath(m.noRole.uid), as(t)), 400, 'VALIDATION_ERROR');
      expectError(await get(studentPath(randomUUID()), as(t)), 404, 'NOT_FOUND');
      // A test never published: analytics with no version; no export, no repair, no ?version.
      const draft = await api('POST', '/api/tests', {
        ...as(t),
        body: {
          test_name: 'Draft',
          timer: 10,
          shuffle: 0,
          allow_review: 1,
          negative_marking: 0,
          question_ids: [],
          client_id: m.otherTenant.clientId,
        },
      });
      assert.equal(draft.status, 201, draft.text);
      const never = await get(testPath(draft.body.id), as(t));
      assert.equal(never.status, 200, never.text);
      assert.equal(never.body.version, null);
      expectError(await get(csvPath(draft.body.id), as(t)), 404, 'NOT_FOUND');
      expectError(await post(recomputePath(draft.body.id), undefined, as(t)), 404, 'NOT_FOUND');
      expectError(await get(testPath(draft.body.id, '?version=1'), as(t)), 404, 'NOT_FOUND');
      for (const bad of [randomUUID(), '%2E%2E', '%2E', '__x__', 'a%2Fb']) {
        const res = await get(studentPath(m.tenant.student.uid, `?client_id=${bad}`), as(t));
        expectError(res, 404, 'NOT_FOUND');
      }
    });
  });

  describe('attack: malformed input never yields a 5xx or a non-JSON error (through Hosting)', function () {
    this.timeout(180_000);

    const VERSIONS = [
      '0',
      '-1',
      '-0',
      '1.5',
      '1e400',
      '99999999999999999999',
      '1000001',
      '9007199254740993',
      'abc',
      '',
      '%20',
      'NaN',
      'Infinity',
      '0x1',
      '1e0',
      '2',
      '%00',
      '1%00',
      '%EF%BC%91', // full-width 1
    ];

    it('?version= huge, negative, float, text, empty: 400; "0x1" and "1e0" read as version 1 (200); "2", past the latest, 404; never 5xx', async () => {
      const t = m.tenant.admin.token;
      const admin = rotating(() => createUser('client_admin', m.tenant.clientId));
      for (const v of VERSIONS) {
        for (const [path, sensitive] of [
          [testPath(test.id, `?version=${v}`), false],
          [csvPath(test.id, `?version=${v}`), true],
        ] as const) {
          const res = await get(path, as(sensitive ? await admin() : t));
          noServerError(res, path);
          if (v === '2') expectError(res, 404, 'NOT_FOUND');
          else if (['0x1', '1e0'].includes(v)) assert.equal(res.status, 200, `${path}: ${res.text.slice(0, 300)}`);
          else expectError(res, 400, 'VALIDATION_ERROR');
        }
      }
      expectError(await get(testPath(test.id, '?version=2'), as(t)), 404, 'NOT_FOUND');
      const recompute = await post(recomputePath(test.id, '?version=-1'), undefined, as(await admin()));
      expectError(recompute, 400, 'VALIDATION_ERROR');
    });

    it('?version as an array or object, repeated, misspelt: 400', async () => {
      const t = m.tenant.admin.token;
      for (const q of [
        '?version=1&version=1',
        '?version=1&version=2',
        '?version[a]=1',
        '?version[]=1&version[]=2',
        '?Version=1',
        '?version=1&x=1',
      ]) {
        const res = await get(testPath(test.id, q), as(t));
        noServerError(res, q);
        assert.equal(res.status, 400, `${q}: ${res.text}`);
      }
      // An array of one is coerced to its element (z.coerce.number(['1']) = 1): lenient, harmless.
      assert.equal((await get(testPath(test.id, '?version[]=1'), as(t))).status, 200);
    });

    it('test ids with "/", ".", "..", "__x__", too long, odd bytes: 400 or 404, never 5xx', async () => {
      const t = m.superAdmin.token;
      const superAdmin = rotating(() => createUser('super_admin'));
      // (Bytes that are no UTF-8, e.g. %ED%A0%80 or %E0%A4%A, are refused by the Hosting emulator itself with a text 500: probed in-process below.)
      const ids = [
        '.',
        '%2E',
        '%2E%2E',
        '__x__',
        '__proto__',
        'constructor',
        'a.b',
        'a%2Fb',
        'x'.repeat(129),
        '%F0%9F%98%80',
        '%00',
        'a%20b',
        '%EF%BC%8F',
      ];
      for (const id of ids) {
        for (const [method, path, sensitive] of [
          ['GET', testPath(id), false],
          ['GET', csvPath(id), true],
          ['POST', recomputePath(id), true],
        ] as const) {
          const res = await api(method, path, as(sensitive ? await superAdmin() : t));
          noServerError(res, `${method} ${path}`);
          assert.ok([400, 404].includes(res.status), `${method} ${path}: ${res.status} ${res.text}`);
        }
      }
    });

    it('student ids with "/", ".", "..", "__x__", too long, odd bytes: never 5xx, for a Super Admin, a Client Admin and a Student', async () => {
      const ids = [
        '.',
        '%2E',
        '%2E%2E',
        '__x__',
        '__proto__',
        'a.b',
        'a%2Fb',
        'x'.repeat(128),
        'x'.repeat(129),
        '%F0%9F%98%80',
        '%00',
        'a%20b',
        '%09',
        '%EF%BC%8F',
        '%E2%80%AE',
      ];
      for (const token of [m.superAdmin.token, m.tenant.admin.token, m.tenant.student.token]) {
        for (const id of ids) {
          const res = await get(studentPath(id), as(token));
          noServerError(res, `GET ${studentPath(id)}`);
        }
      }
    });

    it('paging parameters out of range, garbage and malformed cursors: 400; forged cursors that decode (a valid id, plain values) only move the page: 200', async () => {
      const t = m.tenant.admin.token;
      const uid = m.tenant.student.uid;
      const forged = [
        encodeCursor({ page: 1, after: ['2020-01-01T00:00:00.000Z', '__x__'] }),
        encodeCursor({ page: 1, after: [{ a: 1 } as never, 'x'] }),
        encodeCursor({ page: 1, after: ['2020', `${m.otherTenant.clientId}.abc`] }),
        encodeCursor({ page: 1, after: [12, 'x'] }),
        encodeCursor({ page: 1, after: [null, 'x', 'y'] }),
        encodeCursor({ page: 0, after: ['2020', 'x'] }),
        'not-a-cursor',
        '%00',
      ];
      const queries = [
        '?limit=0',
        '?limit=101',
        '?limit=-1',
        '?limit=1.5',
        '?page=0',
        '?page=abc',
        '?page=1002',
        '?page=2&cursor=abc',
        '?limit=1&limit=2',
        '?client_id=',
        '?foo=1',
        ...forged.map((c) => `?cursor=${c}`),
      ];
      // These two decode: plain values and a valid document id. The query keeps its student filter.
      const decoding = new Set([forged[2], forged[3]].map((c) => `?cursor=${c}`));
      for (const q of queries) {
        const res = await get(studentPath(uid, q), as(t));
        noServerError(res, q);
        if (decoding.has(q)) {
          assert.equal(res.status, 200, `${q}: ${res.text}`);
          assert.equal(res.body.student_id, uid);
        } else {
          expectError(res, 400, 'VALIDATION_ERROR');
        }
      }
    });
  });

  describe('attack: what the replies let out', function () {
    this.timeout(60_000);

    const forbidden = () => [
      SECRET,
      'correct_answer',
      'token_hash',
      hashAttemptToken(guestStarted.attempt_token),
      guestStarted.attempt_token,
      m.otherTenant.clientId,
      otherStudent.uid,
      OTHER_NAME,
      m.otherTenant.client.name,
    ];

    it('test analytics, repair, export and student analytics hold no answer key, token, token hash or other organization’s data', async () => {
      const t = m.tenant.admin.token;
      const replies = [
        await get(testPath(test.id), as(t)),
        await post(recomputePath(test.id), undefined, as(t)),
        await get(csvPath(test.id), as(t)),
        await get(studentPath(m.tenant.student.uid), as(t)),
        await get(studentPath(m.guest.uid), as(t)),
        await get(studentPath(m.tenant.student.uid), as(m.tenant.student.token)),
        await get(studentPath(m.tenant.student.uid, `?client_id=${m.tenant.clientId}`), as(m.superAdmin.token)),
      ];
      for (const res of replies) {
        assert.equal(res.status, 200, res.text);
        for (const word of forbidden())
          assert.ok(!res.text.includes(word), `${word} leaked in ${res.text.slice(0, 400)}`);
      }
    });

    it('the export escapes the Guest’s formula name and names nobody of another organization', async () => {
      const res = await get(csvPath(test.id), as(m.tenant.admin.token));
      assert.equal(res.status, 200, res.text);
      const guestLine = res.text.split('\n').find((l) => l.startsWith(guestStarted.attempt_id))!;
      assert.ok(guestLine, res.text);
      assert.ok(guestLine.includes(`"'=HYPERLINK(""http://evil.example"",""x"")"`), guestLine);
      assert.equal(res.text.trim().split('\n').length, 3, 'header + the two submitted attempts of this test');
    });
  });

  // ---------------------------------------------------------------- in-process: stale claims, races, faults

  let server: InProcessApi;
  const at = (token?: string, ip = freshIp()): RequestOptions => ({ token, ip, baseUrl: server.baseUrl });

  before(async () => {
    server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  });
  after(() => server?.close());

  describe('attack: stale claims (in-process, account re-check as after 60 s)', function () {
    this.timeout(120_000);

    it('a Client Admin moved to another organization (claims changed, not yet revoked) reads nothing of the old one, on GET or POST', async () => {
      const a = await createTenant();
      const { test: t } = await publishTest(a.admin.token, a.clientId, { count: 2 });
      const b = await createTenant();
      const oldToken = a.admin.token;
      await adminAuth.setCustomUserClaims(a.admin.uid, { role: 'client_admin', client_id: b.clientId });
      forgetAccountFacts();
      expectError(await get(testPath(t.id), at(oldToken)), 401, 'UNAUTHORIZED');
      expectError(await get(csvPath(t.id), at(oldToken)), 401, 'UNAUTHORIZED');
      expectError(await get(studentPath(a.student.uid), at(oldToken)), 401, 'UNAUTHORIZED');
      // The repair answers the whole analytics: a read through POST, refused like the reads.
      // (In-process only: the Functions emulator's instance still holds this admin's account as read under a minute ago.)
      expectError(await post(recomputePath(t.id), undefined, at(oldToken)), 401, 'UNAUTHORIZED');
    });

    it('a Client Admin demoted to Student by its claims alone cannot repair (and read) its old organization’s analytics', async () => {
      const a = await createTenant();
      const { test: t } = await publishTest(a.admin.token, a.clientId, { count: 2 });
      await adminAuth.setCustomUserClaims(a.admin.uid, { role: 'student', client_id: a.clientId });
      forgetAccountFacts();
      expectError(await get(testPath(t.id), at(a.admin.token)), 401, 'UNAUTHORIZED');
      expectError(await post(recomputePath(t.id), undefined, at(a.admin.token)), 401, 'UNAUTHORIZED');
    });

    it('a Client Admin demoted through the users endpoint (revoked) is 401 on GET and POST; its fresh token is a Student’s (403)', async () => {
      const a = await createTenant();
      const superAdmin = (await createRoleMatrix()).superAdmin;
      const { test: t } = await publishTest(a.admin.token, a.clientId, { count: 2 });
      await waitPastAuthTime(a.admin.token);
      assert.equal((await patch(`/api/users/${a.admin.uid}`, { role: 'student' }, at(superAdmin.token))).status, 200);
      forgetAccountFacts();
      expectError(await get(testPath(t.id), at(a.admin.token)), 401, 'UNAUTHORIZED');
      expectError(await post(recomputePath(t.id), undefined, at(a.admin.token)), 401, 'UNAUTHORIZED');
      const fresh = await signIn(a.admin.email, a.admin.password);
      expectError(await get(testPath(t.id), at(fresh)), 403, 'FORBIDDEN');
      expectError(await get(studentPath(a.student.uid), at(fresh)), 403, 'FORBIDDEN');
    });

    it('a Student moved to another organization by its claims reads only its own attempts, never the new organization’s students', async () => {
      const a = await createTenant();
      const b = await createTenant();
      await adminAuth.setCustomUserClaims(a.student.uid, { role: 'student', client_id: b.clientId });
      const fresh = await signIn(a.student.email, a.student.password);
      expectError(await get(studentPath(b.student.uid), at(fresh)), 403, 'FORBIDDEN');
      const self = await get(studentPath(a.student.uid), at(fresh));
      assert.equal(self.status, 200, self.text);
      assert.equal(self.body.client_id, b.clientId);
    });
  });

  describe('attack: bytes that are no UTF-8 in an id (in-process: the Hosting emulator refuses them itself)', function () {
    this.timeout(60_000);

    it('HEAD on the analytics and the export: 200 without a body', async () => {
      for (const path of [testPath(test.id), csvPath(test.id)]) {
        const res = await api('HEAD', path, at(m.tenant.admin.token));
        assert.equal(res.status, 200, `${path}: ${res.status}`);
        assert.equal(res.text, '');
      }
    });

    it('answers 400 JSON, never 5xx', async () => {
      for (const id of ['%ED%A0%80', '%E0%A4%A', '%FF', '%C0%AF']) {
        for (const [method, path] of [
          ['GET', testPath(id)],
          ['GET', csvPath(id)],
          ['POST', recomputePath(id)],
          ['GET', studentPath(id)],
        ] as const) {
          const res = await api(method, path, at(m.superAdmin.token));
          noServerError(res, `${method} ${path}`);
          expectError(res, 400, 'VALIDATION_ERROR');
        }
      }
    });
  });

  const CHOICES: Record<string, string[]> = {
    'Capital of France?': ['Paris', 'Rome', 'Oslo', 'Lyon'],
    'Primes?': ['2|3', '2', '3|4', '2|3|4'],
    'Water is wet': ['true', 'false'],
    'Spell cat': ['cat', 'dog'],
    'Pi to 2 places': ['3.14', '3.2', 'pi'],
  };

  /** Runs `work` over `items`, `width` at a time (fixtures only: the attacks themselves run all at once). */
  async function inBatches<T, R>(items: T[], width: number, work: (item: T, i: number) => Promise<R>): Promise<R[]> {
    const out: R[] = [];
    for (let i = 0; i < items.length; i += width)
      out.push(...(await Promise.all(items.slice(i, i + width).map((item, j) => work(item, i + j)))));
    return out;
  }

  async function startAndAnswer(student: TestUser, testId: string, seed: number): Promise<string> {
    const started = await post('/api/attempts', { test_id: testId }, at(student.token));
    assert.equal(started.status, 201, started.text);
    const questions: Array<{ id: string; question_text: string }> = started.body.test_details.questions;
    await Promise.all(
      questions
        .filter((_, i) => (seed + i) % 5 !== 0)
        .map(async (q, i) => {
          const choices = CHOICES[q.question_text] ?? ['4', '3'];
          const saved = await post(
            `/api/attempts/${started.body.attempt_id}/answers`,
            { question_id: q.id, student_answer: choices[(seed * 7 + i) % choices.length] },
            at(student.token),
          );
          assert.equal(saved.status, 200, saved.text);
        }),
    );
    return started.body.attempt_id as string;
  }

  async function keptAndRepaired(adminToken: string, testId: string, query = '') {
    const kept = await get(testPath(testId, query), at(adminToken));
    assert.equal(kept.status, 200, kept.text);
    const repaired = await post(recomputePath(testId, query), undefined, at(adminToken));
    assert.equal(repaired.status, 200, repaired.text);
    return { kept: kept.body, repaired: repaired.body };
  }

  const statusesOf = (list: ApiResponse[]) => [...new Set(list.map((r) => r.status))].sort();
  const tally = (list: ApiResponse[]) =>
    JSON.stringify(
      list.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {}),
    );

  /** Repairs of one version sent at once: one runs, those arriving while it runs are refused 409; no other status. */
  function assertRepairStatuses(repairs: ApiResponse[]): void {
    for (const r of repairs) {
      assert.ok([200, 409].includes(r.status), `${r.status} ${r.text} (all: ${tally(repairs)})`);
      if (r.status === 409) {
        expectError(r, 409, 'CONFLICT');
        assert.match(r.body.message, /recompute of version \d+ of this test is running/);
      }
    }
    assert.ok(
      repairs.some((r) => r.status === 200),
      `no repair ran: ${tally(repairs)}`,
    );
  }

  describe('attack: fifty at once (in-process, requests truly overlap)', function () {
    this.timeout(600_000);
    let tenant: Awaited<ReturnType<typeof createTenant>>;
    let t: any;
    let students: TestUser[];

    before(async function () {
      this.timeout(300_000);
      tenant = await createTenant();
      ({ test: t } = await publishTest(tenant.admin.token, tenant.clientId, {
        questions: await mixedQuestions(tenant.clientId),
        extra: { negative_marking: 1, negative_mark_ratio: 0.5 },
      }));
      students = await inBatches(Array.from({ length: 50 }), 10, () => createUser('student', tenant.clientId));
    });

    it('50 submits of different attempts at once: each counted once, and the repair finds nothing changed', async () => {
      const attempts = await inBatches(students, 10, (s, i) => startAndAnswer(s, t.id, i));
      const submits = await Promise.all(
        attempts.map((id, i) => post(`/api/attempts/${id}/submit`, undefined, at(students[i].token))),
      );
      assert.deepEqual(statusesOf(submits), [200], submits.map((r) => r.text).join('\n'));
      const { kept, repaired } = await keptAndRepaired(tenant.admin.token, t.id);
      assert.equal(repaired.changed, false, 'the kept sums drifted');
      assert.deepEqual(repaired.analytics, kept);
      assert.equal(kept.completed, 50);
      assert.equal(kept.total_attempts, 50);
      assert.equal(repaired.attempts_read, 50);
    });

    it('10, then 50 repairs at once: each 200, or 409 CONFLICT while another repair of the version runs, at least one 200, never a 5xx; afterwards the sums are still the attempts’', async () => {
      for (const width of [10, 50]) {
        const results = await Promise.all(
          Array.from({ length: width }, () => post(recomputePath(t.id), undefined, at(tenant.admin.token))),
        );
        console.log(`      ${width} repairs at once: ${tally(results)}`);
        assertRepairStatuses(results);
      }
      const { kept, repaired } = await keptAndRepaired(tenant.admin.token, t.id);
      assert.equal(repaired.changed, false);
      assert.equal(kept.completed, 50);
    });

    it('one administrator’s allowance of repairs (10) running while a class of 30 submits: every submit 200 and counted once; each repair 200, or 409 CONFLICT while another repair of the version runs, at least one 200, never a 5xx', async () => {
      const { test: t5 } = await publishTest(tenant.admin.token, tenant.clientId, {
        questions: await mixedQuestions(tenant.clientId),
      });
      const racers = students.slice(0, 30);
      const attempts = await inBatches(racers, 10, (s, i) => startAndAnswer(s, t5.id, i));
      const started = Date.now();
      const [repairs, submits] = await Promise.all([
        Promise.all(Array.from({ length: 10 }, () => post(recomputePath(t5.id), undefined, at(tenant.admin.token)))),
        Promise.all(attempts.map((id, i) => post(`/api/attempts/${id}/submit`, undefined, at(racers[i].token)))),
      ]);
      console.log(
        `      10 repairs ${tally(repairs)} beside 30 submits ${tally(submits)} in ${Date.now() - started} ms`,
      );
      assert.deepEqual(
        statusesOf(submits),
        [200],
        `submits refused while repairs ran: ${tally(submits)} ${submits.find((r) => r.status !== 200)?.text}`,
      );
      assertRepairStatuses(repairs);
      const { kept, repaired } = await keptAndRepaired(tenant.admin.token, t5.id);
      assert.equal(repaired.changed, false);
      assert.equal(kept.completed, 30, 'every submit counted once');
    });

    it('50 exports and 50 analytics reads at once: all 200 and identical, every attempt exactly once', async () => {
      const [csvs, reads] = await Promise.all([
        Promise.all(Array.from({ length: 50 }, () => get(csvPath(t.id), at(tenant.admin.token)))),
        Promise.all(Array.from({ length: 50 }, () => get(testPath(t.id), at(tenant.admin.token)))),
      ]);
      assert.deepEqual(statusesOf(csvs), [200], csvs.find((r) => r.status !== 200)?.text);
      assert.deepEqual(statusesOf(reads), [200], reads.find((r) => r.status !== 200)?.text);
      assert.equal(new Set(csvs.map((r) => r.text)).size, 1);
      assert.equal(new Set(reads.map((r) => r.text)).size, 1);
      const lines = csvs[0].text.trim().split('\n').slice(1);
      assert.equal(lines.length, 50);
      assert.equal(new Set(lines.map((l) => l.split(',')[0])).size, 50);
    });

    it('submits, answer saves and reads racing the scheduled closer over overdue attempts: each counted once, automatically', async () => {
      const { test: t2 } = await publishTest(tenant.admin.token, tenant.clientId, {
        questions: await mixedQuestions(tenant.clientId),
      });
      const racers = students.slice(0, 20);
      const attempts = await inBatches(racers, 10, (s, i) => startAndAnswer(s, t2.id, i));
      await inBatches(attempts, 10, (id) => expire(tenant.clientId, id, 60));
      const question = async (id: string, token: string) => (await get(`/api/attempts/${id}`, at(token))).body;
      const [submits, saves, reads] = await Promise.all([
        Promise.all(attempts.map((id, i) => post(`/api/attempts/${id}/submit`, undefined, at(racers[i].token)))),
        Promise.all(
          attempts.map(async (id, i) => {
            const qs = (await adminDbAttempt(tenant.clientId, id)).question_order as string[];
            return post(
              `/api/attempts/${id}/answers`,
              { question_id: qs[0], student_answer: 'late' },
              at(racers[i].token),
            );
          }),
        ),
        Promise.all(attempts.map((id, i) => question(id, racers[i].token))),
        Promise.all([closeOverdue(Date.now(), 200), closeOverdue(Date.now(), 200), closeOverdue(Date.now(), 200)]),
      ]);
      for (const r of submits) assert.ok([200, 409].includes(r.status), r.text);
      for (const r of saves) assert.ok([200, 409].includes(r.status), r.text);
      for (const r of reads) assert.equal(r.status, 'submitted');
      const { kept, repaired } = await keptAndRepaired(tenant.admin.token, t2.id);
      assert.equal(repaired.changed, false, 'double or lost count');
      assert.equal(kept.completed, 20);
      assert.equal(kept.auto_submitted, 20);
      assert.equal(kept.total_attempts, 20);
    });

    it('a start over an overdue attempt racing the closer and that attempt’s submit: the old one counted once, the new one started once', async () => {
      const { test: t3 } = await publishTest(tenant.admin.token, tenant.clientId, {
        questions: await mixedQuestions(tenant.clientId),
      });
      const racers = students.slice(20, 40);
      const attempts = await inBatches(racers, 10, (s, i) => startAndAnswer(s, t3.id, i));
      await inBatches(attempts, 10, (id) => expire(tenant.clientId, id, 60));
      const [starts, submits] = await Promise.all([
        Promise.all(racers.map((s) => post('/api/attempts', { test_id: t3.id }, at(s.token)))),
        Promise.all(attempts.map((id, i) => post(`/api/attempts/${id}/submit`, undefined, at(racers[i].token)))),
        Promise.all([closeOverdue(Date.now(), 200), closeOverdue(Date.now(), 200)]),
      ]);
      // Forty-two transactions on one test's sums can pass the 8 s backend deadline on a slow
      // emulator: that start answers the documented 503, and the client's retry either starts it
      // (201) or finds the attempt the first try made (200, resumed). Never a second attempt.
      for (const [i, r] of starts.entries()) {
        if (r.status !== 503) continue;
        expectError(r, 503, 'SERVICE_UNAVAILABLE');
        starts[i] = await post('/api/attempts', { test_id: t3.id }, at(racers[i].token));
        assert.ok([200, 201].includes(starts[i].status), starts[i].text);
      }
      assert.ok(
        starts.every((r) => r.status === 201 || (r.status === 200 && r.body.resumed === true)),
        starts.map((r) => r.text).join('\n'),
      );
      for (const r of submits) assert.ok([200, 409].includes(r.status), r.text);
      const { kept, repaired } = await keptAndRepaired(tenant.admin.token, t3.id);
      assert.equal(repaired.changed, false, 'double or lost count');
      assert.equal(kept.total_attempts, 40);
      assert.equal(kept.completed, 20);
      assert.equal(kept.auto_submitted, 20);
      assert.equal(kept.in_progress, 20);
    });
  });

  const adminDbAttempt = async (clientId: string, attemptId: string) =>
    (await attemptDoc(clientId, attemptId).get()).data()!;

  describe('attack: versions after a republish (in-process)', function () {
    this.timeout(180_000);

    it('an attempt on version 1 submitted, or closed by a start, after version 2 is published counts under version 1', async () => {
      const tenant = await createTenant();
      const [s1, s2, s3] = await Promise.all([
        createUser('student', tenant.clientId),
        createUser('student', tenant.clientId),
        createUser('student', tenant.clientId),
      ]);
      const v1Questions = await Promise.all(
        [0, 1].map((i) => writeQuestion(tenant.clientId, { question_text: `V1 Q${i}` })),
      );
      const { test: t } = await publishTest(tenant.admin.token, tenant.clientId, { questions: v1Questions });
      const a1 = await startAndAnswer(s1, t.id, 1);
      const a2 = await startAndAnswer(s2, t.id, 2);
      await expire(tenant.clientId, a2, 60);
      // Republish with other questions: archive, restore, edit, publish → version 2.
      const v2Questions = await Promise.all(
        [0, 1, 2].map((i) => writeQuestion(tenant.clientId, { question_text: `V2 Q${i}`, marks: 1 })),
      );
      for (const step of ['archive', 'restore'])
        assert.equal((await post(`/api/tests/${t.id}/${step}`, undefined, at(tenant.admin.token))).status, 200);
      const put = await api('PUT', `/api/tests/${t.id}`, {
        ...at(tenant.admin.token),
        body: {
          test_name: 'Renamed',
          timer: 30,
          shuffle: 0,
          allow_review: 1,
          negative_marking: 0,
          question_ids: v2Questions.map((q) => q.id),
        },
      });
      assert.equal(put.status, 200, put.text);
      const published = await post(`/api/tests/${t.id}/publish`, undefined, at(tenant.admin.token));
      assert.equal(published.body.version, 2, published.text);

      assert.equal((await post(`/api/attempts/${a1}/submit`, undefined, at(s1.token))).status, 200);
      const restarted = await post('/api/attempts', { test_id: t.id }, at(s2.token)); // closes a2 (v1), starts on v2
      assert.equal(restarted.status, 201, restarted.text);
      const a3 = await startAndAnswer(s3, t.id, 3);
      assert.equal((await post(`/api/attempts/${a3}/submit`, undefined, at(s3.token))).status, 200);

      const v1 = await keptAndRepaired(tenant.admin.token, t.id, '?version=1');
      const v2 = await keptAndRepaired(tenant.admin.token, t.id);
      assert.equal(v1.repaired.changed, false);
      assert.equal(v2.repaired.changed, false);
      assert.equal(v1.kept.version, 1);
      assert.equal(v1.kept.test_name, 'Algebra midterm');
      assert.equal(v1.kept.question_count, 2);
      assert.deepEqual([v1.kept.total_attempts, v1.kept.completed, v1.kept.auto_submitted], [2, 2, 1]);
      assert.equal(v2.kept.version, 2);
      assert.equal(v2.kept.test_name, 'Renamed');
      assert.equal(v2.kept.question_count, 3);
      assert.deepEqual([v2.kept.total_attempts, v2.kept.completed], [2, 1]);
      const csv1 = await get(csvPath(t.id, '?version=1'), at(tenant.admin.token));
      assert.equal(csv1.text.trim().split('\n').length, 3, csv1.text);
      const csv2 = await get(csvPath(t.id), at(tenant.admin.token));
      assert.equal(csv2.text.trim().split('\n').length, 2, csv2.text);
    });
  });

  describe('attack: Firestore and Auth failing (in-process): 503, never 401/403, never a half write', function () {
    this.timeout(180_000);
    let tenant: Awaited<ReturnType<typeof createTenant>>;
    let superAdmin: TestUser;
    let t: any;

    before(async () => {
      [tenant, superAdmin] = await Promise.all([createTenant(), createUser('super_admin')]);
      ({ test: t } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 }));
      const a = await startAndAnswer(tenant.student, t.id, 1);
      assert.equal((await post(`/api/attempts/${a}/submit`, undefined, at(tenant.student.token))).status, 200);
    });

    const four = (token: string) => [
      () => get(testPath(t.id), at(token)),
      () => get(csvPath(t.id), at(token)),
      () => post(recomputePath(t.id), undefined, at(token)),
      () => get(studentPath(tenant.student.uid), at(token)),
    ];

    it('token verification failing inside Auth: 503 on all four', async () => {
      const fail = () =>
        replaceAuth('verifyIdToken', () => async () => {
          throw authInternalError();
        });
      for (const call of four(tenant.admin.token))
        expectError((await duringFault(fail, call)).result, 503, 'SERVICE_UNAVAILABLE');
    });

    it('the account lookup of the student analytics failing inside Auth: 503, not 403 or 404', async () => {
      const stranger = await createUser('student', (await createTenant()).clientId);
      // Warm the admins' account re-check, so only the handler's own lookup meets the fault.
      assert.equal((await get(studentPath(tenant.student.uid), at(tenant.admin.token))).status, 200);
      assert.equal((await get(studentPath(tenant.student.uid), at(superAdmin.token))).status, 200);
      const fail = () =>
        replaceAuth('getUser', () => async () => {
          throw authInternalError();
        });
      expectError(
        (await duringFault(fail, () => get(studentPath(stranger.uid), at(tenant.admin.token)))).result,
        503,
        'SERVICE_UNAVAILABLE',
      );
      expectError(
        (await duringFault(fail, () => get(studentPath(randomUUID()), at(tenant.admin.token)))).result,
        503,
        'SERVICE_UNAVAILABLE',
      );
      expectError(
        (await duringFault(fail, () => get(studentPath(stranger.uid), at(superAdmin.token)))).result,
        503,
        'SERVICE_UNAVAILABLE',
      );
    });

    it('reads failing (the organization, the test, its shards, the attempts, the users): each endpoint answers 503 JSON where it needs the read, else 200, never another status; a frozen version failing is 503', async () => {
      const c = tenant.clientId;
      const faults: Array<[string, RegExp]> = [
        ['organization', new RegExp(`^clients/${c}$`)],
        ['test', new RegExp(`^clients/${c}/tests/${t.id}$`)],
        ['tests (any organization)', /^tests$/],
        ['shards', /\/stats_shards\//],
        ['attempts', new RegExp(`^clients/${c}/attempts$`)],
        ['users', new RegExp(`^clients/${c}/users/`)],
      ];
      const matrix: string[] = [];
      for (const [name, paths] of faults) {
        const row: number[] = [];
        for (const [i, call] of [...four(tenant.admin.token), ...four(superAdmin.token)].entries()) {
          const { result } = await duringFault(() => failReads(paths), call);
          assert.ok([200, 503].includes(result.status), `${name} #${i}: ${result.status} ${result.text.slice(0, 200)}`);
          if (result.status === 503) expectError(result, 503, 'SERVICE_UNAVAILABLE');
          row.push(result.status);
        }
        matrix.push(`${name}: ${row.join(' ')}`);
      }
      console.log(
        `      [analytics csv recompute student] × [client admin, super admin]\n        ${matrix.join('\n        ')}`,
      );
      // The frozen version of a test never read by this instance.
      const { test: fresh } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
      const { result } = await duringFault(
        () => failReads(/\/versions\/\d+$/),
        () => get(testPath(fresh.id), at(tenant.admin.token)),
      );
      expectError(result, 503, 'SERVICE_UNAVAILABLE');
    });

    it('a repair whose commit fails: 503, and the shards are exactly as before (then a repair succeeds)', async () => {
      const shards = () =>
        testDoc(tenant.clientId, t.id).collection('versions').doc('1').collection('stats_shards').get();
      await testDoc(tenant.clientId, t.id)
        .collection('versions')
        .doc('1')
        .collection('stats_shards')
        .doc('7')
        .set({ n: FieldValue.increment(5), started: FieldValue.increment(9) }, { merge: true });
      const before = (await shards()).docs.map((d) => [d.id, d.data()]);
      const { result } = await duringFault(
        () => failWrites(/\/stats_shards\//),
        () => post(recomputePath(t.id), undefined, at(tenant.admin.token)),
      );
      expectError(result, 503, 'SERVICE_UNAVAILABLE');
      assert.deepEqual(
        (await shards()).docs.map((d) => [d.id, d.data()]),
        before,
      );
      const healed = await post(recomputePath(t.id), undefined, at(tenant.admin.token));
      assert.equal(healed.status, 200, healed.text);
      assert.equal(healed.body.changed, true);
      assert.equal(healed.body.analytics.completed, 1);
    });

    it('a start writes nothing to the sums (it is counted as in progress when read), so a failing shard cannot refuse it', async () => {
      const s = await createUser('student', tenant.clientId);
      const before = (await get(testPath(t.id), at(tenant.admin.token))).body;
      const { result } = await duringFault(
        () => failWrites(/\/stats_shards\//),
        () => post('/api/attempts', { test_id: t.id }, at(s.token)),
      );
      assert.equal(result.status, 201, result.text);
      const after = (await get(testPath(t.id), at(tenant.admin.token))).body;
      assert.deepEqual(
        [after.total_attempts, after.in_progress, after.completed],
        [before.total_attempts + 1, before.in_progress + 1, before.completed],
      );
    });

    it('the scheduled closer failing on the shards leaves the attempt in progress and uncounted; the next run counts it once', async () => {
      const s = await createUser('student', tenant.clientId);
      const { test: t4 } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
      const a = await startAndAnswer(s, t4.id, 1);
      await expire(tenant.clientId, a, 60);
      const heal = failWrites(/\/stats_shards\//);
      try {
        await assert.rejects(closeOverdue(Date.now(), 200));
      } finally {
        heal();
      }
      assert.equal((await adminDbAttempt(tenant.clientId, a)).status, 'in_progress');
      assert.equal((await get(testPath(t4.id), at(tenant.admin.token))).body.completed, 0);
      await closeOverdue(Date.now(), 200);
      await closeOverdue(Date.now(), 200);
      const { kept, repaired } = await keptAndRepaired(tenant.admin.token, t4.id);
      assert.equal(kept.completed, 1);
      assert.equal(repaired.changed, false);
    });
  });

  describe('attack: student figures against its own rows', function () {
    this.timeout(60_000);

    it('an attempt stored without percentage (before this issue) counts in average_percentage and best_percentage once its test is repaired, as its row does', async () => {
      const tenant = await createTenant();
      const { test: t } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
      const started = await startOk(tenant.student.token, { test_id: t.id });
      const q = started.test_details.questions[0];
      await post(
        `/api/attempts/${started.attempt_id}/answers`,
        { question_id: q.id, student_answer: '4' },
        as(tenant.student.token),
      );
      assert.equal(
        (await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(tenant.student.token))).status,
        200,
      );
      await attemptDoc(tenant.clientId, started.attempt_id).update({
        percentage: FieldValue.delete(),
        test_name: FieldValue.delete(),
      });
      assert.equal((await post(recomputePath(t.id), undefined, as(tenant.admin.token))).status, 200);
      assert.equal(
        (await attemptDoc(tenant.clientId, started.attempt_id).get()).get('test_name'),
        t.test_name,
        'the repair backfills the test name',
      );
      const res = await get(studentPath(tenant.student.uid), as(tenant.admin.token));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data[0].percentage, 50, 'the row figures it');
      assert.equal(res.body.completed, 1);
      assert.equal(res.body.average_score, 2);
      assert.equal(res.body.average_percentage, 50, `figures and rows disagree: ${res.text}`);
      assert.equal(res.body.best_percentage, 50, `figures and rows disagree: ${res.text}`);
    });
  });
});
