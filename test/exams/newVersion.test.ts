import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { expectError, expectValidation } from '../support/assertions';
import { auditRecordsFor, createRoleMatrix, createUser, type RoleMatrix } from '../support/fixtures';
import { api, del, get, post } from '../support/http';
import { startOk } from '../attempts/fixtures';
import { as, clientDoc, publishedTest, testDoc, versionDoc, writeQuestion } from './fixtures';

// A published test edited as its next version: the live version stays live until the new one is published.

const open = (testId: string, token?: string) => post(`/api/tests/${testId}/new-version`, undefined, as(token));
const edit = (testId: string, body: unknown, token?: string) =>
  api('PUT', `/api/tests/${testId}/new-version`, { ...as(token), body });
const discard = (testId: string, token?: string) => del(`/api/tests/${testId}/new-version`, as(token));
const publishNew = (testId: string, token?: string) =>
  post(`/api/tests/${testId}/new-version/publish`, undefined, as(token));
const changes = (testId: string, version: number, token?: string) =>
  get(`/api/tests/${testId}/versions/${version}/bank-changes`, as(token));

/** The content of a pending edit as PUT takes it, from the test's reply, with `changes`. */
const contentBody = (test: any, changes: Record<string, unknown> = {}) => ({
  test_name: test.test_name,
  timer: test.timer,
  shuffle: test.shuffle,
  allow_review: test.allow_review,
  negative_marking: test.negative_marking,
  question_ids: test.question_ids,
  pools: test.pools,
  description: test.description,
  max_attempts: test.max_attempts,
  negative_mark_ratio: test.negative_mark_ratio,
  folder_id: test.folder_id,
  ...changes,
});

let m: RoleMatrix;
before(async () => {
  m = await createRoleMatrix();
});
const admin = () => m.tenant.admin.token;
const newStudent = () => createUser('student', m.tenant.clientId);

describe('POST /api/tests/{testId}/new-version', () => {
  it('opens a copy of the live content beside it: status, version and live fields unchanged', async () => {
    const { test } = await publishedTest(admin(), m.tenant.clientId, 2);
    const res = await open(test.id, admin());
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.status, 'published');
    assert.equal(res.body.version, 1);
    assert.equal(res.body.updated_at, test.updated_at, 'the live test did not change');
    const pending = res.body.pending_edit;
    assert.equal(pending.base_version, 1);
    assert.equal(pending.test_name, test.test_name);
    assert.deepEqual(pending.question_ids, test.question_ids);
    assert.equal(pending.question_count, 2);
    assert.equal(pending.opened_by, m.tenant.admin.uid);
    assert.deepEqual((await get(`/api/tests/${test.id}`, as(admin()))).body.pending_edit, pending);
  });

  it('answers 409 to a draft, an archived test, and a second open', async () => {
    const { test } = await publishedTest(admin(), m.tenant.clientId, 1);
    assert.equal((await open(test.id, admin())).status, 201);
    expectError(await open(test.id, admin()), 409, 'CONFLICT');
    await post(`/api/tests/${test.id}/archive`, undefined, as(admin()));
    expectError(await open(test.id, admin()), 409, 'CONFLICT');
    await post(`/api/tests/${test.id}/restore`, undefined, as(admin()));
    expectError(await open(test.id, admin()), 409, 'CONFLICT');
  });

  it('answers 403 to another organization’s admin and a Student, 404 to an unknown test', async () => {
    const { test } = await publishedTest(admin(), m.tenant.clientId, 1);
    expectError(await open(test.id, m.otherTenant.admin.token), 403, 'FORBIDDEN');
    expectError(await open(test.id, m.tenant.student.token), 403, 'FORBIDDEN');
    expectError(await open(test.id, m.guest.token), 403, 'FORBIDDEN');
    expectError(await open(randomUUID(), admin()), 404, 'NOT_FOUND');
    assert.equal((await testDoc(m.tenant.clientId, test.id).get()).get('pending_edit'), undefined);
  });
});

