import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { MAX_MEMBERS_PER_CLASS } from '../../../functions/src/classes/documents';
import { ltiUid, userKey } from '../../../functions/src/lti/claims';
import { ROSTER_LEASE_MS } from '../../../functions/src/lti/roster/memberships';
import { RosterPlatformFailure, syncRoster } from '../../../functions/src/lti/roster/rosterSync';
import { forgetAllAccessTokens } from '../../../functions/src/lti/platformToken';
import { adminAuth, adminDb } from '../../support/admin';
import { createTenant, createUser } from '../../support/fixtures';
import { setBackgroundTriggers } from '../../support/triggers';
import { registerPlatform, startPlatform, writeClass, writeContext } from '../fixtures';
import type { PlatformServices, RosterMember } from '../platformServices';

// A course's roster (NRPS) filling its class: from the Firestore trigger on the
// course's document in the emulators, and, for failures and bounds, run here.

const LEARNER = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner';
const INSTRUCTOR = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor';
const NRPS_SCOPE = 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly';

let platform: PlatformServices & { clientIds: string[] };
before(async () => {
  platform = await startPlatform();
});
after(() => platform.close());
beforeEach(() => forgetAllAccessTokens());

const learner = (
  tag: string,
  email: string | null = `${tag}-${randomUUID().slice(0, 8)}@school.example`,
): RosterMember => ({
  user_id: `sub-${tag}-${randomUUID().slice(0, 8)}`,
  roles: [LEARNER],
  ...(email ? { email } : {}),
  given_name: tag,
  family_name: 'Learner',
});

const contextDoc = (clientId: string, key: string) => adminDb.doc(`clients/${clientId}/lti_contexts/${key}`);
const memberUids = async (clientId: string, classId: string) =>
  (await adminDb.collection(`clients/${clientId}/classes/${classId}/members`).get()).docs.map((d) => d.id).sort();

async function waitForSync(clientId: string, key: string, ms = 25_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const doc = (await contextDoc(clientId, key).get()).data()!;
    if (doc.roster_synced_at) return doc;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(
    `the roster of ${key} was not synced within ${ms} ms: ${JSON.stringify((await contextDoc(clientId, key).get()).data())}`,
  );
}

describe('NRPS roster sync, from the trigger on a course’s first launch', () => {
  it('fills the class with the course’s Learners before they launch: the accounts their launch signs in, each mapped by issuer + sub', async function () {
    this.timeout(60_000);
    const tenant = await createTenant();
    const registration = await registerPlatform(tenant.clientId, platform);
    const classId = await writeClass(tenant.clientId);
    const existing = await createUser('student', tenant.clientId);
    const members = [
      learner('ann'),
      learner('bob'),
      learner('cyd', existing.email.toUpperCase()),
      learner('dee', null),
      { user_id: 'teacher-1', roles: [INSTRUCTOR], email: `t-${randomUUID().slice(0, 6)}@school.example`, name: 'T' },
      { ...learner('fay'), status: 'Inactive' as const },
    ];
    const url = platform.roster(members, 2);
    const key = await writeContext(tenant.clientId, registration, classId, url);

    const doc = await waitForSync(tenant.clientId, key);
    assert.deepEqual(doc.roster_sync, {
      tries: 1,
      lease_until_ms: null,
      last_error: null,
      learners: 4,
      enrolled: 4,
      skipped: 0,
    });
    assert.equal(
      platform.rosterReads.filter((r) => r.startsWith(new URL(url).pathname)).length,
      3,
      'every page, by the Link header',
    );
    assert.ok(
      platform.tokenRequests.some(
        (r) => r.clientId === registration.platform_client_id && r.scopes.includes(NRPS_SCOPE),
      ),
    );

    const learners = members.slice(0, 4);
    const uids = learners.map((m) => ltiUid(tenant.clientId, registration.issuer, m.user_id));
    assert.deepEqual(await memberUids(tenant.clientId, classId), [...uids].sort());
    const [ann, , cyd, dee] = await Promise.all(uids.map((uid) => adminAuth.getUser(uid)));
    assert.equal(ann.email, learners[0].email);
    assert.equal(ann.displayName, 'ann Learner');
    assert.deepEqual(ann.customClaims, { role: 'student', client_id: tenant.clientId });
    // An email another account holds (here a student made by a roster file) is not taken over: the platform user gets its own account.
    assert.equal(cyd.email, undefined);
    assert.equal(dee.email, undefined);
    // Its profile and class membership show the address its account has (none), the platform's claim apart.
    const cydProfile = (await adminDb.doc(`clients/${tenant.clientId}/users/${uids[2]}`).get()).data()!;
    assert.equal(cydProfile.email, '');
    assert.equal(cydProfile.lms_email, existing.email.toLowerCase());
    const cydMember = (
      await adminDb.doc(`clients/${tenant.clientId}/classes/${classId}/members/${uids[2]}`).get()
    ).data()!;
    assert.equal(cydMember.email, '');
    const profile = (await adminDb.doc(`clients/${tenant.clientId}/users/${uids[0]}`).get()).data()!;
    assert.deepEqual(profile.class_ids, [classId]);
    assert.equal(profile.role, 'student');

    for (const [i, member] of learners.entries()) {
      const mapping = (
        await adminDb.doc(`clients/${tenant.clientId}/lti_users/${userKey(registration.issuer, member.user_id)}`).get()
      ).data();
      assert.deepEqual(
        { ...mapping, created_at: undefined },
        {
          platform_id: registration.id,
          issuer: registration.issuer,
          sub: member.user_id,
          uid: uids[i],
          created_at: undefined,
        },
      );
    }
  });

  it('does nothing for a course without a memberships URL', async () => {
    const tenant = await createTenant();
    const registration = await registerPlatform(tenant.clientId, platform);
    const classId = await writeClass(tenant.clientId);
    const key = await writeContext(tenant.clientId, registration, classId, null);
    await new Promise((r) => setTimeout(r, 1500));
    const doc = (await contextDoc(tenant.clientId, key).get()).data()!;
    assert.equal(doc.roster_synced_at, null);
    assert.equal(doc.roster_sync, undefined);
  });
});

