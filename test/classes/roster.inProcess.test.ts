import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { StoredClass } from '../../functions/src/classes/documents';
import { rosterUid } from '../../functions/src/users/rosterRows';
import { auth } from '../../functions/src/firestore/db';
import { adminAuth, adminDb } from '../support/admin';
import { authInternalError, failWrites } from '../support/faults';
import { createTenant, createUser } from '../support/fixtures';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { csvUpload, postBytes } from '../support/multipart';

// The roster import served from this process: Auth and Firestore can be made to fail
// underneath it, and two imports truly overlap.

async function createClass(clientId: string): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const cls: StoredClass = {
    id,
    client_id: clientId,
    name: `Class ${id.slice(0, 8)}`,
    code: null,
    member_count: 0,
    created_at: now,
    updated_at: now,
  };
  await adminDb.doc(`clients/${clientId}/classes/${id}`).set(cls);
  return id;
}

const freshEmail = () => `new-${randomUUID().slice(0, 12)}@roster.example`;
const accountOf = (email: string) => adminAuth.getUserByEmail(email).catch(() => undefined);
const memberCount = async (clientId: string, classId: string) =>
  (await adminDb.collection(`clients/${clientId}/classes/${classId}/members`).count().get()).data().count;

/** The service's Auth client answers `method` with an outage until healed. */
function authFails(method: 'getUsers' | 'createUser'): () => void {
  const target = auth as unknown as Record<string, unknown>;
  const original = target[method];
  target[method] = () => Promise.reject(authInternalError());
  return () => {
    target[method] = original;
  };
}

let server: InProcessApi;
before(async () => {
  server = await startInProcessApi();
});
after(() => server.close());

function roster(classId: string, csv: string, token: string) {
  const upload = csvUpload(csv, 'roster.csv');
  return postBytes(`/api/classes/${classId}/roster`, upload.body, upload.contentType, {
    token,
    baseUrl: server.baseUrl,
  });
}

describe('POST /api/classes/{classId}/roster, in-process', () => {
  it('answers 503 when Auth fails during the look-up, and writes nothing', async () => {
    const tenant = await createTenant();
    const classId = await createClass(tenant.clientId);
    const email = freshEmail();
    const heal = authFails('getUsers');
    let res;
    try {
      res = await roster(classId, `email,name\n${email},New\n`, tenant.admin.token);
    } finally {
      heal();
    }
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.error, 'SERVICE_UNAVAILABLE');
    assert.equal(await accountOf(email), undefined);
    assert.equal(await memberCount(tenant.clientId, classId), 0);
  });

  it('answers 503 when Auth fails creating the accounts, and writes nothing', async () => {
    const tenant = await createTenant();
    const classId = await createClass(tenant.clientId);
    const email = freshEmail();
    const heal = authFails('createUser');
    let res;
    try {
      res = await roster(classId, `email,name\n${email},New\n${tenant.student.email},Old\n`, tenant.admin.token);
    } finally {
      heal();
    }
    assert.equal(res.status, 503, res.text);
    assert.equal(await accountOf(email), undefined);
    assert.equal(await memberCount(tenant.clientId, classId), 0);
  });

  it('takes back the accounts it created when the membership transaction fails: 503, and no account without a profile', async () => {
    const tenant = await createTenant();
    const classId = await createClass(tenant.clientId);
    const emails = [freshEmail(), freshEmail()];
    const heal = failWrites(new RegExp(`^clients/${tenant.clientId}/classes/${classId}`));
    let res;
    try {
      res = await roster(classId, `email,name\n${emails.map((e) => `${e},New`).join('\n')}\n`, tenant.admin.token);
    } finally {
      heal();
    }
    assert.equal(res.status, 503, res.text);
    for (const email of emails) assert.equal(await accountOf(email), undefined, `${email} was taken back`);
    assert.equal(await memberCount(tenant.clientId, classId), 0);
    const again = await roster(
      classId,
      `email,name\n${emails.map((e) => `${e},New`).join('\n')}\n`,
      tenant.admin.token,
    );
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.created, 2);
  });

  it('two imports of one new email at the same moment make one account, with its profile', async () => {
    const tenant = await createTenant();
    const [classA, classB, otherAdmin] = await Promise.all([
      createClass(tenant.clientId),
      createClass(tenant.clientId),
      createUser('client_admin', tenant.clientId),
    ]);
    const email = freshEmail();
    const results = await Promise.all([
      roster(classA, `email,name\n${email},Twice\n`, tenant.admin.token),
      roster(classB, `email,name\n${email},Twice\n`, otherAdmin.token),
    ]);
    // Whichever comes second either finds the account (and adds it) or is refused creating it again
    // (Auth will not create one uid twice): 409, to be sent again.
    const statuses = results.map((r) => r.status).sort();
    assert.ok(['200,200', '200,409'].includes(statuses.join()), results.map((r) => r.text).join('\n'));
    // Both imports gave the email the same uid: Auth holds one account, whichever import wrote it last.
    const account = await adminAuth.getUserByEmail(email);
    assert.equal(account.uid, rosterUid(tenant.clientId, email));
    const profile = await adminDb.doc(`clients/${tenant.clientId}/users/${account.uid}`).get();
    assert.ok(profile.exists, 'the account has its profile');
  });
});
