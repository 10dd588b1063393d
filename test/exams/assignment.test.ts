import assert from 'node:assert/strict';
import { expectError, expectValidation } from '../support/assertions';
import { createRoleMatrix, createUser, signInAnonymously, type RoleMatrix } from '../support/fixtures';
import { FieldValue } from 'firebase-admin/firestore';
import { api, get, patch, post } from '../support/http';
import { as, createTestAs, testDoc, validTest, writeQuestion } from './fixtures';
import { attemptDoc, publishTest, start, startOk, writeShareCode } from '../attempts/fixtures';
import { addMember, removeMember, writeClass } from './classFixtures';
import { MAX_CLASSES_PER_TEST } from '../../functions/src/classes/documents';
import { auditOf, submit } from '../sittings/httpFixtures';

// Tests assigned to classes, over HTTP with real tokens: a student lists, reads and
// starts only what is open to its organization or assigned to one of its classes;
// anything else is 404, exactly as a test that does not exist.

let m: RoleMatrix;
let classA: { id: string };
let classB: { id: string };
let student: Awaited<ReturnType<typeof createUser>>;
let openTest: any;
let testOfA: any;
let testOfB: any;

const adminToken = () => m.tenant.admin.token;
const publishAssigned = async (assigned: string[], extra: Record<string, unknown> = {}) =>
  (await publishTest(adminToken(), m.tenant.clientId, { count: 1, extra: { assigned_class_ids: assigned, ...extra } }))
    .test;

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
  [classA, classB, student] = await Promise.all([
    writeClass(m.tenant.clientId),
    writeClass(m.tenant.clientId),
    createUser('student', m.tenant.clientId),
  ]);
  await addMember(m.tenant.clientId, classA.id, student);
  [openTest, testOfA, testOfB] = await Promise.all([
    publishAssigned([]),
    publishAssigned([classA.id]),
    publishAssigned([classB.id]),
  ]);
});

