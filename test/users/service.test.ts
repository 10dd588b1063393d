import assert from 'node:assert/strict';
import type { Principal } from '../../functions/src/auth/principal';
import type { RequestOrigin } from '../../functions/src/shared/callContext';
import { ApiError } from '../../functions/src/shared/errors';
import { createUser as createUser_, deleteUser, updateUser } from '../../functions/src/users/service';
import { authInternalError, failWrites, loggedDuring, readTogether, replaceAuth } from '../support/faults';
import { adminAuth, adminDb } from '../support/admin';
import { createTenant, createUser } from '../support/fixtures';

// The real service against the real Auth and Firestore emulators, called in-process:
// through HTTP the Functions emulator serializes requests, so two changes never
// overlap there. Here both read the user before either writes, every time
// (readTogether holds the profile reads until both have arrived).

const asPrincipal = (user: { uid: string; clientId: string | null }, role: Principal['role']): Principal => ({
  uid: user.uid,
  email: null,
  role,
  clientId: user.clientId,
  guest: false,
  authTime: 0,
});
const request: RequestOrigin = { ip: '2001:db8:77::1', userAgent: null, requestId: 'none' };
/** Where the web app is served: the base of an invitation link (unused here: every account gets a password). */
const BASE_URL = 'http://127.0.0.1:5000';

describe('users service: two changes to one user at the same moment', () => {
  it('lets one win and refuses the other with CONFLICT, so Auth and the profile agree', async () => {
    const tenant = await createTenant();
    const secondAdmin = await createUser('client_admin', tenant.clientId);
    const together = readTogether(new RegExp(`/users/${tenant.student.uid}$`), 2);
    let results;
    try {
      results = await Promise.allSettled([
        updateUser(
          asPrincipal(tenant.admin, 'client_admin'),
          tenant.student.uid,
          { role: 'client_admin', display_name: 'Changed by A' },
          request,
        ),
        updateUser(
          asPrincipal(secondAdmin, 'client_admin'),
          tenant.student.uid,
          { display_name: 'Changed by B', disabled: true },
          request,
        ),
      ]);
    } finally {
      together();
    }
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(refused.length, 1, JSON.stringify(results.map((r) => r.status)));
    assert.ok(
      refused[0].reason instanceof ApiError && refused[0].reason.code === 'CONFLICT',
      String(refused[0].reason),
    );

    const [authUser, profile] = await Promise.all([
      adminAuth.getUser(tenant.student.uid),
      adminDb.collection('clients').doc(tenant.clientId).collection('users').doc(tenant.student.uid).get(),
    ]);
    assert.equal(profile.get('display_name'), authUser.displayName);
    assert.equal(profile.get('role'), authUser.customClaims?.role);
    assert.equal(profile.get('disabled'), authUser.disabled);
    const audit = await adminDb.collection('audit_logs').where('user_id', '==', tenant.student.uid).get();
    const events = audit.docs
      .map((d) => d.get('event_type'))
      .filter((t) => t !== 'login')
      .sort();
    // A's change is a role and a name; B's a name and disabling. Only one of them is on record.
    const winnerA = ['profile_changed', 'role_changed'];
    const winnerB = ['profile_changed', 'user_disabled'];
    assert.ok(
      [winnerA, winnerB].some((w) => JSON.stringify(w) === JSON.stringify(events)),
      `only the winner's change is audited: ${events}`,
    );
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
    assert.ok(
      refused[0].reason instanceof ApiError && refused[0].reason.code === 'NOT_FOUND',
      String(refused[0].reason),
    );
    await assert.rejects(adminAuth.getUser(tenant.student.uid), /no user record/i);
    const deleted = await adminDb
      .collection('audit_logs')
      .where('user_id', '==', tenant.student.uid)
      .where('event_type', '==', 'user_deleted')
      .get();
    assert.equal(deleted.size, 1);
  });
});

