import { randomUUID } from 'node:crypto';
import { adminAuth, adminDb } from '../../support/admin';
import { digestOf, newSecret } from '../../../functions/src/invitations/tokens';
import { createUser } from '../../support/fixtures';
import type { FuzzSeedGroup, FuzzWorld } from './types';

// Seeds for the organization's roster import and the invitation links, as the tenant's Client Admin.
// The file is the same every run (the tenant's student and one new email), so the first run creates
// the new student and later ones find it there; the invitations go to a student made for them.

interface Prepared {
  newEmail: string;
  invitee: string;
  /** The secret of a link written for the invitee (its digest stored, as the service does). */
  secret: string;
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
    const secret = newSecret();
    await adminDb.doc(`invitations/${digestOf(secret)}`).set({
      uid: invitee.uid,
      client_id: world.tenant.clientId,
      email: invitee.email,
      display_name: 'Invitee',
      status: 'live',
      issued_at: new Date().toISOString(),
      issued_by: world.tenant.admin.uid,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    return { newEmail: `fuzz-users-${randomUUID().slice(0, 8)}@roster.example`, invitee: invitee.uid, secret };
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
    {
      operation: 'post /api/users/invitations',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, body: { uids: [p.invitee], only_cannot_sign_in: false } }),
    },
    {
      operation: 'delete /api/users/{uid}/invitation',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { uid: p.invitee } }),
    },
    {
      // No bearer: the token is the credential (a link revoked or used by an earlier seed answers 409).
      operation: 'post /api/invitations/preview',
      request: (_w, p: Prepared) => ({ body: { token: p.secret } }),
    },
    {
      operation: 'post /api/invitations/redeem',
      request: (_w, p: Prepared) => ({ body: { token: p.secret, password: 'fuzz-chosen-password' } }),
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