describe('assigned_class_ids on a test', () => {
  it('is answered to authors and stored with its audience; [] (open) by default', async () => {
    assert.deepEqual(testOfA.assigned_class_ids, [classA.id]);
    assert.deepEqual(openTest.assigned_class_ids, []);
    assert.deepEqual((await testDoc(m.tenant.clientId, testOfA.id).get()).get('audience'), [classA.id]);
    assert.deepEqual((await testDoc(m.tenant.clientId, openTest.id).get()).get('audience'), ['*']);
  });

  it('is never shown to a student, nor are the class overrides', async () => {
    const res = await get(`/api/tests/${testOfA.id}`, as(student.token));
    assert.equal(res.status, 200, res.text);
    for (const field of ['assigned_class_ids', 'audience', 'class_overrides'])
      assert.equal(field in res.body, false, field);
  });

  it('is changed by PATCH on a published test, audited as test_assignment_changed', async () => {
    const test = await publishAssigned([]);
    const res = await patch(`/api/tests/${test.id}`, { assigned_class_ids: [classB.id, classA.id] }, as(adminToken()));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.assigned_class_ids, [classB.id, classA.id]);
    assert.deepEqual((await testDoc(m.tenant.clientId, test.id).get()).get('audience'), [classB.id, classA.id]);
    const [record] = (await auditOf(m.tenant.clientId, 'test_assignment_changed')).filter(
      (r) => r.details.test_id === test.id,
    );
    assert.deepEqual(record.details, {
      test_id: test.id,
      from: [],
      to: [classB.id, classA.id],
      added: [classB.id, classA.id],
      removed: [],
    });
    assert.equal(record.actor_id, m.tenant.admin.uid);
  });

  it('is kept by a PUT that leaves it out (a replace never opens a test to the whole organization); a PUT with [] opens it', async () => {
    const question = await writeQuestion(m.tenant.clientId, { question_text: 'Kept assignment' });
    const draft = await createTestAs(adminToken(), validTest([question.id], { assigned_class_ids: [classA.id] }));
    const replaced = await api('PUT', `/api/tests/${draft.id}`, {
      ...as(adminToken()),
      body: validTest([question.id], { test_name: 'Renamed draft' }),
    });
    assert.equal(replaced.status, 200, replaced.text);
    assert.equal(replaced.body.test_name, 'Renamed draft');
    assert.deepEqual(replaced.body.assigned_class_ids, [classA.id]);
    assert.deepEqual((await testDoc(m.tenant.clientId, draft.id).get()).get('audience'), [classA.id]);
    const opened = await api('PUT', `/api/tests/${draft.id}`, {
      ...as(adminToken()),
      body: validTest([question.id], { assigned_class_ids: [] }),
    });
    assert.equal(opened.status, 200, opened.text);
    assert.deepEqual(opened.body.assigned_class_ids, []);
    assert.deepEqual((await testDoc(m.tenant.clientId, draft.id).get()).get('audience'), ['*']);
  });

  it('answers 403 for another organization’s class, naming it', async () => {
    const foreign = await writeClass(m.otherTenant.clientId);
    const res = await patch(`/api/tests/${openTest.id}`, { assigned_class_ids: [foreign.id] }, as(adminToken()));
    expectError(res, 403, 'FORBIDDEN');
    assert.match(res.body.message, new RegExp(foreign.id));
    const q = await writeQuestion(m.tenant.clientId);
    const created = await post('/api/tests', validTest([q.id], { assigned_class_ids: [foreign.id] }), as(adminToken()));
    expectError(created, 403, 'FORBIDDEN');
  });

  it('answers 400 naming body.assigned_class_ids for a class that does not exist, and changes nothing', async () => {
    const res = await patch(`/api/tests/${openTest.id}`, { assigned_class_ids: ['no-such-class'] }, as(adminToken()));
    expectValidation(res, ['body.assigned_class_ids'], ['no-such-class']);
    assert.deepEqual((await testDoc(m.tenant.clientId, openTest.id).get()).get('assigned_class_ids'), []);
  });

  it(`answers 400 beyond ${MAX_CLASSES_PER_TEST} classes, and for a class named twice`, async () => {
    const many = Array.from({ length: MAX_CLASSES_PER_TEST + 1 }, (_, i) => `class-${i}`);
    expectValidation(await patch(`/api/tests/${openTest.id}`, { assigned_class_ids: many }, as(adminToken())), [
      'body.assigned_class_ids',
    ]);
    expectValidation(
      await patch(`/api/tests/${openTest.id}`, { assigned_class_ids: [classA.id, classA.id] }, as(adminToken())),
      ['body.assigned_class_ids'],
    );
  });
});

describe('GET /api/tests as a student', () => {
  it('lists the tests open to the organization and those of its classes, not the others', async () => {
    const res = await get('/api/tests?limit=100', as(student.token));
    assert.equal(res.status, 200, res.text);
    const ids = res.body.data.map((t: any) => t.id);
    assert.ok(ids.includes(openTest.id));
    assert.ok(ids.includes(testOfA.id));
    assert.ok(!ids.includes(testOfB.id));
    assert.equal(res.body.pagination.total, ids.length);
  });

  it('lists only the open tests to a student in no class', async () => {
    const loner = await createUser('student', m.tenant.clientId);
    const ids = (await get('/api/tests?limit=100', as(loner.token))).body.data.map((t: any) => t.id);
    assert.ok(ids.includes(openTest.id));
    assert.ok(!ids.includes(testOfA.id) && !ids.includes(testOfB.id));
  });

  it('lists everything to an administrator', async () => {
    const ids = (await get('/api/tests?limit=100', as(adminToken()))).body.data.map((t: any) => t.id);
    for (const t of [openTest, testOfA, testOfB]) assert.ok(ids.includes(t.id));
  });
});

