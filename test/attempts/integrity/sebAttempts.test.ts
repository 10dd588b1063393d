import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { expectError, expectValidation } from '../../support/assertions';
import { BASE_URL } from '../../support/env';
import { createRoleMatrix, createUser, signInAnonymously, type RoleMatrix } from '../../support/fixtures';
import { freshIp, get, patch, post, type ApiResponse, type RequestOptions } from '../../support/http';
import { as } from '../../exams/fixtures';
import { publishTest, writeShareCode } from '../../attempts/fixtures';

// Safe Exam Browser over HTTP: the expected header is computed here, independently
// (node:crypto over the URL string this test builds), never with the service's code.

const CONFIG_KEY = 'a'.repeat(32) + '0123456789abcdef0123456789abcdef';
const BROWSER_KEY = createHash('sha256').update('a browser exam key').digest('hex');
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
/** What SEB sends: SHA-256 hex of the full URL (no fragment) followed by the key. */
const sebHash = (path: string, key: string) => sha256(`${BASE_URL}${path}${key}`);
const configHeader = (path: string, key = CONFIG_KEY) => ({ 'X-SafeExamBrowser-ConfigKeyHash': sebHash(path, key) });

let m: RoleMatrix;
let test: any;

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
  ({ test } = await publishTest(m.tenant.admin.token, m.tenant.clientId, { count: 2, extra: { timer: 30 } }));
  const res = await patch(
    `/api/tests/${test.id}`,
    { seb_config_keys: [CONFIG_KEY], seb_browser_exam_keys: [BROWSER_KEY] },
    as(m.tenant.admin.token),
  );
  assert.equal(res.status, 200, res.text);
});

const startAs = (
  token: string,
  headers: Record<string, string> = {},
  body: Record<string, unknown> = { test_id: test.id },
) => post('/api/attempts', body, { ...as(token), headers });

describe('Safe Exam Browser keys on a test (PATCH)', () => {
  it('are write-only: replies carry seb_required, never the keys, to authors and students alike', async () => {
    const author = await get(`/api/tests/${test.id}`, as(m.tenant.admin.token));
    assert.equal(author.body.seb_required, true);
    assert.ok(!author.text.includes(CONFIG_KEY) && !author.text.includes(BROWSER_KEY), author.text);
    assert.equal(author.body.seb_config_keys, undefined);
    const student = await get(`/api/tests/${test.id}`, as(m.tenant.student.token));
    assert.equal(student.status, 200, student.text);
    assert.equal(student.body.seb_required, true);
    assert.ok(!student.text.includes(CONFIG_KEY), student.text);
  });

  it('refuses keys that are not 64 lowercase hex digits, repeated keys and more than 10 (400)', async () => {
    const path = `/api/tests/${test.id}`;
    const admin = as(m.tenant.admin.token);
    expectValidation(await patch(path, { seb_config_keys: [CONFIG_KEY.toUpperCase()] }, admin), [
      'body.seb_config_keys.0',
    ]);
    expectValidation(await patch(path, { seb_config_keys: ['abc'] }, admin), ['body.seb_config_keys.0']);
    expectValidation(await patch(path, { seb_browser_exam_keys: [BROWSER_KEY, BROWSER_KEY] }, admin), [
      'body.seb_browser_exam_keys',
    ]);
    const eleven = Array.from({ length: 11 }, (_, i) => sha256(String(i)));
    expectValidation(await patch(path, { seb_config_keys: eleven }, admin), ['body.seb_config_keys']);
  });
});