describe('users service: two first-role grants to different organizations at the same moment', () => {
  it('lets one win and refuses the other with CONFLICT: one role, one organization, one profile, one record', async () => {
    const [a, b, superA, superB] = await Promise.all([
      createTenant(),
      createTenant(),
      createUser('super_admin'),
      createUser('super_admin'),
    ]);
    const drifter = await createUser(null);
    const results = await Promise.allSettled([
      updateUser(
        asPrincipal(superA, 'super_admin'),
        drifter.uid,
        { role: 'client_admin', client_id: a.clientId },
        request,
      ),
      updateUser(
        asPrincipal(superB, 'super_admin'),
        drifter.uid,
        { role: 'client_admin', client_id: b.clientId },
        request,
      ),
    ]);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(refused.length, 1, JSON.stringify(results.map((r) => r.status)));
    assert.ok(
      refused[0].reason instanceof ApiError && refused[0].reason.code === 'CONFLICT',
      String(refused[0].reason),
    );

    const claims = (await adminAuth.getUser(drifter.uid)).customClaims;
    const winner = claims?.client_id;
    assert.ok(winner === a.clientId || winner === b.clientId, JSON.stringify(claims));
    const loser = winner === a.clientId ? b.clientId : a.clientId;
    const [won, lost] = await Promise.all([
      adminDb.collection('clients').doc(winner).collection('users').doc(drifter.uid).get(),
      adminDb.collection('clients').doc(loser).collection('users').doc(drifter.uid).get(),
    ]);
    assert.equal(won.get('client_id'), winner);
    assert.equal(lost.exists, false, 'the losing organization got no profile');
    const grants = await adminDb
      .collection('audit_logs')
      .where('user_id', '==', drifter.uid)
      .where('event_type', '==', 'role_changed')
      .get();
    assert.equal(grants.size, 1);
    assert.equal(grants.docs[0].get('client_id'), winner);
  });
});

describe('users service: creating a user when a step fails', () => {
  const input = (clientId: string) => ({
    email: `crash-${Math.random().toString(36).slice(2, 10)}@test.example`,
    password: 'a-long-enough-password',
    display_name: 'Crash Test',
    role: 'client_admin' as const,
    client_id: clientId,
  });
  /** Every Auth account with this email that holds a role, and whether the audit log knows it. */
  async function privilegedAccounts(email: string) {
    const account = await adminAuth.getUserByEmail(email).catch(() => undefined);
    if (!account?.customClaims?.role) return [];
    const created = await adminDb
      .collection('audit_logs')
      .where('user_id', '==', account.uid)
      .where('event_type', '==', 'user_created')
      .get();
    return [{ uid: account.uid, recorded: created.size === 1 }];
  }

  it('grants nothing when the profile and record cannot be written, even if undoing the account fails too', async () => {
    const tenant = await createTenant();
    const body = input(tenant.clientId);
    const healWrites = failWrites(/^clients\/[^/]+\/users\//);
    const healDelete = replaceAuth('deleteUser', () => async () => {
      throw authInternalError();
    });
    try {
      const { result } = await loggedDuring(() =>
        createUser_(asPrincipal(tenant.admin, 'client_admin'), body, request, BASE_URL).then(
          () => 'created',
          (err) => err,
        ),
      );
      assert.ok(result instanceof Error, 'the create fails');
    } finally {
      healWrites();
      healDelete();
    }
    assert.deepEqual(await privilegedAccounts(body.email), [], 'no account holds a role');
  });

  it('leaves only a recorded account without claims when granting the claims fails and so does the undo', async () => {
    const tenant = await createTenant();
    const body = input(tenant.clientId);
    const healClaims = replaceAuth('setCustomUserClaims', () => async () => {
      throw authInternalError();
    });
    const healDelete = replaceAuth('deleteUser', () => async () => {
      throw authInternalError();
    });
    // The profile and its record are written (the first commit); undoing them fails.
    const healUndo = failWrites(/^audit_logs\//, { skip: 1 });
    let entries;
    try {
      ({ entries } = await loggedDuring(() =>
        createUser_(asPrincipal(tenant.admin, 'client_admin'), body, request, BASE_URL).catch(() => undefined),
      ));
    } finally {
      healClaims();
      healDelete();
      healUndo();
    }
    assert.deepEqual(await privilegedAccounts(body.email), [], 'the account holds no role');
    const leftover = await adminAuth.getUserByEmail(body.email);
    const created = await adminDb
      .collection('audit_logs')
      .where('user_id', '==', leftover.uid)
      .where('event_type', '==', 'user_created')
      .get();
    assert.equal(created.size, 1, 'what is left is on record');
    assert.ok(
      entries.some((e) => e.severity === 'ERROR' && /undone only in part/.test(e.message)),
      JSON.stringify(entries),
    );
  });

  it('grants the role only after the profile and the user_created record exist', async () => {
    const tenant = await createTenant();
    const body = input(tenant.clientId);
    let seenAtGrant: { profile: boolean; record: boolean } | undefined;
    const heal = replaceAuth('setCustomUserClaims', (original) => async (uid: string, claims: object) => {
      const [profile, record] = await Promise.all([
        adminDb.collection('clients').doc(tenant.clientId).collection('users').doc(uid).get(),
        adminDb.collection('audit_logs').where('user_id', '==', uid).where('event_type', '==', 'user_created').get(),
      ]);
      seenAtGrant = { profile: profile.exists, record: record.size === 1 };
      return original(uid, claims);
    });
    try {
      await createUser_(asPrincipal(tenant.admin, 'client_admin'), body, request, BASE_URL);
    } finally {
      heal();
    }
    assert.deepEqual(seenAtGrant, { profile: true, record: true });
  });
});
