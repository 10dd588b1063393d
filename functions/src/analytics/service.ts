import {
  classOrganization,
  paperOf,
  poolQuestions,
  type StoredAttempt,
  universePositions,
  type VersionForAttempt,
  versionOf,
} from '../attempts';
import { assertCanFilterByClass, assertCanReadTestAnalytics, type Principal } from '../auth';
import { conflict, notFound } from '../shared';
import {
  assertHasVersion,
  keyRevisionOf,
  requireTest,
  totalMarksRange,
  versionPoolMarks,
  type MarksRange,
  type StoredTest,
} from '../exams';
import type { TestAnalytics } from './schemas';
import { emptySums, sameSums, versionStatistics, type StatQuestion, type VersionSums } from './statistics';
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
export async function analyticsTarget(
  principal: Principal,
  testId: string,
  requestedVersion: number | undefined,
): Promise<VersionTarget> {
  const test = await requireTest(principal, testId);
  assertCanReadTestAnalytics(principal, { clientId: test.client_id });
  if (requestedVersion === undefined) return { test, version: test.version };
  assertHasVersion(test, requestedVersion);
  return { test, version: requestedVersion };
}

/**
 * Checks a class filter on a test's figures: a class of the test's organization (another's → 403,
 * none → 404). Nothing when no class is asked for.
 */
export async function assertClassFilter(
  principal: Principal,
  test: StoredTest,
  classId: string | undefined,
): Promise<void> {
  if (classId === undefined) return;
  const classClientId = await classOrganization(test.client_id, classId);
  assertCanFilterByClass(principal, { clientId: test.client_id, classId, classClientId });
}

/** The frozen version, which must exist for a published version number (as recent as its last regrade). */
export async function frozenVersion(test: StoredTest, version: number): Promise<VersionForAttempt> {
  const frozen = await versionOf(test.client_id, test.id, version, keyRevisionOf(test, version));
  if (!frozen) throw new Error(`Frozen version ${version} of test ${test.id} is missing`);
  return frozen;
}

const isPooled = (frozen: VersionForAttempt | undefined): boolean => (frozen?.pools ?? []).length > 0;

/** How many blocks the version's per-question sums span (store.blockCount of the fixed and pool questions). */
const blocksOf = (frozen: VersionForAttempt): number => store.blockCount(universePositions(frozen).size);

/**
 * The questions the analytics list, at their positions in the version: every
 * fixed question, and the pool questions some submitted attempt saw (read
 * through the instance's cache of frozen pool questions).
 */
async function listedQuestions(
  test: StoredTest,
  frozen: VersionForAttempt,
  sums: VersionSums,
): Promise<{ questions: StatQuestion[]; positions: number[] }> {
  const fixed = frozen.questions;
  const positions = fixed.map((_, i) => i);
  if (!isPooled(frozen)) return { questions: fixed, positions };
  const seen = [...universePositions(frozen)].filter(
    ([, position]) => position >= fixed.length && (sums.q[String(position)]?.n ?? 0) > 0,
  );
  const drawn = await poolQuestions(
    frozen,
    test.client_id,
    seen.map(([id]) => id),
  );
  return { questions: [...fixed, ...drawn], positions: [...positions, ...seen.map(([, position]) => position)] };
}

/** Each attempt's paper, its drawn questions read together (cached per instance). */
export async function papersFor(
  test: StoredTest,
  frozen: VersionForAttempt,
  attempts: StoredAttempt[],
): Promise<(attempt: StoredAttempt) => VersionForAttempt> {
  const ids = [...new Set(attempts.flatMap((a) => a.drawn ?? []))];
  const byId = new Map((await poolQuestions(frozen, test.client_id, ids)).map((q) => [q.id, q]));
  return (attempt) =>
    (attempt.drawn ?? []).length > 0
      ? paperOf(
          frozen,
          attempt.drawn!.map((id) => byId.get(id)!),
        )
      : frozen;
}

/**
 * The totals the version's attempts can have (exams/totals.ts): from the marks the version keeps beside its
 * pools' ids; a version frozen before it kept them reads its pool questions once (the instance's cache).
 */
export async function marksRangeOf(test: StoredTest, frozen: VersionForAttempt): Promise<MarksRange> {
  const pools = frozen.pools ?? [];
  const kept = versionPoolMarks(pools);
  if (kept) return totalMarksRange(frozen.total_marks, kept);
  const questions = await poolQuestions(
    frozen,
    test.client_id,
    pools.flatMap((pool) => pool.question_ids),
  );
  const marks = new Map(questions.map((q) => [q.id, typeof q.marks === 'number' ? q.marks : 0]));
  return totalMarksRange(
    frozen.total_marks,
    pools.map((pool) => ({ draw: pool.draw, marks: pool.question_ids.map((id) => marks.get(id) ?? 0) })),
  );
}

