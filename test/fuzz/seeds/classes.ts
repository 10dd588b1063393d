import { randomUUID } from 'node:crypto';
import { adminDb } from '../../support/admin';
import { createUser } from '../../support/fixtures';
import type { FuzzSeedGroup, FuzzWorld } from './types';

// Seeds for classes and their members, as the tenant's Client Admin. One class
// is kept for the member calls; deletes go to classes made per run. Afterwards
// every class's member_count must equal its member documents, and every member
// must list the class on its profile.

interface Prepared {
  classId: string;
  studentUid: string;
  /**
   * The member deletes' own class: a uid of '..' makes the client send the delete of the class itself
   * (the URL's dot segments are resolved before it leaves), which may then go, 404 from then on.
   */
  removalClassId: string;
}

const classOf = (clientId: string, classId: string) =>
  adminDb.collection('clients').doc(clientId).collection('classes').doc(classId);

async function prepare(world: FuzzWorld): Promise<Prepared> {
  const [classId, removalClassId, student] = await Promise.all([
    writeClass(world),
    writeClass(world),
    createUser('student', world.tenant.clientId),
  ]);
  return { classId, studentUid: student.uid, removalClassId };
}

/** A class written as the service stores it (a delete seed's fresh target each run). */
async function writeClass(world: FuzzWorld): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const name = `Fuzz class ${id}`;
  await classOf(world.tenant.clientId, id).set({
    id,
    client_id: world.tenant.clientId,
    name,
    name_sort: name.toLowerCase(),
    code: null,
    member_count: 0,
    created_at: now,
    updated_at: now,
  });
  return id;
}

export const seeds: FuzzSeedGroup = {
  prepare,
  seeds: [
    { operation: 'get /api/classes', request: (w) => ({ token: w.tenant.admin.token, query: { page: '1', limit: '10' } }) },
    {
      operation: 'post /api/classes',
      request: (w) => ({ token: w.tenant.admin.token, body: { name: `Fuzz ${randomUUID()}`, code: '9C' } }),
    },
    {
      operation: 'get /api/classes/{classId}',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { classId: p.classId } }),
    },
    {
      operation: 'patch /api/classes/{classId}',
      request: (w, p: Prepared) => ({
        token: w.tenant.admin.token,
        params: { classId: p.classId },
        body: { name: `Renamed ${randomUUID()}`, code: null },
      }),
    },
    {
      // A class that never existed: 404 unless the fuzz broke the request first (the real delete is in routes.test.ts).
      operation: 'delete /api/classes/{classId}',
      request: (w) => ({ token: w.tenant.admin.token, params: { classId: randomUUID() } }),
    },
    {
      operation: 'get /api/classes/{classId}/members',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { classId: p.classId }, query: { limit: '5' } }),
    },
    {
      operation: 'post /api/classes/{classId}/invitations',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { classId: p.classId }, body: {} }),
    },
    {
      operation: 'put /api/classes/{classId}/members/{uid}',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { classId: p.classId, uid: p.studentUid } }),
    },
    {
      operation: 'delete /api/classes/{classId}/members/{uid}',
      request: (w, p: Prepared) => ({
        token: w.tenant.admin.token,
        params: { classId: p.removalClassId, uid: p.studentUid },
      }),
    },
  ],
  afterRuns: (w, p: Prepared) => [
    {
      operation: 'put /api/classes/{classId}/members/{uid}',
      request: { token: w.tenant.admin.token, params: { classId: p.classId, uid: p.studentUid } },
    },
  ],
  problems: async (w, p: Prepared) => {
    const problems: string[] = [];
    const cls = await classOf(w.tenant.clientId, p.classId).get();
    const members = await cls.ref.collection('members').get();
    if (cls.get('member_count') !== members.size)
      problems.push(`class ${p.classId}: member_count ${cls.get('member_count')}, ${members.size} member documents`);
    const profile = await adminDb.doc(`clients/${w.tenant.clientId}/users/${p.studentUid}`).get();
    const listed = ((profile.get('class_ids') as string[] | undefined) ?? []).includes(p.classId);
    if (listed !== members.docs.some((d) => d.id === p.studentUid))
      problems.push(`student ${p.studentUid}: its profile and the class disagree on its membership`);
    return problems;
  },
};
