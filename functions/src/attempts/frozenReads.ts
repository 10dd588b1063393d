import type { StoredShareCode, TestVersion } from '../exams/documents';
import { paths } from '../firestore/paths';
import { log } from '../platform/log';
import { readCache } from '../shared/cache';
import { type ApiError, serviceUnavailable } from '../shared/errors';
import type { VersionForAttempt } from './rules';

// Documents that never change once written, read once per instance: the
// frozen versions attempts are taken on, and what a share code leads to.

const MAX_CACHED = 500;

const versions = readCache<VersionForAttempt | undefined>({ max: MAX_CACHED });

/**
 * A frozen version: nothing ever edits one after publishing, so each instance
 * reads it once. Starting and submitting then cost the same with 5 questions or 500.
 */
export function versionOf(clientId: string, testId: string, version: number): Promise<VersionForAttempt | undefined> {
  const ref = paths.testVersion(clientId, testId, version);
  return versions.get(ref.path, async () => {
    const snap = await ref.get();
    return snap.exists ? (snap.data() as TestVersion) : undefined;
  });
}

/** Versions are never deleted: one missing is the backend's data gone wrong, not the caller's (503, logged with its path). */
export function versionMissing(clientId: string, testId: string, version: number): ApiError {
  log.error('A frozen version an attempt was taken on is missing', { path: paths.testVersion(clientId, testId, version).path });
  return serviceUnavailable('The test version this attempt was taken on cannot be read; retry later');
}

export async function requireVersion(clientId: string, testId: string, version: number): Promise<VersionForAttempt> {
  const found = await versionOf(clientId, testId, version);
  if (!found) throw versionMissing(clientId, testId, version);
  return found;
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
