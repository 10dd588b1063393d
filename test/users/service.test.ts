import assert from 'node:assert/strict';
import type { Request } from 'express';
import type { Principal } from '../../functions/src/auth/principal';
import { ApiError } from '../../functions/src/http/errors';
import { deleteUser, updateUser } from '../../functions/src/users/service';
import { adminAuth, adminDb } from '../support/admin';
import { createTenant, createUser } from '../support/fixtures';

// The real service against the real Auth and Firestore emulators, called in-process:
// through HTTP the Functions emulator serializes requests, so two changes never
// overlap there. Here both read the user before either writes, every time.

const asPrincipal = (user: { uid: string; clientId: string | null }, role: Principal['role']): Principal => ({
  uid: user.uid, email: null, role, clientId: user.clientId, guest: false, authTime: 0,
});
const request = { ip: '2001:db8:77::1', header: () => undefined } as unknown as Request;

describe('users service: two changes to one user at the same moment', () => {
  it('lets one win and refuses the other with CONFLICT, so Auth and the profile agree', async () => {
    const tenant = await createTenant();
    const secondAdmin = await createUser('client_admin', tenant.clientId);
    const results = await Promise.allSettled([
      updateUser(asPrincipal(tenant.admin, 'client_admin'), tenant.student.uid, { role: 'client_admin', display_name: 'Changed by A' }, request),
      updateUser(asPrincipal(secondAdmin, 'client_admin'), tenant.student.uid, { display_name: 'Changed by B', disabled: true }, request),
    ]);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(refused.length, 1, JSON.stringify(results.map((r) => r.status)));
    assert.ok(refused[0].reason instanceof ApiError && refused[0].reason.code === 'CONFLICT', String(refused[0].reason));

    const [authUser, profile] = await Promise.all([
      adminAuth.getUser(tenant.student.uid),
      adminDb.collection('clients').doc(tenant.clientId).collection('users').doc(tenant.student.uid).get(),
    ]);
    assert.equal(profile.get('display_name'), authUser.displayName);
    assert.equal(profile.get('role'), authUser.customClaims?.role);
    assert.equal(profile.get('disabled'), authUser.disabled);
    const audit = await adminDb.collection('audit_logs').where('user_id', '==', tenant.student.uid).get();
    const events = audit.docs.map((d) => d.get('event_type')).filter((t) => t !== 'login');
    assert.equal(events.length, 1, `only the winner's change is audited: ${events}`);
  });
});

describe('users service: two deletes of one user at the same moment', () => {
  it('deletes once: the other finds the user gone (NOT_FOUND), and one user_deleted record is written', async () => {
    const tenant = await createTenant();
    const secondAdmin = await createUser('client_admin', tenant.clientId);
    const results = await Promise.allSettled([
      deleteUser(asPrincipal(tenant.admin, 'client_admin'), tenant.student.uid, request),
      deleteUser(asPrincipal(secondAdmin, 'client_admin'), tenant.student.uid, request),
    ]);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(refused.length, 1, JSON.stringify(results.map((r) => r.status)));
    assert.ok(refused[0].reason instanceof ApiError && refused[0].reason.code === 'NOT_FOUND', String(refused[0].reason));
    await assert.rejects(adminAuth.getUser(tenant.student.uid), /no user record/i);
    const deleted = await adminDb.collection('audit_logs').where('user_id', '==', tenant.student.uid).where('event_type', '==', 'user_deleted').get();
    assert.equal(deleted.size, 1);
  });
});
