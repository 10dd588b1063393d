// Pure: who of a test's audience has not started it, one page at a time. The
// audience is the members of the classes the test is assigned to (a student in
// two of them once), or every student of the organization when it is assigned
// to none; with the live view's class filter, those of them in that class.
// A student has started once the test's attempt slot for it exists
// (attempts/starting.ts writes it with the first attempt, in the same
// transaction, and nothing deletes it): in progress or submitted alike.

/** A profile as the audience's queries read it (clients/{c}/users/{uid}, a few fields). */
export interface AudienceProfile {
  uid: string;
  role?: unknown;
  display_name?: unknown;
  email?: unknown;
  candidate_number?: unknown;
  class_ids?: unknown;
}

export interface NotStartedStudent {
  uid: string;
  display_name: string | null;
  email: string | null;
  candidate_number?: string;
  class_ids: string[];
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const classIdsOf = (profile: AudienceProfile): string[] =>
  Array.isArray(profile.class_ids) ? profile.class_ids.filter((id): id is string => typeof id === 'string') : [];

/**
 * The audience's next page: the queries' answers (each by uid, each at most `limit + 1`
 * after the cursor) merged by uid, a student found by two queries once, cut to `limit`.
 * `more` when a profile lies beyond the page; its last uid is where the next page starts.
 * Exact: a query that answered `limit + 1` ends past the `limit`-th uid of the union.
 */
export function audiencePage(
  answers: ReadonlyArray<readonly AudienceProfile[]>,
  limit: number,
): { profiles: AudienceProfile[]; more: boolean } {
  const byUid = new Map<string, AudienceProfile>();
  for (const answer of answers)
    for (const profile of answer) if (!byUid.has(profile.uid)) byUid.set(profile.uid, profile);
  const sorted = [...byUid.values()].sort((a, b) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
  return { profiles: sorted.slice(0, limit), more: sorted.length > limit };
}

/**
 * Whether the profile is of the audience: a student; of a test assigned to classes,
 * in one of them; with the class filter, in that class too (a class the test is not
 * assigned to keeps those of its members who are in one that it is).
 */
export function inAudience(
  profile: AudienceProfile,
  assignedClassIds: readonly string[],
  classId: string | undefined,
): boolean {
  if (profile.role !== 'student') return false;
  const classes = classIdsOf(profile);
  if (assignedClassIds.length > 0 && !classes.some((id) => assignedClassIds.includes(id))) return false;
  return classId === undefined || classes.includes(classId);
}

/**
 * The page's students who have not started, in the page's order (by uid). Each names
 * its classes of the audience: of an assigned test, those it is assigned to; else all.
 */
export function notStarted(input: {
  profiles: readonly AudienceProfile[];
  /** The uids whose attempt slot on the test exists. */
  started: ReadonlySet<string>;
  assignedClassIds: readonly string[];
  classId: string | undefined;
}): NotStartedStudent[] {
  const { assignedClassIds, classId } = input;
  return input.profiles
    .filter((p) => inAudience(p, assignedClassIds, classId) && !input.started.has(p.uid))
    .map((p) => {
      const candidate = text(p.candidate_number);
      const classes = classIdsOf(p);
      return {
        uid: p.uid,
        display_name: text(p.display_name),
        email: text(p.email),
        ...(candidate !== null ? { candidate_number: candidate } : {}),
        class_ids: assignedClassIds.length > 0 ? classes.filter((id) => assignedClassIds.includes(id)) : classes,
      };
    });
}