describe('POST /api/attempts on a test that requires Safe Exam Browser', () => {
  it('starts with X-SafeExamBrowser-ConfigKeyHash = SHA-256(URL + Config Key), computed independently', async () => {
    const student = await createUser('student', m.tenant.clientId);
    const res = await startAs(student.token, configHeader('/api/attempts'));
    assert.equal(res.status, 201, res.text);
  });

  it('starts with the hash SEB’s JavaScript API gives the page it came from (its Referer, on the same origin only)', async () => {
    const student = await createUser('student', m.tenant.clientId);
    const page = `${BASE_URL}/`;
    const hash = sha256(`${page}${CONFIG_KEY}`);
    const elsewhere = await startAs(student.token, {
      'X-SafeExamBrowser-ConfigKeyHash': sha256(`https://elsewhere.example/${CONFIG_KEY}`),
      Referer: 'https://elsewhere.example/',
    });
    expectError(elsewhere, 403, 'FORBIDDEN');
    const res = await startAs(student.token, { 'X-SafeExamBrowser-ConfigKeyHash': hash, Referer: page });
    assert.equal(res.status, 201, res.text);
  });

  it('starts with X-SafeExamBrowser-RequestHash = SHA-256(URL + Browser Exam Key)', async () => {
    const student = await createUser('student', m.tenant.clientId);
    const res = await startAs(student.token, {
      'X-SafeExamBrowser-RequestHash': sebHash('/api/attempts', BROWSER_KEY),
    });
    assert.equal(res.status, 201, res.text);
  });

  it('refuses no header, the wrong key, a key under the other header, and a header made for another URL (403)', async () => {
    const student = await createUser('student', m.tenant.clientId);
    const refused = async (headers: Record<string, string>) => {
      const res = await startAs(student.token, headers);
      expectError(res, 403, 'FORBIDDEN');
      assert.equal(res.body.message, 'This test must be taken in Safe Exam Browser');
    };
    await refused({});
    await refused(configHeader('/api/attempts', sha256('another key')));
    await refused({ 'X-SafeExamBrowser-RequestHash': sebHash('/api/attempts', CONFIG_KEY) });
    // Replayed from another path, or another host.
    await refused(configHeader('/api/attempts/x/answers'));
    await refused({ 'X-SafeExamBrowser-ConfigKeyHash': sha256(`https://elsewhere.example/api/attempts${CONFIG_KEY}`) });
  });

  it('refuses headers of the wrong length or not hex (400 naming the header)', async () => {
    const student = await createUser('student', m.tenant.clientId);
    expectValidation(await startAs(student.token, { 'X-SafeExamBrowser-ConfigKeyHash': 'abc' }), [
      'header.x-safeexambrowser-configkeyhash',
    ]);
    expectValidation(await startAs(student.token, { 'X-SafeExamBrowser-RequestHash': 'z'.repeat(64) }), [
      'header.x-safeexambrowser-requesthash',
    ]);
  });

  it('lets a Guest start with its share code from SEB, and not without it', async () => {
    const code = await writeShareCode(m.tenant.clientId, test.id);
    const guest = await signInAnonymously();
    const body = { share_code: code, guest_name: 'SEB guest' };
    expectError(await startAs(guest.token, {}, body), 403, 'FORBIDDEN');
    const res = await startAs(guest.token, configHeader('/api/attempts'), body);
    assert.equal(res.status, 201, res.text);
  });

  it('lets an administrator start for a student without SEB; the student then answers and submits from SEB only', async () => {
    const student = await createUser('student', m.tenant.clientId);
    const started = await startAs(m.tenant.admin.token, {}, { test_id: test.id, student_id: student.uid });
    assert.equal(started.status, 201, started.text);
    const { attempt_id: id, attempt_token: token } = started.body;
    const question = started.body.test_details.questions[0].id;
    const answers = `/api/attempts/${id}/answers`;
    const byToken = (headers: Record<string, string> = {}): RequestOptions => ({
      ip: freshIp(),
      headers: { 'X-Attempt-Token': token, ...headers },
    });
    const answer = { question_id: question, student_answer: 'x' };
    expectError(await post(answers, answer, byToken()), 403, 'FORBIDDEN');
    // The start's header replayed onto the answers path.
    expectError(await post(answers, answer, byToken(configHeader('/api/attempts'))), 403, 'FORBIDDEN');
    const saved = await post(answers, answer, byToken(configHeader(answers)));
    assert.equal(saved.status, 200, saved.text);
    // The student's own ID token is bound too; the query string is part of the URL.
    const withQuery = `${answers}?attempt_token=${encodeURIComponent(token)}`;
    assert.equal((await post(withQuery, answer, { ip: freshIp(), headers: configHeader(withQuery) })).status, 200);
    expectError(await post(answers, answer, as(student.token)), 403, 'FORBIDDEN');
    const events = `/api/attempts/${id}/events`;
    const ev = { events: [{ type: 'focus_lost', at: new Date().toISOString(), client_seq: 0 }] };
    expectError(await post(events, ev, byToken()), 403, 'FORBIDDEN');
    assert.equal((await post(events, ev, byToken(configHeader(events)))).status, 200);
    const submit = `/api/attempts/${id}/submit`;
    expectError(await post(submit, undefined, byToken()), 403, 'FORBIDDEN');
    const done = await post(submit, undefined, byToken(configHeader(submit)));
    assert.equal(done.status, 200, done.text);
  });

  it('lets an administrator submit a taker’s attempt from the live view with its own ID token, without SEB', async () => {
    const student = await createUser('student', m.tenant.clientId);
    const started = await startAs(student.token, configHeader('/api/attempts'));
    assert.equal(started.status, 201, started.text);
    const res = await post(`/api/attempts/${started.body.attempt_id}/submit`, undefined, as(m.tenant.admin.token));
    assert.equal(res.status, 200, res.text);
  });

  it('asks nothing once the keys are cleared ([]), and nothing of a test that never had any', async () => {
    const { test: plain } = await publishTest(m.tenant.admin.token, m.tenant.clientId, { count: 1 });
    assert.equal(plain.seb_required, false);
    const student = await createUser('student', m.tenant.clientId);
    assert.equal((await startAs(student.token, {}, { test_id: plain.id })).status, 201);
    const cleared = await patch(`/api/tests/${plain.id}`, { seb_config_keys: [CONFIG_KEY] }, as(m.tenant.admin.token));
    assert.equal(cleared.body.seb_required, true);
    const off = await patch(`/api/tests/${plain.id}`, { seb_config_keys: [] }, as(m.tenant.admin.token));
    assert.equal(off.body.seb_required, false);
    const other = await createUser('student', m.tenant.clientId);
    assert.equal((await startAs(other.token, {}, { test_id: plain.id })).status, 201);
  });
});

