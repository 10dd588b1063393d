import type { AuditMeta } from '../../audit/trail';
import { MAX_MEMBERS_PER_CLASS, type StoredClass } from '../../classes/documents';
import { enrollStudents } from '../../classes/rosterService';
import { addMembers } from '../../classes/store';
import { db } from '../../firestore/db';
import { paths } from '../../firestore/paths';
import { errorText } from '../../platform/log';
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
  ltiStudentUid,
  ltiUserKey,
  type RosterMember,
  type RosterSyncState,
} from './memberships';

// A course's roster, read once through NRPS when the course is first launched:
// its Learners become students of the organization (found by email, or made)
// and members of the course's class, each mapped (issuer + sub) so that their
// own first launch finds them. One run at a time per course (a lease on its
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

/** Writes the issuer + sub → uid mappings that are not there yet (a launch's own, written meanwhile, wins). */
async function mapUsers(
  clientId: string,
  platform: StoredLtiPlatform,
  issuer: string,
  people: ReadonlyArray<{ sub: string; uid: string }>,
  now: string,
): Promise<void> {
  if (people.length === 0) return;
  const refs = people.map((p) => paths.clientLtiUser(clientId, ltiUserKey(issuer, p.sub)));
  await db.runTransaction(async (tx) => {
    const snaps = await tx.getAll(...refs);
    snaps.forEach((snap, i) => {
      if (snap.exists) return;
      const mapping: StoredLtiUser = {
        platform_id: platform.id,
        issuer,
        sub: people[i].sub,
        uid: people[i].uid,
        created_at: now,
      };
      tx.create(refs[i], mapping);
    });
  });
}

async function enroll(clientId: string, contextKey: string, doc: ContextDoc, platform: StoredLtiPlatform) {
  const members = await readRoster(platform, doc.memberships_url!);
  const classSnap = await paths.clientClass(clientId, doc.class_id).get();
  if (!classSnap.exists) return { learners: 0, enrolled: 0, skipped: 0 };
  const room = Math.max(0, MAX_MEMBERS_PER_CLASS - ((classSnap.data() as StoredClass).member_count ?? 0));
  const learners = members.filter((m) => m.learner && m.active);
  const students = rosterStudents(members, room);
  const mappingSnaps =
    students.length > 0
      ? await db.getAll(...students.map((s) => paths.clientLtiUser(clientId, ltiUserKey(doc.issuer, s.sub))))
      : [];
  const mapped = students.flatMap((s, i) =>
    mappingSnaps[i].exists ? [{ student: s, uid: (mappingSnaps[i].data() as StoredLtiUser).uid }] : [],
  );
  const unmapped = students.filter((_, i) => !mappingSnaps[i].exists);
  const meta = rosterMeta(contextKey);
  // Students a launch already made: added by uid (their email in Auth may differ from the roster's).
  if (mapped.length > 0)
    await addMembers(
      clientId,
      doc.class_id,
      mapped.map(({ student, uid }) => ({ uid, email: student.email!, display_name: student.name ?? student.email! })),
      meta,
      { actorId: null },
    );
  const enrolments = await enrollStudents(
    clientId,
    doc.class_id,
    unmapped.map((s) => ({
      email: s.email!,
      name: s.name ?? s.email!,
      uid: ltiStudentUid(clientId, doc.issuer, s.sub),
    })),
    meta,
  );
  const bySub = new Map(unmapped.map((s) => [s.email!, s.sub]));
  const joined = enrolments.flatMap((e) => ('uid' in e ? [{ sub: bySub.get(e.email)!, uid: e.uid }] : []));
  await mapUsers(clientId, platform, doc.issuer, joined, new Date().toISOString());
  const enrolled = mapped.length + joined.length;
  return { learners: learners.length, enrolled, skipped: learners.length - enrolled };
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
