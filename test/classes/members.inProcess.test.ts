import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { MAX_CLASSES_PER_STUDENT, MAX_MEMBERS_PER_CLASS } from '../../functions/src/classes/documents';
import { addMembers } from '../../functions/src/classes/store';
import { newProfile } from '../../functions/src/users/profiles';
import { adminDb } from '../support/admin';
import { createTenant, createUser, type TestUser } from '../support/fixtures';
import { api, freshIp, type ApiResponse } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { untilAnswered } from '../sittings/crowd';

// Membership changes racing one another, with requests that truly overlap (the
// real app served in-process against the emulators). Each change is one
// transaction that reads the class's member_count and the student's profile
// and writes both (classes/store.ts), so concurrent adds neither lose a count
// nor pass a bound. A 503 (a lock wait that timed out on a loaded emulator)
// wrote nothing and is sent again, as a client would.

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
});
after(() => server.close());
afterEach(function () {
  if (this.currentTest?.state === 'failed') {
    for (const entry of server.logs.filter((e) => e.message === 'Unhandled error').slice(0, 10))
      console.log(JSON.stringify(entry.data).slice(0, 2000));
  }
  server.logs.length = 0;
});

const retries = { count: 0 };
after(() => {
  if (retries.count > 0) console.log(`      (${retries.count} requests answered 503 by a lock wait and sent again)`);
});
const call = (method: string, path: string, token: string, body?: unknown): Promise<ApiResponse> =>
  untilAnswered(() => api(method, path, { token, body, ip: freshIp(), baseUrl: server.baseUrl }), retries);

const classRef = (classId: string) => adminDb.doc(`clients/${tenant.clientId}/classes/${classId}`);
const profileOf = (uid: string) => adminDb.doc(`clients/${tenant.clientId}/users/${uid}`);
const students = (n: number): Promise<TestUser[]> =>
  Promise.all(Array.from({ length: n }, () => createUser('student', tenant.clientId)));

async function newClass(): Promise<string> {
  const res = await call('POST', '/api/classes', tenant.admin.token, { name: `Race ${randomUUID()}` });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

const classIdsOf = async (uid: string): Promise<string[]> => (await profileOf(uid).get()).get('class_ids') ?? [];

describe('PUT /api/classes/{classId}/members/{uid}: many at once', function () {
  this.timeout(240_000);

  it('adds 50 students sent at once: every one answered 200, member_count 50, 50 member documents, every profile lists the class', async () => {
    const classId = await newClass();
    const crowd = await students(50);
    const answers = await Promise.all(
      crowd.map((s) => call('PUT', `/api/classes/${classId}/members/${s.uid}`, tenant.admin.token)),
    );
    assert.deepEqual(
      answers.filter((a) => a.status !== 200).map((a) => a.text),
      [],
    );
    assert.equal((await classRef(classId).get()).get('member_count'), 50);
    assert.equal((await classRef(classId).collection('members').count().get()).data().count, 50);
    for (const s of crowd) assert.deepEqual(await classIdsOf(s.uid), [classId], s.uid);
  });

  it(`lets exactly 3 of 50 students sent at once into a class holding ${MAX_MEMBERS_PER_CLASS - 3}; the rest 409, nothing written for them`, async () => {
    const classId = await newClass();
    await classRef(classId).update({ member_count: MAX_MEMBERS_PER_CLASS - 3 });
    const crowd = await students(50);
    const answers = await Promise.all(
      crowd.map((s) => call('PUT', `/api/classes/${classId}/members/${s.uid}`, tenant.admin.token)),
    );
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 200).length, 3, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 409).length, 47, JSON.stringify(statuses));
    assert.equal((await classRef(classId).get()).get('member_count'), MAX_MEMBERS_PER_CLASS);
    assert.equal((await classRef(classId).collection('members').count().get()).data().count, 3);
    const joined = (await Promise.all(crowd.map((s) => classIdsOf(s.uid)))).filter((ids) => ids.includes(classId));
    assert.equal(joined.length, 3);
  });

  it(`lets one student join exactly 2 of 10 classes sent at once when it is in ${MAX_CLASSES_PER_STUDENT - 2} already`, async () => {
    const [student] = await students(1);
    const held = Array.from({ length: MAX_CLASSES_PER_STUDENT - 2 }, () => randomUUID());
    await profileOf(student.uid).update({ class_ids: held });
    const classIds = await Promise.all(Array.from({ length: 10 }, () => newClass()));
    const answers = await Promise.all(
      classIds.map((id) => call('PUT', `/api/classes/${id}/members/${student.uid}`, tenant.admin.token)),
    );
    assert.equal(answers.filter((a) => a.status === 200).length, 2, answers.map((a) => a.status).join(','));
    assert.equal(answers.filter((a) => a.status === 409).length, 8);
    const ids = await classIdsOf(student.uid);
    assert.equal(ids.length, MAX_CLASSES_PER_STUDENT);
    const counts = await Promise.all(classIds.map(async (id) => (await classRef(id).get()).get('member_count')));
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      2,
    );
  });
});