function compose(
  { classId }: { classId?: string },
  test: StoredTest,
  frozen: VersionForAttempt | undefined,
  range: MarksRange | undefined,
  sums: VersionSums,
  extremes: { highest: number | null; lowest: number | null },
  inProgress: number,
  listed: { questions: StatQuestion[]; positions: number[] } = {
    questions: frozen?.questions ?? [],
    positions: (frozen?.questions ?? []).map((_, i) => i),
  },
): TestAnalytics {
  const questions = frozen?.questions ?? [];
  const draws = (frozen?.pools ?? []).reduce((sum, pool) => sum + pool.draw, 0);
  return {
    test_id: test.id,
    client_id: test.client_id,
    test_name: frozen?.test.test_name ?? test.test_name,
    ...(classId === undefined ? {} : { class_id: classId }),
    version: frozen?.version ?? null,
    latest_version: test.version,
    // The most an attempt can score: with pools of differing marks, the highest score can pass the least total.
    total_marks: range?.max ?? null,
    total_marks_min: range?.min ?? null,
    total_marks_max: range?.max ?? null,
    question_count: questions.length + draws,
    ...versionStatistics(sums, listed.questions, frozen?.total_marks ?? 0, inProgress, {
      pooled: isPooled(frozen),
      positions: listed.positions,
    }),
    highest_score: extremes.highest,
    lowest_score: extremes.lowest,
  };
}

/**
 * The analytics of one version, or of its attempts by one class's students (`classId`: the class's
 * own sums, the same shape and the same cost).
 */
export async function testAnalytics(
  principal: Principal,
  testId: string,
  requestedVersion: number | undefined,
  classId?: string,
): Promise<TestAnalytics> {
  const { test, version } = await analyticsTarget(principal, testId, requestedVersion);
  const classChecked = assertClassFilter(principal, test, classId);
  if (version === null) {
    await classChecked;
    return compose({ classId }, test, undefined, undefined, emptySums(), { highest: null, lowest: null }, 0);
  }
  const at: store.SumsScope = { clientId: test.client_id, testId: test.id, version, classId };
  const [frozen] = await Promise.all([frozenVersion(test, version), classChecked]);
  const [sums, extremes, inProgress] = await Promise.all([
    store.sumsOf(at, blocksOf(frozen)),
    store.scoreExtremes(at),
    store.inProgressCount(at),
  ]);
  const [listed, checked, range] = await Promise.all([
    listedQuestions(test, frozen, sums),
    store.withLegacyExtremes(at, extremes, sums.n),
    marksRangeOf(test, frozen),
  ]);
  return compose(at, test, frozen, range, sums, checked, inProgress, listed);
}

/**
 * The repair: the version's sums recomputed from its attempts, replacing the
 * maintained ones. One at a time per version: a second while one runs is
 * refused (409) rather than left to contend with it for the same locks.
 */
export async function recomputeTestAnalytics(
  principal: Principal,
  testId: string,
  requestedVersion: number | undefined,
) {
  const { test, version } = await analyticsTarget(principal, testId, requestedVersion);
  if (version === null) throw notFound('This test was never published: it has no analytics to recompute');
  const at = { clientId: test.client_id, testId: test.id, version };
  const frozen = await frozenVersion(test, version);
  const lease = await store.claimRecompute(at);
  if (!lease) throw conflict(`A recompute of version ${version} of this test is running; retry when it has finished`);
  let recomputed;
  try {
    recomputed = await store.recomputeSums(
      at,
      frozen.test.test_name,
      (attempts) => papersFor(test, frozen, attempts),
      blocksOf(frozen),
    );
  } finally {
    await store.releaseRecompute(lease);
  }
  const { before, after, attempts, inProgress, classesChanged } = recomputed;
  const extremes = await store.scoreExtremes(at);
  return {
    test_id: test.id,
    version,
    attempts_read: attempts,
    changed: !sameSums(before, after) || classesChanged,
    analytics: compose(
      {},
      test,
      frozen,
      await marksRangeOf(test, frozen),
      after,
      extremes,
      inProgress,
      await listedQuestions(test, frozen, after),
    ),
  };
}
