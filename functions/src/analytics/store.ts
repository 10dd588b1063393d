import { randomInt } from 'node:crypto';
import { FieldValue, type DocumentReference, type DocumentSnapshot, type Timestamp, type Transaction } from 'firebase-admin/firestore';
import { answersInTime } from '../attempts/rules';
import type { StoredAttempt } from '../attempts/documents';
import { db } from '../firestore/db';
import { buildQuery } from '../firestore/pagedQuery';
import { paths } from '../firestore/paths';
import { ALREADY_EXISTS, FAILED_PRECONDITION, hasStatus, NOT_FOUND } from '../firestore/statusCodes';
import { errorText, log } from '../platform/log';
import { percentageOf } from '../shared/scores';
import { openAttemptsSpec, scoreExtremeSpec } from './analyticsQuery';
import type { StoredRecomputeLease, StoredStatsShard } from './documents';
import {
  addSums,
  emptySums,
  submissionContribution,
  type StatQuestion,
  type SubmittedAttemptFacts,
  type VersionSums,
} from './statistics';

// Firestore access for a test version's running sums
// (clients/{c}/tests/{t}/versions/{v}/stats_shards/{k}).
//
// - Maintained inside the transaction that submits the attempt: a
//   submit happens exactly once (its transaction moves the attempt from
//   in_progress to submitted), so its increments land exactly once, with no
//   trigger to be delivered twice. The write is blind (no read), so it adds
//   no round trip.
// - Spread over STATS_SHARDS shards picked at random: a class of hundreds
//   submitting within a second puts a few writes on each document, not
//   hundreds on one. Reading adds the shards up: STATS_SHARDS reads, whatever
//   the number of attempts.

export const STATS_SHARDS = 32;

/** Non-zero numbers of a sums object as FieldValue increments, in the same nesting (for a merge-set). */
function asIncrements(value: unknown): unknown {
  if (typeof value === 'number') return value === 0 ? undefined : FieldValue.increment(value);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const converted = asIncrements(inner);
      if (converted !== undefined) out[key] = converted;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return undefined;
}

function addToRandomShard(tx: Transaction, at: VersionAt, add: VersionSums): void {
  const increments = asIncrements(add) as Record<string, unknown> | undefined;
  if (!increments) return;
  tx.set(paths.testStatsShard(at.clientId, at.testId, at.version, randomInt(STATS_SHARDS)), increments, { merge: true });
}

export interface VersionAt {
  clientId: string;
  testId: string;
  version: number;
}

/**
 * Adds a submitted attempt to its version's sums, in the submit's transaction
 * (attempts' SubmissionEffects, wired in app.ts). Its facts are read off the
 * submitted attempt exactly as the repair reads them (factsOf).
 */
export function recordSubmission(tx: Transaction, submitted: StoredAttempt, version: { questions: StatQuestion[] }): void {
  const at = { clientId: submitted.client_id, testId: submitted.test_id, version: submitted.version };
  addToRandomShard(tx, at, submissionContribution(version.questions, factsOf(submitted)));
}

const shardRefs = (at: VersionAt) => Array.from({ length: STATS_SHARDS }, (_, k) => paths.testStatsShard(at.clientId, at.testId, at.version, k));

/** The shards added up; a shard never written counts as empty. */
const sumOfShards = (snaps: DocumentSnapshot[]): VersionSums =>
  snaps.reduce((sums, snap) => (snap.exists ? addSums(sums, snap.data() as StoredStatsShard) : sums), emptySums());

/** The version's sums: every shard, read in one round trip. */
export async function sumsOf(at: VersionAt): Promise<VersionSums> {
  return sumOfShards(await db.getAll(...shardRefs(at)));
}

/** The highest and lowest score of the version's submitted attempts: two one-document index reads. */
export async function scoreExtremes(at: VersionAt): Promise<{ highest: number | null; lowest: number | null }> {
  const one = (direction: 'asc' | 'desc') => buildQuery(paths.clientAttempts(at.clientId), scoreExtremeSpec(at, direction)).limit(1).select('score').get();
  const [top, bottom] = await Promise.all([one('desc'), one('asc')]);
  const scoreOf = (snap: FirebaseFirestore.QuerySnapshot) => (snap.empty ? null : ((snap.docs[0].get('score') as number | null) ?? null));
  return { highest: scoreOf(top), lowest: scoreOf(bottom) };
}

/**
 * The version's attempts in progress: a count over the open ones only, so it
 * stays one billed read however many were submitted. Counted when read rather
 * than kept by the start, which then writes nothing beyond its own documents.
 */
export async function inProgressCount(at: VersionAt): Promise<number> {
  return (await buildQuery(paths.clientAttempts(at.clientId), openAttemptsSpec(at)).count().get()).data().count;
}

/** The facts of a stored submitted attempt, as its submit recorded them. */
export function factsOf(attempt: Pick<StoredAttempt, 'score' | 'total_marks' | 'auto_submitted' | 'results' | 'answers' | 'expires_at'>): SubmittedAttemptFacts {
  return {
    score: attempt.score ?? 0,
    total_marks: attempt.total_marks,
    automatic: attempt.auto_submitted === true,
    results: attempt.results ?? [],
    answers: answersInTime(attempt),
  };
}