describe('PUT /api/tests/{testId}/new-version', () => {
  it('edits the pending content while students keep reading and starting the live version', async () => {
    const { test } = await publishedTest(admin(), m.tenant.clientId, 2);
    await open(test.id, admin());
    const res = await edit(test.id, contentBody(test, { test_name: 'Renamed', timer: 10 }), admin());
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.test_name, test.test_name, 'the live name');
    assert.equal(res.body.pending_edit.test_name, 'Renamed');
    assert.equal(res.body.pending_edit.timer, 10);

    const student = await newStudent();
    const read = await get(`/api/tests/${test.id}`, as(student.token));
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.test_name, test.test_name);
    assert.equal(read.body.timer, test.timer);
    assert.equal('pending_edit' in read.body, false);
    assert.doesNotMatch(read.text, /Renamed/);
    const listed = await get('/api/tests', as(student.token));
    assert.doesNotMatch(listed.text, /Renamed|pending_edit/);
    const attempt = await startOk(student.token, { test_id: test.id });
    assert.equal(attempt.test_details.version, 1);
    assert.equal(attempt.test_details.test_name, test.test_name);
  });

  it('keeps a plain PUT of the published test at 409, and takes no delivery setting (400)', async () => {
    const { test } = await publishedTest(admin(), m.tenant.clientId, 1);
    await open(test.id, admin());
    expectError(
      await api('PUT', `/api/tests/${test.id}`, { ...as(admin()), body: contentBody(test) }),
      409,
      'CONFLICT',
    );
    expectValidation(await edit(test.id, contentBody(test, { opens_at: null }), admin()), ['body']);
  });

  it('answers 409 when no new version is open, and 403 to another organization’s admin and its questions', async () => {
    const { test } = await publishedTest(admin(), m.tenant.clientId, 1);
    expectError(await edit(test.id, contentBody(test), admin()), 409, 'CONFLICT');
    await open(test.id, admin());
    expectError(await edit(test.id, contentBody(test), m.otherTenant.admin.token), 403, 'FORBIDDEN');
    const foreign = await writeQuestion(m.otherTenant.clientId);
    expectError(await edit(test.id, contentBody(test, { question_ids: [foreign.id] }), admin()), 403, 'FORBIDDEN');
  });
});

describe('POST /api/tests/{testId}/new-version/publish', () => {
  it('freezes version 2 from the edit and the bank as it is now, and makes it live; running attempts keep version 1', async () => {
    const { test, questions } = await publishedTest(admin(), m.tenant.clientId, 2);
    const student = await newStudent();
    const running = await startOk(student.token, { test_id: test.id });
    await clientDoc(m.tenant.clientId)
      .collection('questions')
      .doc(questions[0].id)
      .update({ question_text: 'Edited in the bank', updated_at: new Date().toISOString() });
    await open(test.id, admin());
    await edit(test.id, contentBody(test, { test_name: 'Second edition', question_ids: [questions[0].id] }), admin());

    const res = await publishNew(test.id, admin());
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'published');
    assert.equal(res.body.version, 2);
    assert.equal(res.body.test_name, 'Second edition');
    assert.equal(res.body.pending_edit, null);
    const frozen = (await versionDoc(m.tenant.clientId, test.id, 2).get()).data()!;
    assert.equal(frozen.test.test_name, 'Second edition');
    assert.deepEqual(
      frozen.questions.map((q: any) => q.question_text),
      ['Edited in the bank'],
    );
    assert.equal((await versionDoc(m.tenant.clientId, test.id, 1).get()).get('test.test_name'), test.test_name);

    const other = await newStudent();
    const fresh = await startOk(other.token, { test_id: test.id });
    assert.equal(fresh.test_details.version, 2);
    assert.equal(fresh.test_details.questions.length, 1);
    const resumed = await get(`/api/attempts/${running.attempt_id}`, as(student.token));
    assert.equal(resumed.body.test_details?.version ?? resumed.body.version, 1);

    const [record] = await auditRecordsFor(m.tenant.admin.uid, 'test_version_published');
    assert.ok(record, 'audited');
    assert.deepEqual(record.details, { test_id: test.id, from_version: 1, version: 2 });
  });

  it('lets one of two publishes at once win; the other gets 409 and no version 3 is written', async () => {
    const { test } = await publishedTest(admin(), m.tenant.clientId, 1);
    await open(test.id, admin());
    const results = await Promise.all([publishNew(test.id, admin()), publishNew(test.id, admin())]);
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 409], results.map((r) => r.text).join('\n'));
    assert.equal((await versionDoc(m.tenant.clientId, test.id, 2).get()).exists, true);
    assert.equal((await versionDoc(m.tenant.clientId, test.id, 3).get()).exists, false);
  });

  it('answers 409 when no new version is open, and 400 naming what a publish needs', async () => {
    const { test } = await publishedTest(admin(), m.tenant.clientId, 1);
    expectError(await publishNew(test.id, admin()), 409, 'CONFLICT');
    await open(test.id, admin());
    await edit(test.id, contentBody(test, { question_ids: [], timer: null }), admin());
    expectValidation(await publishNew(test.id, admin()), ['question_ids', 'timer']);
    const stored = (await testDoc(m.tenant.clientId, test.id).get()).data()!;
    assert.equal(stored.version, 1);
    assert.ok(stored.pending_edit, 'the edit is kept');
  });

  it('answers 403 to another organization’s admin and a Student', async () => {
    const { test } = await publishedTest(admin(), m.tenant.clientId, 1);
    await open(test.id, admin());
    expectError(await publishNew(test.id, m.otherTenant.admin.token), 403, 'FORBIDDEN');
    expectError(await publishNew(test.id, m.tenant.student.token), 403, 'FORBIDDEN');
    assert.equal((await versionDoc(m.tenant.clientId, test.id, 2).get()).exists, false);
  });
});

