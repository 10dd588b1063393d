// Pure: a platform's course roster as LTI Names and Role Provisioning Services
// 2.0 gives it (a membership container, in pages linked by `Link: rel="next"`),
// and which of its members become the course class's students.

export const NRPS_SCOPE = 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly';
export const NRPS_MEDIA_TYPE = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';

/** One member as the roster names it (only what the class needs). */
export interface RosterMember {
  sub: string;
  email: string | null;
  name: string | null;
  learner: boolean;
  /** Active in the course (NRPS `status`, Active when absent). */
  active: boolean;
}

const LEARNER_ROLES = new Set(['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner', 'Learner']);
/** Roles that keep a member out of the class even when also a Learner: the course's staff are not its students. */
const STAFF_ROLE = /(?:^|#|\/)(Instructor|Administrator|ContentDeveloper|Mentor)$/;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const text = (v: unknown, max: number): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : null;

/** The members of one page, or why the page is not a membership container. */
export function readMembershipPage(body: string): { members: RosterMember[] } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { error: 'The memberships answer is not JSON' };
  }
  const members = (json as { members?: unknown } | null)?.members;
  if (!Array.isArray(members)) return { error: 'The memberships answer has no members list' };
  const read: RosterMember[] = [];
  for (const raw of members) {
    if (typeof raw !== 'object' || raw === null) continue;
    const m = raw as Record<string, unknown>;
    const sub = text(m.user_id, 255);
    if (!sub) continue;
    const roles = Array.isArray(m.roles) ? m.roles.filter((r): r is string => typeof r === 'string') : [];
    const email = text(m.email, 254)?.toLowerCase() ?? null;
    const joined = [text(m.given_name, 100), text(m.family_name, 100)].filter(Boolean).join(' ');
    read.push({
      sub,
      email: email && EMAIL.test(email) ? email : null,
      name: text(m.name, 100) ?? (joined || null),
      learner: roles.some((r) => LEARNER_ROLES.has(r)) && !roles.some((r) => STAFF_ROLE.test(r)),
      active: m.status === undefined || m.status === 'Active',
    });
  }
  return { members: read };
}

/** The `rel="next"` target of a Link header (RFC 8288), resolved against the page's URL, or null. */
export function nextPageUrl(link: string | null, pageUrl: string): string | null {
  if (!link) return null;
  for (const part of link.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match) continue;
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2]);
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (!rels.includes('next')) continue;
    try {
      return new URL(match[1], pageUrl).toString();
    } catch {
      return null;
    }
  }
  return null;
}

/** Whether the next page may be fetched with the token: only on the roster's own origin (a bearer token goes nowhere else). */
export const sameOrigin = (a: string, b: string): boolean => {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
};

/** The students to enrol: active Learners, once each, in roster order, at most `max` (an email is not needed: a launch identifies them by sub). */
export function rosterStudents(members: readonly RosterMember[], max: number): RosterMember[] {
  const seen = new Set<string>();
  const students: RosterMember[] = [];
  for (const m of members) {
    if (students.length >= max) break;
    if (!m.learner || !m.active || seen.has(m.sub)) continue;
    seen.add(m.sub);
    students.push(m);
  }
  return students;
}

// ---------------------------------------------------------------- when to sync

/** What the roster sync keeps on the course's lti_contexts document (its own field, beside the launch's). */
export interface RosterSyncState {
  tries: number;
  /** A run holds it until then (ms since epoch): another run meanwhile does nothing. */
  lease_until_ms: number | null;
  last_error: string | null;
  /** Of the last successful run: Learners read, enrolled (created or added), left out (no email, not a student here, past the class's bound). */
  learners?: number;
  enrolled?: number;
  skipped?: number;
}

/** Runs that end in a platform's failure before the sync gives up (each run is retried by the trigger's own retries). */
export const MAX_ROSTER_TRIES = 5;
/** How long one run holds the course. */
export const ROSTER_LEASE_MS = 5 * 60_000;
/** Pages read at most (each a round trip to the platform). */
export const MAX_ROSTER_PAGES = 50;

interface ContextFields {
  memberships_url: string | null;
  roster_synced_at: string | null;
}

/**
 * Whether a write of a course's document starts a sync: its creation, a memberships URL appearing
 * or changing, or roster_synced_at cleared (a resync asked for). The sync's own writes (its state,
 * roster_synced_at set) start none, so a failing platform is not called in a loop.
 */
export function syncWanted(before: ContextFields | undefined, after: ContextFields | undefined): boolean {
  if (!after || !after.memberships_url || after.roster_synced_at !== null) return false;
  return !before || before.memberships_url !== after.memberships_url || before.roster_synced_at !== null;
}

/** Whether a run may start now on the document as it stands. */
export function mayRun(
  doc: ContextFields & { roster_sync?: RosterSyncState },
  nowMs: number,
): 'run' | 'done' | 'busy' | 'given_up' {
  if (!doc.memberships_url || doc.roster_synced_at !== null) return 'done';
  const state = doc.roster_sync;
  if (state?.lease_until_ms && state.lease_until_ms > nowMs) return 'busy';
  if ((state?.tries ?? 0) >= MAX_ROSTER_TRIES) return 'given_up';
  return 'run';
}