describe('NRPS roster sync, run here: failures and bounds', () => {
  // The trigger of a course's creation can arrive late under load, after a run here released the course,
  // and then run it itself: these runs are the only ones.
  before(() => setBackgroundTriggers(false));
  after(() => setBackgroundTriggers(true));

  /** A course held by a run (its lease), to be run here with a clock past that lease. */
  async function heldCourse(members: RosterMember[], opts: { pageSize?: number; memberCount?: number } = {}) {
    const tenant = await createTenant();
    const registration = await registerPlatform(tenant.clientId, platform);
    const classId = await writeClass(tenant.clientId, opts.memberCount ?? 0);
    const url = platform.roster(members, opts.pageSize ?? 100);
    const held = { tries: 0, lease_until_ms: Date.now() + ROSTER_LEASE_MS, last_error: null };
    const key = await writeContext(tenant.clientId, registration, classId, url, { roster_sync: held });
    return { tenant, registration, classId, url, key, later: Date.now() + ROSTER_LEASE_MS + 1000 };
  }

  it('a platform answering 500 leaves the course unsynced and released with the reason, and throws for a retry that then succeeds', async () => {
    const { tenant, classId, key, later } = await heldCourse([learner('gus')]);
    platform.failRoster({ status: 500 });
    await assert.rejects(syncRoster(tenant.clientId, key, later), (err) => {
      assert.ok(err instanceof RosterPlatformFailure);
      assert.equal(err.message, 'The memberships endpoint answered 500');
      return true;
    });
    const failed = (await contextDoc(tenant.clientId, key).get()).data()!;
    assert.equal(failed.roster_synced_at, null);
    assert.deepEqual(failed.roster_sync, {
      tries: 1,
      lease_until_ms: null,
      last_error: 'The memberships endpoint answered 500',
    });
    assert.deepEqual(await memberUids(tenant.clientId, classId), []);

    const retried = await syncRoster(tenant.clientId, key, later + 1000);
    assert.deepEqual(retried, { status: 'synced', learners: 1, enrolled: 1, skipped: 0 });
    assert.equal((await memberUids(tenant.clientId, classId)).length, 1);
    assert.deepEqual(await syncRoster(tenant.clientId, key, later + 2000), { status: 'done' });
  });

  it('a token endpoint that refuses is a platform failure too', async () => {
    const { tenant, key, later } = await heldCourse([learner('hal')]);
    platform.failTokens({ status: 401, body: '{"error":"invalid_client"}' });
    await assert.rejects(syncRoster(tenant.clientId, key, later), /The token endpoint refused \(401 invalid_client\)/);
  });

  it('finds a Learner its own launch already made (same uid), keeps that launch’s mapping, and adds it to the class', async () => {
    const launched = learner('jo');
    const { tenant, registration, classId, key, later } = await heldCourse([launched, learner('kim')]);
    const uid = ltiUid(tenant.clientId, registration.issuer, launched.user_id);
    await adminAuth.createUser({ uid, displayName: 'Jo from the launch' });
    await adminAuth.setCustomUserClaims(uid, { role: 'student', client_id: tenant.clientId });
    const now = new Date().toISOString();
    await adminDb.doc(`clients/${tenant.clientId}/users/${uid}`).set({
      uid,
      email: '',
      display_name: 'Jo from the launch',
      role: 'student',
      client_id: tenant.clientId,
      disabled: false,
      created_at: now,
      updated_at: now,
    });
    const mappingRef = adminDb.doc(
      `clients/${tenant.clientId}/lti_users/${userKey(registration.issuer, launched.user_id)}`,
    );
    const launchMapping = {
      platform_id: registration.id,
      issuer: registration.issuer,
      sub: launched.user_id,
      uid,
      created_at: 'launch',
    };
    await mappingRef.set(launchMapping);

    assert.deepEqual(await syncRoster(tenant.clientId, key, later), {
      status: 'synced',
      learners: 2,
      enrolled: 2,
      skipped: 0,
    });
    assert.ok((await memberUids(tenant.clientId, classId)).includes(uid));
    assert.deepEqual((await mappingRef.get()).data(), launchMapping);
    assert.equal((await adminAuth.getUser(uid)).displayName, 'Jo from the launch');
  });

  it('runs once at a time: a course held by a run is left alone', async () => {
    const { tenant, key } = await heldCourse([learner('ivy')]);
    assert.deepEqual(await syncRoster(tenant.clientId, key, Date.now()), { status: 'busy' });
  });

  it('stops reading pages once the class’s bound of Learners is read, and enrols no more than the class has room for', async function () {
    this.timeout(60_000);
    const many = Array.from({ length: MAX_MEMBERS_PER_CLASS + 100 }, (_, i) => learner(`l${i}`));
    const { tenant, url, key, later } = await heldCourse(many, {
      pageSize: 250,
      memberCount: MAX_MEMBERS_PER_CLASS - 2,
    });
    const result = await syncRoster(tenant.clientId, key, later);
    assert.deepEqual(result, {
      status: 'synced',
      learners: MAX_MEMBERS_PER_CLASS,
      enrolled: 2,
      skipped: MAX_MEMBERS_PER_CLASS - 2,
    });
    assert.equal(
      platform.rosterReads.filter((r) => r.startsWith(new URL(url).pathname)).length,
      2,
      'two pages of three',
    );
  });
});