describe('DELETE /api/tests/{testId}/new-version', () => {
  it('discards the edit and leaves the live version as it was; audited', async () => {
    const { test } = await publishedTest(admin(), m.tenant.clientId, 1);
    await open(test.id, admin());
    await edit(test.id, contentBody(test, { test_name: 'Never published' }), admin());
    const res = await discard(test.id, admin());
    assert.equal(res.status, 204, res.text);
    const read = await get(`/api/tests/${test.id}`, as(admin()));
    assert.equal(read.body.pending_edit, null);
    assert.equal(read.body.test_name, test.test_name);
    assert.equal(read.body.version, 1);
    expectError(await discard(test.id, admin()), 409, 'CONFLICT');
    const [record] = await auditRecordsFor(m.tenant.admin.uid, 'test_new_version_discarded');
    assert.equal(record?.details.test_id, test.id);
  });

  it('lets one of a publish and a discard at once win; the other gets 409', async () => {
    const { test } = await publishedTest(admin(), m.tenant.clientId, 1);
    await open(test.id, admin());
    const [published, discarded] = await Promise.all([publishNew(test.id, admin()), discard(test.id, admin())]);
    const statuses = [published.status, discarded.status];
    assert.ok(
      (statuses[0] === 200 && statuses[1] === 409) || (statuses[0] === 409 && statuses[1] === 204),
      statuses.join(','),
    );
    const stored = (await testDoc(m.tenant.clientId, test.id).get()).data()!;
    assert.equal(stored.version, published.status === 200 ? 2 : 1);
    assert.equal(stored.pending_edit, undefined);
  });

  it('answers 403 to another organization’s admin and keeps the edit', async () => {
    const { test } = await publishedTest(admin(), m.tenant.clientId, 1);
    await open(test.id, admin());
    expectError(await discard(test.id, m.otherTenant.admin.token), 403, 'FORBIDDEN');
    assert.ok((await testDoc(m.tenant.clientId, test.id).get()).get('pending_edit'));
  });
});

describe('a new version left open at an archive', () => {
  it('cannot be published while archived, and becomes the draft’s content on restore', async () => {
    const { test } = await publishedTest(admin(), m.tenant.clientId, 1);
    await open(test.id, admin());
    await edit(test.id, contentBody(test, { test_name: 'Kept through the archive' }), admin());
    assert.equal((await post(`/api/tests/${test.id}/archive`, undefined, as(admin()))).status, 200);
    expectError(await publishNew(test.id, admin()), 409, 'CONFLICT');
    const restored = await post(`/api/tests/${test.id}/restore`, undefined, as(admin()));
    assert.equal(restored.status, 200, restored.text);
    assert.equal(restored.body.status, 'draft');
    assert.equal(restored.body.test_name, 'Kept through the archive');
    assert.equal(restored.body.pending_edit, null);
  });
});

describe('GET /api/tests/{testId}/versions/{version}/bank-changes', () => {
  it('lists the fixed questions edited or deleted in the bank since the freeze, with what differs', async () => {
    const { test, questions } = await publishedTest(admin(), m.tenant.clientId, 3);
    const bank = clientDoc(m.tenant.clientId).collection('questions');
    // A write that changes nothing a taker sees is not a change.
    await bank.doc(questions[0].id).update({ updated_at: new Date().toISOString() });
    await bank.doc(questions[1].id).update({ question_text: 'Reworded', correct_answer: '3' });
    await bank.doc(questions[2].id).delete();
    const res = await changes(test.id, 1, admin());
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.checked, 3);
    assert.equal(res.body.version, 1);
    assert.deepEqual(
      res.body.changed.map((c: any) => [c.question_id, c.change, c.fields, c.question_text]),
      [
        [questions[1].id, 'edited', ['question_text', 'correct_answer'], 'Question 2'],
        [questions[2].id, 'deleted', [], 'Question 3'],
      ],
    );
  });

  it('answers an empty list when the bank still holds what was frozen', async () => {
    const { test } = await publishedTest(admin(), m.tenant.clientId, 2);
    const res = await changes(test.id, 1, admin());
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.changed, []);
  });

  it('answers 404 for a version not published, 403 to another organization’s admin and a Student', async () => {
    const { test } = await publishedTest(admin(), m.tenant.clientId, 1);
    expectError(await changes(test.id, 2, admin()), 404, 'NOT_FOUND');
    expectError(await changes(test.id, 1, m.otherTenant.admin.token), 403, 'FORBIDDEN');
    expectError(await changes(test.id, 1, m.tenant.student.token), 403, 'FORBIDDEN');
    expectValidation(await changes(test.id, 0, admin()), ['params.version']);
  });
});
