import type { UserRecord } from 'firebase-admin/auth';
import type { AuditMeta } from '../../audit';
import { organizationFromClaims, roleFromClaims } from '../../auth';
import { addMembers, MAX_MEMBERS_PER_CLASS, type StoredClass } from '../../classes';
import { db, paths } from '../../firestore';
import { errorText } from '../../platform';
import { accountsOf, provisionAccounts } from '../../users';
import type { StoredLtiContext, StoredLtiPlatform, StoredLtiUser } from '../documents';
import { platformRequest } from '../platformHttp';
import { forgetAccessToken, platformAccessToken } from '../platformToken';
import {
  MAX_ROSTER_PAGES,
  MAX_ROSTER_TRIES,
  mayRun,
  nextPageUrl,
  NRPS_MEDIA_TYPE,
  NRPS_SCOPE,
  readMembershipPage,
  ROSTER_LEASE_MS,
  rosterStudents,
  sameOrigin,
  type RosterMember,
  type RosterSyncState,
} from './memberships';
import { ltiProfile, ltiUid, userKey } from '../claims';

// A course's roster, read once through NRPS when the course is first launched:
// its Learners become students of the organization (the same accounts their
// own first launch would make) and members of the course's class, each mapped
// (issuer + sub), so that their first launch finds them in place. One run at a time per course (a lease on its
// document); a platform that fails leaves the course unsynced and the run
// throws, for the trigger's retries, until MAX_ROSTER_TRIES.

/** A membership page may be large (names and emails of hundreds): this much is read of each. */
const PAGE_MAX_BYTES = 2 * 1024 * 1024;

type ContextDoc = StoredLtiContext & { roster_sync?: RosterSyncState };

/** The platform failed (or refused): the run is worth trying again later. */
export class RosterPlatformFailure extends Error {}

export type RosterSyncResult =
  | { status: 'synced'; learners: number; enrolled: number; skipped: number }
  | { status: 'done' | 'busy' | 'given_up' | 'missing' };

const rosterMeta = (contextKey: string): AuditMeta => ({
  ip_address: '',
  user_agent: 'lti-roster',
  request_id: `lti-roster-${contextKey}`,
});

/** Takes the course for this run, or says why not. */
async function claim(clientId: string, contextKey: string, nowMs: number) {
  const ref = paths.clientLtiContext(clientId, contextKey);
  return db.runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (!snap.exists) return { status: 'missing' as const };
    const doc = snap.data() as ContextDoc;
    const verdict = mayRun(doc, nowMs);
    if (verdict !== 'run') return { status: verdict };
    const state: RosterSyncState = {
      tries: (doc.roster_sync?.tries ?? 0) + 1,
      lease_until_ms: nowMs + ROSTER_LEASE_MS,
      last_error: doc.roster_sync?.last_error ?? null,
    };
    tx.update(ref, { roster_sync: state });
    return { status: 'run' as const, doc, state };
  });
}

/** Every Learner of the roster's pages, at most MAX_MEMBERS_PER_CLASS of them, over at most MAX_ROSTER_PAGES pages. */
async function readRoster(platform: StoredLtiPlatform, url: string): Promise<RosterMember[]> {
  const token = await platformAccessToken(platform, [NRPS_SCOPE]);
  if ('failure' in token) throw new RosterPlatformFailure(token.failure);
  const members: RosterMember[] = [];
  let page: string | null = url;
  for (let read = 0; page && read < MAX_ROSTER_PAGES; read++) {
    const reply = await platformRequest(
      page,
      { method: 'GET', headers: { Authorization: `Bearer ${token.token}`, Accept: NRPS_MEDIA_TYPE } },
      { maxBytes: PAGE_MAX_BYTES },
    );
    if (reply.status === null) throw new RosterPlatformFailure(`Memberships: ${reply.error}`);
    if (reply.status === 401) forgetAccessToken(platform, [NRPS_SCOPE]);
    if (reply.status < 200 || reply.status > 299)
      throw new RosterPlatformFailure(`The memberships endpoint answered ${reply.status}`);
    const parsed = readMembershipPage(reply.body);
    if ('error' in parsed) throw new RosterPlatformFailure(parsed.error);
    members.push(...parsed.members);
    if (rosterStudents(members, MAX_MEMBERS_PER_CLASS).length >= MAX_MEMBERS_PER_CLASS) break;
    const next = nextPageUrl(reply.headers.get('link'), page);
    page = next && sameOrigin(next, url) ? next : null;
  }
  return members;
}

/** The accounts that exist among these uids, by uid. */
async function existingAccounts(uids: string[]): Promise<Map<string, UserRecord>> {
  return new Map((await accountsOf(uids.map((uid) => ({ uid })))).map((u) => [u.uid, u] as const));
}

interface Student {
  member: RosterMember;
  uid: string;
  displayName: string;
}

/** The issuer + sub → uid mappings not there yet (a launch's own, written meanwhile, stands). */
async function mapUsers(
  clientId: string,
  platform: StoredLtiPlatform,
  issuer: string,
  students: Student[],
  now: string,
) {
  if (students.length === 0) return;
  const refs = students.map((s) => paths.clientLtiUser(clientId, userKey(issuer, s.member.sub)));
  await db.runTransaction(async (tx) => {
    const snaps = await tx.getAll(...refs);
    snaps.forEach((snap, i) => {
      if (snap.exists) return;
      const mapping: StoredLtiUser = {
        platform_id: platform.id,
        issuer,
        sub: students[i].member.sub,
        uid: students[i].uid,
        created_at: now,
      };
      tx.create(refs[i], mapping);
    });
  });
}