describe('The hash of a page (SEB’s JavaScript API) opens that page’s requests only', () => {
  const pageHeaders = (page: string) => ({
    'X-SafeExamBrowser-ConfigKeyHash': sebHash(page, CONFIG_KEY),
    Referer: `${BASE_URL}${page}`,
  });
  const refusedForSeb = (res: ApiResponse) => {
    expectError(res, 403, 'FORBIDDEN');
    assert.equal(res.body.message, 'This test must be taken in Safe Exam Browser');
  };
  const started = async () => {
    const student = await createUser('student', m.tenant.clientId);
    const res = await startAs(student.token, pageHeaders('/'));
    assert.equal(res.status, 201, res.text);
    return { student, id: res.body.attempt_id as string, question: res.body.test_details.questions[0].id as string };
  };

  it('refuses answers and a submit with the home page’s hash, the same for every student (403)', async () => {
    const { student, id, question } = await started();
    const answer = { question_id: question, student_answer: 'x' };
    refusedForSeb(
      await post(`/api/attempts/${id}/answers`, answer, { ...as(student.token), headers: pageHeaders('/') }),
    );
    refusedForSeb(
      await post(`/api/attempts/${id}/submit`, undefined, { ...as(student.token), headers: pageHeaders('/') }),
    );
    const still = await get(`/api/attempts/${id}`, as(student.token));
    assert.equal(still.body.status, 'in_progress');
    assert.deepEqual(still.body.answers, []);
  });

  it('refuses answers, events and a submit with another student’s attempt page hash (403)', async () => {
    const mine = await started();
    const theirs = await started();
    const headers = pageHeaders(`/attempts/${encodeURIComponent(theirs.id)}`);
    const options = { ...as(mine.student.token), headers };
    const answer = { question_id: mine.question, student_answer: 'x' };
    refusedForSeb(await post(`/api/attempts/${mine.id}/answers`, answer, options));
    const ev = { events: [{ type: 'focus_lost', at: new Date().toISOString(), client_seq: 0 }] };
    refusedForSeb(await post(`/api/attempts/${mine.id}/events`, ev, options));
    refusedForSeb(await post(`/api/attempts/${mine.id}/submit`, undefined, options));
    // A path trick naming the own page first, resolved to the other one.
    const trick = `/attempts/${encodeURIComponent(mine.id)}/../${encodeURIComponent(theirs.id)}`;
    const tricked = {
      ...as(mine.student.token),
      headers: { 'X-SafeExamBrowser-ConfigKeyHash': sebHash(trick, CONFIG_KEY), Referer: `${BASE_URL}${trick}` },
    };
    refusedForSeb(await post(`/api/attempts/${mine.id}/answers`, answer, tricked));
  });

  it('refuses a start with an attempt page’s hash (403)', async () => {
    const { id } = await started();
    const student = await createUser('student', m.tenant.clientId);
    refusedForSeb(await startAs(student.token, pageHeaders(`/attempts/${encodeURIComponent(id)}`)));
  });

  it('takes answers, events and a submit with the attempt’s own page hash, as the web app sends it', async () => {
    const { student, id, question } = await started();
    const own = { ...as(student.token), headers: pageHeaders(`/attempts/${encodeURIComponent(id)}`) };
    const saved = await post(`/api/attempts/${id}/answers`, { question_id: question, student_answer: 'x' }, own);
    assert.equal(saved.status, 200, saved.text);
    const ev = { events: [{ type: 'focus_lost', at: new Date().toISOString(), client_seq: 0 }] };
    assert.equal((await post(`/api/attempts/${id}/events`, ev, own)).status, 200);
    const done = await post(`/api/attempts/${id}/submit`, undefined, own);
    assert.equal(done.status, 200, done.text);
  });
});
