import { randomUUID } from 'node:crypto';
import { adminAuth, adminDb } from '../../support/admin';
import { createUser } from '../../support/fixtures';
import type { FuzzSeedGroup, FuzzWorld } from './types';

// Seeds for the organization's roster import and the invitation links, as the tenant's Client Admin.
// The file is the same every run (the tenant's student and one new email), so the first run creates
// the new student and later ones find it there; the invitations go to a student made for them.

interface Prepared {
  newEmail: string;
  invitee: string;
}

const roster = (w: FuzzWorld, p: Prepared) => ({
  field: 'file',
  filename: 'students.csv',
  contentType: 'text/csv',
  content: `email,name,password\n${w.tenant.student.email},Student,\n${p.newEmail},New Student,\n`,
});

export const seeds: FuzzSeedGroup = {
  async prepare(world): Promise<Prepared> {
    const invitee = await createUser('student', world.tenant.clientId);
    return { newEmail: `fuzz-users-${randomUUID().slice(0, 8)}@roster.example`, invitee: invitee.uid };
  },
  seeds: [
    {
      operation: 'post /api/users/import',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, query: { mode: 'partial' }, multipart: roster(w, p) }),
    },
    {
      operation: 'post /api/users/{uid}/invitation',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { uid: p.invitee } }),
    },
  ],
  afterRuns: (w, p: Prepared) => [
    { operation: 'post /api/users/import', request: { token: w.tenant.admin.token, multipart: roster(w, p) } },
  ],
  // The new student exists once, as a student of the tenant, with its profile.
  async problems(w, p: Prepared) {
    const account = await adminAuth.getUserByEmail(p.newEmail).catch(() => undefined);
    if (!account) return [`users import: no account for ${p.newEmail}`];
    const problems: string[] = [];
    const claims = account.customClaims ?? {};
    if (claims.role !== 'student' || claims.client_id !== w.tenant.clientId)
      problems.push(`users import: ${p.newEmail} has claims ${JSON.stringify(claims)}`);
    if (!(await adminDb.doc(`clients/${w.tenant.clientId}/users/${account.uid}`).get()).exists)
      problems.push(`users import: ${p.newEmail} has no profile`);
    return problems;
  },
};