/**
 * The Learners enrolled as the launch would make them: the organization's account of each platform
 * user is the one whose uid derives from (organization, issuer, sub), so a Learner's own first
 * launch signs in the very account the roster put in the class. Found or made, then all added to
 * the class in one transaction (profiles of new accounts with it), then mapped.
 */
async function enroll(clientId: string, contextKey: string, doc: ContextDoc, platform: StoredLtiPlatform) {
  const members = await readRoster(platform, doc.memberships_url!);
  const learners = rosterStudents(members, MAX_MEMBERS_PER_CLASS);
  const classSnap = await paths.clientClass(clientId, doc.class_id).get();
  if (!classSnap.exists) return { learners: learners.length, enrolled: 0, skipped: learners.length };
  const room = Math.max(0, MAX_MEMBERS_PER_CLASS - ((classSnap.data() as StoredClass).member_count ?? 0));
  const students: Student[] = learners.slice(0, room).map((member) => ({
    member,
    uid: ltiUid(clientId, doc.issuer, member.sub),
    displayName: member.name ?? member.email ?? `LTI user ${member.sub.slice(0, 40)}`,
  }));
  if (students.length === 0) return { learners: learners.length, enrolled: 0, skipped: learners.length };

  const accounts = await existingAccounts(students.map((s) => s.uid));
  // An account with another role (a Learner made an admin some other way) stays out of the class.
  const eligible = students.filter((s) => {
    const role = roleFromClaims(accounts.get(s.uid)?.customClaims);
    return (
      role === null || (role === 'student' && organizationFromClaims(accounts.get(s.uid)?.customClaims) === clientId)
    );
  });
  // Made as a first launch makes them: uid derived from the platform user, the email when no other
  // account has it, the Student claims; an account a concurrent launch has just made is the same student.
  const toMake = eligible.filter((s) => !accounts.has(s.uid));
  const now = await provisionAccounts(
    toMake.map((s) => ({
      uid: s.uid,
      displayName: s.displayName,
      ...(s.member.email ? { email: s.member.email } : {}),
    })),
    {
      role: 'student',
      clientId,
      emailIfFree: true,
      uidTakenIsSameAccount: true,
      write: async (provisioned) => {
        const made = new Map(provisioned.filter((p) => p.made).map((p) => [p.uid, p.email] as const));
        const now = new Date().toISOString();
        await addMembers(
          clientId,
          doc.class_id,
          eligible.map((s) => {
            // An account a concurrent launch made is not in either map: its own launch wrote its profile.
            const profile = ltiProfile(
              { uid: s.uid, display_name: s.displayName, role: 'student', client_id: clientId },
              { account: accounts.get(s.uid)?.email ?? made.get(s.uid), claimed: s.member.email },
              now,
            );
            // The profile is used only when the student has none yet (made now, or by a launch not yet finished).
            return { uid: s.uid, email: profile.email ?? '', display_name: s.displayName, newProfile: profile };
          }),
          rosterMeta(contextKey),
          { actorId: null },
        );
        return now;
      },
    },
  );
  await mapUsers(clientId, platform, doc.issuer, eligible, now);
  return { learners: learners.length, enrolled: eligible.length, skipped: learners.length - eligible.length };
}

/**
 * Syncs one course's roster if it is due (a memberships URL, never synced, no run under way).
 * Throws RosterPlatformFailure when the platform failed (tries left: the trigger runs it again),
 * and our own backend's errors as they are; either way the course is left unsynced, released.
 */
export async function syncRoster(clientId: string, contextKey: string, nowMs = Date.now()): Promise<RosterSyncResult> {
  const claimed = await claim(clientId, contextKey, nowMs);
  if (claimed.status !== 'run') return { status: claimed.status };
  const { doc, state } = claimed;
  const ref = paths.clientLtiContext(clientId, contextKey);
  try {
    const platformSnap = await paths.clientLtiPlatform(clientId, doc.platform_id).get();
    if (!platformSnap.exists) {
      await ref.update({
        roster_sync: {
          ...state,
          tries: MAX_ROSTER_TRIES,
          lease_until_ms: null,
          last_error: 'The LTI platform registration was deleted',
        },
      });
      return { status: 'given_up' };
    }
    const counts = await enroll(clientId, contextKey, doc, platformSnap.data() as StoredLtiPlatform);
    const synced: RosterSyncState = { ...state, lease_until_ms: null, last_error: null, ...counts };
    await ref.update({ roster_synced_at: new Date().toISOString(), roster_sync: synced });
    return { status: 'synced', ...counts };
  } catch (err) {
    // Released with the reason, so an admin (or the next run) sees why; a write that fails here too leaves the lease to expire.
    await ref
      .update({ roster_sync: { ...state, lease_until_ms: null, last_error: errorText(err).slice(0, 500) } })
      .catch(() => undefined);
    throw err;
  }
}