describe('GET /api/tests/{testId} as a student', () => {
  it('answers a test not assigned to its classes with the very 404 of a test that does not exist', async () => {
    const unassigned = await get(`/api/tests/${testOfB.id}`, as(student.token));
    const missing = await get('/api/tests/no-such-test', as(student.token));
    expectError(unassigned, 404, 'NOT_FOUND');
    assert.deepEqual(unassigned.body, missing.body);
  });

  it('reads a test of its class and an open one', async () => {
    assert.equal((await get(`/api/tests/${testOfA.id}`, as(student.token))).status, 200);
    assert.equal((await get(`/api/tests/${openTest.id}`, as(student.token))).status, 200);
  });
});

describe('POST /api/attempts and assignment', () => {
  it('refuses a student’s start of a test not assigned to its classes with the 404 of a missing test', async () => {
    const unassigned = await start(student.token, { test_id: testOfB.id });
    const missing = await start(student.token, { test_id: 'no-such-test' });
    expectError(unassigned, 404, 'NOT_FOUND');
    assert.deepEqual(unassigned.body, missing.body);
  });

  it('starts a test of its class and keeps the classes on the attempt', async () => {
    const started = await startOk(student.token, { test_id: testOfA.id });
    const stored = (await attemptDoc(m.tenant.clientId, started.attempt_id).get()).data()!;
    assert.deepEqual(stored.class_ids, [classA.id]);
  });

  it('lets a student removed from the class resume, submit and read its attempt, but not start again', async () => {
    const test = await publishAssigned([classA.id]);
    const pupil = await createUser('student', m.tenant.clientId);
    await addMember(m.tenant.clientId, classA.id, pupil);
    const first = await startOk(pupil.token, { test_id: test.id });
    await removeMember(m.tenant.clientId, classA.id, pupil.uid);

    const resumed = await start(pupil.token, { test_id: test.id });
    assert.equal(resumed.status, 200, resumed.text);
    assert.equal(resumed.body.attempt_id, first.attempt_id);
    assert.equal(resumed.body.resumed, true);
    const submitted = await submit(pupil.token, first.attempt_id);
    assert.equal(submitted.status, 200, submitted.text);
    const read = await get(`/api/attempts/${first.attempt_id}`, as(pupil.token));
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.status, 'submitted');

    expectError(await start(pupil.token, { test_id: test.id }), 404, 'NOT_FOUND');
    expectError(await get(`/api/tests/${test.id}`, as(pupil.token)), 404, 'NOT_FOUND');
  });

  it('lets a Guest with a share code start a test assigned to classes', async () => {
    const code = await writeShareCode(m.tenant.clientId, testOfB.id);
    const guest = await signInAnonymously();
    const res = await start(guest.token, { share_code: code });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual((await attemptDoc(m.tenant.clientId, res.body.attempt_id).get()).get('class_ids'), []);
  });

  it('lets an administrator start a test for a student outside its classes (the assignment binds students only)', async () => {
    const res = await start(adminToken(), { test_id: testOfB.id, student_id: student.uid });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual((await attemptDoc(m.tenant.clientId, res.body.attempt_id).get()).get('class_ids'), [classA.id]);
  });
});

describe('a test stored before assignments', () => {
  it('is open to every student once backfilled (or written again), as a test with no class', async () => {
    const test = await publishAssigned([]);
    await testDoc(m.tenant.clientId, test.id).update({
      assigned_class_ids: FieldValue.delete(),
      audience: FieldValue.delete(),
    });
    const loner = await createUser('student', m.tenant.clientId);
    assert.equal((await get(`/api/tests/${test.id}`, as(loner.token))).status, 200);
    assert.equal((await start(loner.token, { test_id: test.id })).status, 201);
    // Not listed until it has an audience: any write of the test gives it one.
    const listed = async () =>
      (await get('/api/tests?limit=100', as(loner.token))).body.data.some((t: any) => t.id === test.id);
    assert.equal(await listed(), false);
    assert.equal((await patch(`/api/tests/${test.id}`, { attempt_cooldown_minutes: 0 }, as(adminToken()))).status, 200);
    assert.equal(await listed(), true);
  });
});
