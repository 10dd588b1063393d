import { randomUUID } from 'node:crypto';
import type { StoredClass, StoredClassMember } from '../../../functions/src/classes/documents';
import { adminDb } from '../../support/admin';
import type { FuzzSeedGroup, FuzzWorld } from './types';

// Seeds for the roster import, as the tenant's Client Admin, into a class made for it
// alone. The file is the same every run (the tenant's student and one new email), so
// the class stays small: the first run creates and adds, later ones find members.

interface Prepared {
  classId: string;
  newEmail: string;
}

const classDoc = (w: FuzzWorld, p: Prepared) => adminDb.doc(`clients/${w.tenant.clientId}/classes/${p.classId}`);

export const seeds: FuzzSeedGroup = {
  async prepare(world): Promise<Prepared> {
    const classId = randomUUID();
    const now = new Date().toISOString();
    const cls: StoredClass = {
      id: classId,
      client_id: world.tenant.clientId,
      name: 'Fuzz roster',
      code: null,
      member_count: 0,
      created_at: now,
      updated_at: now,
    };
    await adminDb.doc(`clients/${world.tenant.clientId}/classes/${classId}`).set(cls);
    return { classId, newEmail: `fuzz-roster-${randomUUID().slice(0, 8)}@roster.example` };
  },
  seeds: [
    {
      operation: 'post /api/classes/{classId}/roster',
      request: (w, p: Prepared) => ({
        token: w.tenant.admin.token,
        params: { classId: p.classId },
        query: { mode: 'partial' },
        multipart: {
          field: 'file',
          filename: 'roster.csv',
          contentType: 'text/csv',
          content: `email,name\n${w.tenant.student.email},Student\n${p.newEmail},New Student\n`,
        },
      }),
    },
  ],
  afterRuns: (w, p: Prepared) => [
    {
      operation: 'post /api/classes/{classId}/roster',
      request: {
        token: w.tenant.admin.token,
        params: { classId: p.classId },
        multipart: {
          field: 'file',
          filename: 'roster.csv',
          contentType: 'text/csv',
          content: `email,name\n${w.tenant.student.email},Student\n${p.newEmail},New Student\n`,
        },
      },
    },
  ],
  // The class's count is its members, and every member has the class on its profile.
  async problems(w, p: Prepared) {
    const problems: string[] = [];
    const [cls, members] = await Promise.all([classDoc(w, p).get(), classDoc(w, p).collection('members').get()]);
    const count = (cls.data() as StoredClass).member_count;
    if (count !== members.size) problems.push(`roster class: member_count ${count} but ${members.size} members`);
    for (const member of members.docs) {
      const { uid } = member.data() as StoredClassMember;
      const profile = await adminDb.doc(`clients/${w.tenant.clientId}/users/${uid}`).get();
      if (!((profile.get('class_ids') as string[] | undefined) ?? []).includes(p.classId))
        problems.push(`roster class: member ${uid} lacks the class in its profile's class_ids`);
    }
    if (members.size !== 2) problems.push(`roster class: ${members.size} members, expected the 2 of the file`);
    return problems;
  },
};