/** The version's sums recomputed from its attempts (pure over what was read). */
export function sumsOfAttempts(attempts: StoredAttempt[], questions: StatQuestion[]): VersionSums {
  let sums = emptySums();
  for (const attempt of attempts) {
    if (attempt.status === 'submitted') sums = addSums(sums, submissionContribution(questions, factsOf(attempt)));
  }
  return sums;
}

const RECOMPUTE_FIELDS = ['status', 'score', 'total_marks', 'auto_submitted', 'results', 'answers', 'expires_at', 'percentage', 'test_name'] as const;

/**
 * The repair: recomputes the version's sums from its attempts and replaces the
 * shards with them, in one transaction. It reads the attempts and every shard,
 * so a submit committing meanwhile (it writes its attempt and one shard) is
 * ordered either before the repair (its attempt is in the query, submitted) or
 * after it (its increment lands on the rewritten shards). The attempts are
 * read first, in the order a submit's commit takes its locks (its attempt, then
 * a shard): a submit the repair waits for never waits for the repair's shards,
 * so neither gives up on a lock and the repair's transaction is not closed
 * under it. Reads every attempt of the version: a repair, not a request path,
 * run one at a time per version (claimRecompute). It also backfills
 * `percentage` and `test_name` on submitted attempts that predate them.
 */
export async function recomputeSums(at: VersionAt, questions: StatQuestion[], testName: string): Promise<{ before: VersionSums; after: VersionSums; attempts: number; inProgress: number }> {
  const refs = shardRefs(at);
  return db.runTransaction(
    async (tx) => {
      const attempts = await tx.get(
        paths
          .clientAttempts(at.clientId)
          .where('test_id', '==', at.testId)
          .where('version', '==', at.version)
          .select(...RECOMPUTE_FIELDS),
      );
      const before = sumOfShards(await tx.getAll(...refs));
      const after = sumsOfAttempts(
        attempts.docs.map((d) => d.data() as StoredAttempt),
        questions,
      );
      tx.set(refs[0], after);
      // Attempts submitted before the percentage and the test's name were kept on them: a student's averages
      // and best (index aggregations over `percentage`) count them once they carry it.
      for (const doc of attempts.docs) {
        const attempt = doc.data() as StoredAttempt;
        if (attempt.status !== 'submitted') continue;
        const missing: Partial<StoredAttempt> = {};
        if (typeof attempt.percentage !== 'number') missing.percentage = percentageOf(attempt.score ?? 0, attempt.total_marks);
        if (typeof attempt.test_name !== 'string') missing.test_name = testName;
        if (Object.keys(missing).length > 0) tx.update(doc.ref, missing);
      }
      for (const ref of refs.slice(1)) tx.delete(ref);
      const inProgress = attempts.docs.filter((d) => d.get('status') === 'in_progress').length;
      return { before, after, attempts: attempts.size, inProgress };
    },
    { maxAttempts: 5 },
  );
}

/**
 * How long a recompute's claim on its version stands if it is never released
 * (its instance died): past it, the next recompute takes the claim over.
 */
const RECOMPUTE_LEASE_MS = 2 * 60_000;

export interface RecomputeLease {
  ref: DocumentReference;
  writeTime: Timestamp;
}

/**
 * Claims the version's recompute for this caller; undefined while another
 * recompute's claim stands. Recomputes of one version all read the same
 * attempts and rewrite the same 32 shards: run together, each waits on the
 * others' locks until Firestore gives up on them. The claim keeps them apart;
 * their transactions, not the claim, keep the sums right.
 */
export async function claimRecompute(at: VersionAt, nowMs = Date.now()): Promise<RecomputeLease | undefined> {
  const ref = paths.testStatsRecomputeLease(at.clientId, at.testId, at.version);
  const lease = { expires_at: new Date(nowMs + RECOMPUTE_LEASE_MS).toISOString() } satisfies StoredRecomputeLease;
  try {
    return { ref, writeTime: (await ref.create(lease)).writeTime };
  } catch (err) {
    if (!hasStatus(err, ALREADY_EXISTS)) throw err;
  }
  const held = await ref.get();
  if (held.exists && Date.parse(held.get('expires_at') as string) > nowMs) return undefined;
  // Gone meanwhile, or left behind expired: taken over unless another caller takes it first.
  try {
    const written = held.exists ? await ref.update(lease, { lastUpdateTime: held.updateTime! }) : await ref.create(lease);
    return { ref, writeTime: written.writeTime };
  } catch (err) {
    if (hasStatus(err, ALREADY_EXISTS, FAILED_PRECONDITION, NOT_FOUND)) return undefined;
    throw err;
  }
}

/**
 * Ends the claim, unless another recompute took it over after it expired.
 * Never throws: the recompute is done, and a claim left behind expires.
 */
export async function releaseRecompute(lease: RecomputeLease): Promise<void> {
  try {
    await lease.ref.delete({ lastUpdateTime: lease.writeTime });
  } catch (err) {
    if (hasStatus(err, FAILED_PRECONDITION, NOT_FOUND)) return;
    log.warn('A recompute claim was not released; it expires on its own', { path: lease.ref.path, error: errorText(err) });
  }
}
