import type { FrozenQuestion, StoredShareCode, TestVersion } from '../exams';
import { db, paths } from '../firestore';
import { log } from '../platform';
import { type ApiError, readCache, serviceUnavailable } from '../shared';
import type { StoredAttempt } from './documents';
import { paperOf, type VersionForAttempt } from './rules';

// Documents that change only by a regrade (which raises the version's
// revision), read once per instance: the frozen versions attempts are taken
// on, the pool questions they drew, and what a share code leads to.

const MAX_CACHED = 500;
/** Up to ~20 KB each at the bank's limits: bounded to stay far below the instance's memory whatever the pools hold. */
const MAX_CACHED_POOL_QUESTIONS = 5_000;

const versions = readCache<VersionForAttempt | undefined>({ max: MAX_CACHED });

const revisionOf = (version: { revision?: number } | undefined): number => version?.revision ?? 0;

/**
 * A frozen version, read once per instance. Only a regrade changes one, and
 * it raises `revision`: a caller that knows of a later revision (an attempt's
 * key_revision, the test's key_revisions) passes it, and an older copy is read
 * again. Starting and submitting then cost the same with 5 questions or 500.
 */
export async function versionOf(
  clientId: string,
  testId: string,
  version: number,
  minRevision = 0,
): Promise<VersionForAttempt | undefined> {
  const ref = paths.testVersion(clientId, testId, version);
  const read = async () => {
    const snap = await ref.get();
    return snap.exists ? (snap.data() as TestVersion) : undefined;
  };
  const cached = await versions.get(ref.path, read);
  if (!cached || revisionOf(cached) >= minRevision) return cached;
  versions.forget(ref.path);
  return versions.get(ref.path, read);
}

/** Versions are never deleted: one missing is the backend's data gone wrong, not the caller's (503, logged with its path). */
export function versionMissing(clientId: string, testId: string, version: number): ApiError {
  log.error('A frozen version an attempt was taken on is missing', {
    path: paths.testVersion(clientId, testId, version).path,
  });
  return serviceUnavailable('The test version this attempt was taken on cannot be read; retry later');
}

export async function requireVersion(
  clientId: string,
  testId: string,
  version: number,
  minRevision = 0,
): Promise<VersionForAttempt> {
  const found = await versionOf(clientId, testId, version, minRevision);
  if (!found) throw versionMissing(clientId, testId, version);
  return found;
}

const poolQuestionCache = readCache<FrozenQuestion | undefined>({ max: MAX_CACHED_POOL_QUESTIONS });

/**
 * Frozen pool questions, by id, for a version at its revision (a regrade of
 * one raises the revision, so the corrected copy is a new key): those not
 * cached are read together, one round trip, however large the pool.
 */
export async function poolQuestions(
  version: VersionForAttempt & { client_id?: string },
  clientId: string,
  ids: readonly string[],
): Promise<FrozenQuestion[]> {
  if (ids.length === 0) return [];
  const freezeId = version.pool_freeze_id;
  if (!freezeId) throw versionMissing(clientId, version.test_id, version.version);
  const ref = (id: string) => paths.poolFrozenQuestion(clientId, version.test_id, freezeId, id);
  // The cache calls a read at once for each key it lacks: those are gathered, then read together in one getAll.
  const missing: Array<{ id: string; settle: (q: FrozenQuestion | undefined) => void; fail: (err: unknown) => void }> =
    [];
  const pending = ids.map((id) =>
    poolQuestionCache.get(
      `${ref(id).path}@${revisionOf(version)}`,
      () => new Promise<FrozenQuestion | undefined>((settle, fail) => missing.push({ id, settle, fail })),
    ),
  );
  if (missing.length > 0) {
    try {
      const snaps = await db.getAll(...missing.map((m) => ref(m.id)));
      snaps.forEach((snap, i) => missing[i].settle(snap.exists ? (snap.data() as FrozenQuestion) : undefined));
    } catch (err) {
      for (const m of missing) m.fail(err);
    }
  }
  const found = await Promise.all(pending);
  if (found.some((q) => q === undefined)) throw versionMissing(clientId, version.test_id, version.version);
  return found as FrozenQuestion[];
}

/**
 * The attempt's own paper: its version (at least as recent as the attempt's
 * key_revision) with the attempt's questions, the fixed ones and those it
 * drew, and their total. What every read, save, submit and grade of an attempt works on.
 */
export async function requirePaper(
  attempt: Pick<StoredAttempt, 'client_id' | 'test_id' | 'version' | 'drawn' | 'key_revision'>,
): Promise<VersionForAttempt> {
  const version = await requireVersion(attempt.client_id, attempt.test_id, attempt.version, attempt.key_revision ?? 0);
  return paperWith(version, attempt.client_id, attempt.drawn ?? []);
}

/** `version` with the pool questions `drawn` added (read through the cache): an attempt's paper; the version itself when nothing was drawn. */
export async function paperWith(
  version: VersionForAttempt,
  clientId: string,
  drawn: readonly string[],
): Promise<VersionForAttempt> {
  return drawn.length === 0 ? version : paperOf(version, await poolQuestions(version, clientId, drawn));
}

/** What a share code leads to never changes (only `revoked` does, and that is read in the start transaction). */
export interface ShareCodeTarget {
  code: string;
  client_id: string;
  test_id: string;
  seat_shards: number;
}
const shareCodeTargets = readCache<ShareCodeTarget | undefined>({ max: MAX_CACHED });

export function shareCodeTarget(code: string): Promise<ShareCodeTarget | undefined> {
  return shareCodeTargets.get(code, async () => {
    const snap = await paths.shareCode(code).get();
    if (!snap.exists) return undefined;
    const data = snap.data() as StoredShareCode;
    return { code: data.code, client_id: data.client_id, test_id: data.test_id, seat_shards: data.seat_shards };
  });
}