describe('addMembers (the roster import’s one transaction)', function () {
  this.timeout(120_000);
  const meta = { ip_address: '2001:db8::1', user_agent: 'test', request_id: 'r1' };

  it('adds existing students and creates the profile of a new account in one transaction, with one audit record; a dry run writes nothing', async () => {
    const classId = await newClass();
    const [existing, already] = await students(2);
    assert.equal((await call('PUT', `/api/classes/${classId}/members/${already.uid}`, tenant.admin.token)).status, 200);
    const fresh = randomUUID();
    const freshProfile = newProfile(
      {
        uid: fresh,
        email: `${fresh}@test.example`,
        display_name: 'New One',
        role: 'student',
        client_id: tenant.clientId,
      },
      new Date().toISOString(),
    );
    const members = [
      { uid: existing.uid, email: existing.email, display_name: 'E' },
      { uid: already.uid, email: already.email, display_name: 'A' },
      { uid: fresh, email: freshProfile.email!, display_name: 'New One', newProfile: freshProfile },
    ];
    const dry = await addMembers(tenant.clientId, classId, members, meta, { dryRun: true, actorId: tenant.admin.uid });
    assert.deepEqual(dry, { added: [existing.uid, fresh], alreadyMembers: [already.uid] });
    assert.equal((await classRef(classId).get()).get('member_count'), 1);
    assert.equal((await profileOf(fresh).get()).exists, false);

    const done = await addMembers(tenant.clientId, classId, members, meta, { actorId: tenant.admin.uid });
    assert.deepEqual(done, dry);
    assert.equal((await classRef(classId).get()).get('member_count'), 3);
    assert.deepEqual(await classIdsOf(existing.uid), [classId]);
    const created = (await profileOf(fresh).get()).data()!;
    assert.equal(created.role, 'student');
    assert.deepEqual(created.class_ids, [classId]);
    const records = (
      await adminDb.collection('audit_logs').where('event_type', '==', 'class_members_imported').get()
    ).docs.filter((d) => d.get('details.class_id') === classId);
    assert.equal(records.length, 1);
    assert.deepEqual(records[0].get('details.added'), [existing.uid, fresh]);
    assert.equal(records[0].get('actor_id'), tenant.admin.uid);
  });

  it('refuses the whole list when one would pass the class’s bound (409) or is no student of the organization (400), writing nothing', async () => {
    const classId = await newClass();
    const crowd = await students(4);
    const members = crowd.map((s) => ({ uid: s.uid, email: s.email, display_name: 'S' }));
    await classRef(classId).update({ member_count: MAX_MEMBERS_PER_CLASS - 3 });
    await assert.rejects(addMembers(tenant.clientId, classId, members, meta), (err: any) => err.code === 'CONFLICT');
    await classRef(classId).update({ member_count: 0 });
    const other = await createTenant();
    await assert.rejects(
      addMembers(
        tenant.clientId,
        classId,
        [...members, { uid: other.student.uid, email: other.student.email, display_name: 'X' }],
        meta,
      ),
      (err: any) => err.code === 'VALIDATION_ERROR' && err.details[0].path === 'members.4.uid',
    );
    assert.equal((await classRef(classId).get()).get('member_count'), 0);
    for (const s of crowd) assert.deepEqual(await classIdsOf(s.uid), []);
  });
});
