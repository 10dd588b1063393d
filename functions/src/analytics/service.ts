import { versionOf } from '../attempts/frozenReads';
import type { VersionForAttempt } from '../attempts/rules';
import { assertCanReadTestAnalytics } from '../auth/policy';
import type { Principal } from '../auth/principal';
import { conflict, notFound } from '../shared/errors';
import type { StoredTest } from '../exams/documents';
import { requireTest } from '../exams/service';
import type { TestAnalytics } from './schemas';
import { emptySums, sameSums, versionStatistics, type VersionSums } from './statistics';
import * as store from './store';

// A test's analytics: located and authorized like the test itself, then the
// version's shards, its frozen questions (cached per instance), its two score
// extremes and the count of its attempts in progress, read side by side. The cost is the same with 10 attempts or
// 10,000: no attempt is read.

export interface VersionTarget {
  test: StoredTest;
  version: number | null;
}

/** The test (authorized) and the version asked for: the latest published by default; one never published → 404. */
export async function analyticsTarget(principal: Principal, testId: string, requestedVersion: number | undefined): Promise<VersionTarget> {
  const test = await requireTest(principal, testId);
  assertCanReadTestAnalytics(principal, { clientId: test.client_id });
  if (requestedVersion === undefined) return { test, version: test.version };
  if (test.version === null || requestedVersion > test.version) {
    throw notFound(`This test has no version ${requestedVersion}${test.version === null ? ' (it was never published)' : `; its versions are 1 to ${test.version}`}`);
  }
  return { test, version: requestedVersion };
}

/** The frozen version, which must exist for a published version number. */
export async function frozenVersion(test: StoredTest, version: number): Promise<VersionForAttempt> {
  const frozen = await versionOf(test.client_id, test.id, version);
  if (!frozen) throw new Error(`Frozen version ${version} of test ${test.id} is missing`);
  return frozen;
}

function compose(
  test: StoredTest,
  frozen: VersionForAttempt | undefined,
  sums: VersionSums,
  extremes: { highest: number | null; lowest: number | null },
  inProgress: number,
): TestAnalytics {
  const questions = frozen?.questions ?? [];
  return {
    test_id: test.id,
    client_id: test.client_id,
    test_name: frozen?.test.test_name ?? test.test_name,
    version: frozen?.version ?? null,
    latest_version: test.version,
    total_marks: frozen?.total_marks ?? null,
    question_count: questions.length,
    ...versionStatistics(sums, questions, frozen?.total_marks ?? 0, inProgress),
    highest_score: extremes.highest,
    lowest_score: extremes.lowest,
  };
}

export async function testAnalytics(principal: Principal, testId: string, requestedVersion: number | undefined): Promise<TestAnalytics> {
  const { test, version } = await analyticsTarget(principal, testId, requestedVersion);
  if (version === null) return compose(test, undefined, emptySums(), { highest: null, lowest: null }, 0);
  const at = { clientId: test.client_id, testId: test.id, version };
  const [frozen, sums, extremes, inProgress] = await Promise.all([
    frozenVersion(test, version),
    store.sumsOf(at),
    store.scoreExtremes(at),
    store.inProgressCount(at),
  ]);
  return compose(test, frozen, sums, extremes, inProgress);
}

/**
 * The repair: the version's sums recomputed from its attempts, replacing the
 * maintained ones. One at a time per version: a second while one runs is
 * refused (409) rather than left to contend with it for the same locks.
 */
export async function recomputeTestAnalytics(principal: Principal, testId: string, requestedVersion: number | undefined) {
  const { test, version } = await analyticsTarget(principal, testId, requestedVersion);
  if (version === null) throw notFound('This test was never published: it has no analytics to recompute');
  const at = { clientId: test.client_id, testId: test.id, version };
  const frozen = await frozenVersion(test, version);
  const lease = await store.claimRecompute(at);
  if (!lease) throw conflict(`A recompute of version ${version} of this test is running; retry when it has finished`);
  let recomputed;
  try {
    recomputed = await store.recomputeSums(at, frozen.questions, frozen.test.test_name);
  } finally {
    await store.releaseRecompute(lease);
  }
  const { before, after, attempts, inProgress } = recomputed;
  const extremes = await store.scoreExtremes(at);
  return {
    test_id: test.id,
    version,
    attempts_read: attempts,
    changed: !sameSums(before, after),
    analytics: compose(test, frozen, after, extremes, inProgress),
  };
}
