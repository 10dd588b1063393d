import { randomInt } from 'node:crypto';
import {
  FieldValue,
  type DocumentReference,
  type DocumentSnapshot,
  type QueryDocumentSnapshot,
  type Timestamp,
  type Transaction,
} from 'firebase-admin/firestore';
import { answersInTime, type StoredAttempt, universePositions, type VersionForAttempt } from '../attempts';
import { ALREADY_EXISTS, buildQuery, db, FAILED_PRECONDITION, hasStatus, NOT_FOUND, paths } from '../firestore';
import { errorText, log } from '../platform';
import { percentageOf } from '../shared';
import { legacyScoreExtremeSpec, openAttemptsSpec, scoreExtremeSpec } from './analyticsQuery';
import { classesOf, classOfShardId, sumsByClass } from './classSums';
import type { StoredRecomputeLease, StoredStatsShard } from './documents';
import {
  addSums,
  emptySums,
  negatedSums,
  sameSums,
  submissionContribution,
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
// - Beside them, the same sums per class (versions/{v}/class_stats), moved by
//   the same transactions for each class in the attempt's `class_ids`: a
//   submit writes one more document per class of its student (at most
//   MAX_CLASSES_PER_STUDENT), and a class's figures are read from its own
//   CLASS_STATS_SHARDS shards, whatever the number of attempts or classes.

export const STATS_SHARDS = 32;
/**
 * Shards of one class's sums: a class holds at most MAX_MEMBERS_PER_CLASS (500) students, so a whole class
 * submitting within a minute writes about 0.5/s on each, as the version's 32 do for a hall of 1,000.
 */
export const CLASS_STATS_SHARDS = 16;

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

/** Positions per block of per-question sums: block 0 sits on the shard itself, the others in stats_blocks. */
export const STATS_BLOCK_SIZE = 500;

/** How many blocks a version's per-question sums span: one unless pools make its questions many. */
export const blockCount = (universeSize: number): number => Math.max(1, Math.ceil(universeSize / STATS_BLOCK_SIZE));

/** The sums split by block: the head (every total) and block 0 together, each other block its questions only. */
function splitByBlock(sums: VersionSums): Map<number, Partial<VersionSums>> {
  const { q, ...head } = sums;
  const parts = new Map<number, Partial<VersionSums>>([[0, { ...head, q: {} }]]);
  for (const [position, item] of Object.entries(q)) {
    const block = Math.floor(Number(position) / STATS_BLOCK_SIZE);
    if (!parts.has(block)) parts.set(block, { q: {} });
    parts.get(block)!.q![position] = item;
  }
  return parts;
}

/** Whose sums: the version's (every attempt), or one class's (its attempts only) when classId is set. */
export type SumsScope = VersionAt & { classId?: string };

const shardCountOf = (at: SumsScope): number => (at.classId === undefined ? STATS_SHARDS : CLASS_STATS_SHARDS);

const blockRef = (at: SumsScope, block: number, shard: number) => {
  const { clientId, testId, version, classId } = at;
  if (classId !== undefined)
    return block === 0
      ? paths.testClassStatsShard(clientId, testId, version, classId, shard)
      : paths.testClassStatsBlock(clientId, testId, version, classId, block, shard);
  return block === 0
    ? paths.testStatsShard(clientId, testId, version, shard)
    : paths.testStatsBlock(clientId, testId, version, block, shard);
};

function addToRandomShard(tx: Transaction, at: SumsScope, add: VersionSums): void {
  const shard = randomInt(shardCountOf(at));
  for (const [block, part] of splitByBlock(add)) {
    const increments = asIncrements(part) as Record<string, unknown> | undefined;
    if (increments) tx.set(blockRef(at, block, shard), increments, { merge: true });
  }
}

export interface VersionAt {
  clientId: string;
  testId: string;
  version: number;
}

/**
 * What a stored attempt contributes to its version's sums: nothing while in
 * progress; a count of pending grading while an essay awaits its grade; its
 * full figures once its score is complete. Its questions are its paper's,
 * each at its position in the version (fixed ones, then the pools').
 */
export function contributionOf(attempt: StoredAttempt, paper: VersionForAttempt): VersionSums {
  if (attempt.status !== 'submitted') return emptySums();
  if (attempt.grading === 'pending') return { ...emptySums(), p: 1 };
  const positions = universePositions(paper);
  const pooled = (paper.pools ?? []).length > 0;
  return submissionContribution(paper.questions, factsOf(attempt), {
    positionOf: (id, i) => positions.get(id) ?? i,
    pooled,
  });
}

/**
 * Moves a version's sums by what an attempt contributes now minus what it
 * contributed before (attempts' SubmissionEffects, wired in app.ts), in the
 * transaction that changed it: a submit (before: in progress, nothing), a
 * grade, a regrade. Each change is counted exactly once, and the sums stay
 * equal to a recomputation from the attempts.
 */
export function recordScoreChange(
  tx: Transaction,
  { before, after, paper }: { before: StoredAttempt; after: StoredAttempt; paper: VersionForAttempt },
): void {
  const at = { clientId: after.client_id, testId: after.test_id, version: after.version };
  const delta = addSums(contributionOf(after, paper), negatedSums(contributionOf(before, paper)));
  addToRandomShard(tx, at, delta);
  for (const classId of classesOf(after)) addToRandomShard(tx, { ...at, classId }, delta);
}

/**
 * Several attempts' changes in one transaction, added together first: one write per block of one shard,
 * for the version and for each class the attempts are in.
 */
export function recordScoreChanges(
  tx: Transaction,
  at: VersionAt,
  changes: ReadonlyArray<{ before: StoredAttempt; after: StoredAttempt; paper: VersionForAttempt }>,
): void {
  const deltaOf = ({ before, after, paper }: (typeof changes)[number]) =>
    addSums(contributionOf(after, paper), negatedSums(contributionOf(before, paper)));
  let delta = emptySums();
  for (const change of changes) delta = addSums(delta, deltaOf(change));
  addToRandomShard(tx, at, delta);
  for (const [classId, classDelta] of sumsByClass(changes, (c) => c.after, deltaOf))
    addToRandomShard(tx, { ...at, classId }, classDelta);
}

const shardRefs = (at: SumsScope, blocks = 1) =>
  Array.from({ length: blocks }, (_, b) =>
    Array.from({ length: shardCountOf(at) }, (_, k) => blockRef(at, b, k)),
  ).flat();

/** The shards added up; a shard never written counts as empty. */
const sumOfShards = (snaps: DocumentSnapshot[]): VersionSums =>
  snaps.reduce((sums, snap) => (snap.exists ? addSums(sums, snap.data() as StoredStatsShard) : sums), emptySums());

/** The version's (or the class's) sums: every shard of every block, read in one round trip. */
export async function sumsOf(at: SumsScope, blocks = 1): Promise<VersionSums> {
  return sumOfShards(await db.getAll(...shardRefs(at, blocks)));
}

type Extremes = { highest: number | null; lowest: number | null };

async function extremesBy(at: SumsScope, spec: typeof scoreExtremeSpec, field: string): Promise<Extremes> {
  const one = (direction: 'asc' | 'desc') =>
    buildQuery(paths.clientAttempts(at.clientId), spec(at, direction)).limit(1).select(field).get();
  const [top, bottom] = await Promise.all([one('desc'), one('asc')]);
  const valueOf = (snap: FirebaseFirestore.QuerySnapshot) =>
    snap.empty ? null : ((snap.docs[0].get(field) as number | null) ?? null);
  return { highest: valueOf(top), lowest: valueOf(bottom) };
}

/**
 * The highest and lowest final score of the version's attempts: two one-document index reads over
 * final_score, which an attempt waiting for an essay grade does not have.
 */
export const scoreExtremes = (at: SumsScope): Promise<Extremes> => extremesBy(at, scoreExtremeSpec, 'final_score');

/**
 * `extremes` as read, unless the sums count complete attempts (`completed`) and none had a final_score:
 * then they were all submitted before it was kept, and are read by score until the repair writes it.
 * Until then a pending attempt among them may stand as highest or lowest: the repair after deploying
 * (docs/analytics.md) ends that. One more round trip, for such versions only.
 */
export async function withLegacyExtremes(at: SumsScope, extremes: Extremes, completed: number): Promise<Extremes> {
  // An attempt carrying class_ids was started long after final_score was kept: a class's never needs this.
  if (extremes.highest !== null || completed === 0 || at.classId !== undefined) return extremes;
  return extremesBy(at, legacyScoreExtremeSpec, 'score');
}

/**
 * The version's attempts in progress: a count over the open ones only, so it
 * stays one billed read however many were submitted. Counted when read rather
 * than kept by the start, which then writes nothing beyond its own documents.
 */
export async function inProgressCount(at: SumsScope): Promise<number> {
  return (await buildQuery(paths.clientAttempts(at.clientId), openAttemptsSpec(at)).count().get()).data().count;
}

/** The facts of a stored submitted attempt, as its submit recorded them. */
export function factsOf(
  attempt: Pick<
    StoredAttempt,
    'id' | 'score' | 'total_marks' | 'auto_submitted' | 'results' | 'answers' | 'expires_at'
  >,
): SubmittedAttemptFacts {
  return {
    seed: attempt.id,
    score: attempt.score ?? 0,
    total_marks: attempt.total_marks,
    automatic: attempt.auto_submitted === true,
    results: attempt.results ?? [],
    answers: answersInTime(attempt),
  };
}

const RECOMPUTE_FIELDS = [
  'id',
  'status',
  'score',
  'final_score',
  'total_marks',
  'auto_submitted',
  'results',
  'answers',
  'expires_at',
  'percentage',
  'test_name',
  'grading',
  'drawn',
  'client_id',
  'test_id',
  'version',
  'class_ids',
] as const;

/**
 * The repair: recomputes the version's sums from its attempts and replaces the
 * shards with them, and each class's sums from its attempts likewise, in one transaction. It reads the attempts and every shard,
 * so a submit committing meanwhile (it writes its attempt and one shard) is
 * ordered either before the repair (its attempt is in the query, submitted) or
 * after it (its increment lands on the rewritten shards). The attempts are
 * read first, in the order a submit's commit takes its locks (its attempt, then
 * a shard): a submit the repair waits for never waits for the repair's shards,
 * so neither gives up on a lock and the repair's transaction is not closed
 * under it. Reads every attempt of the version: a repair, not a request path,
 * run one at a time per version (claimRecompute). It also backfills
 * `percentage`, `final_score` and `test_name` on submitted attempts that predate them (and takes the
 * percentage off one still waiting for an essay grade).
 * `papersFor` gives each attempt its paper (drawn questions are read, cached, beside the transaction).
 */
export async function recomputeSums(
  at: VersionAt,
  testName: string,
  papersFor: (attempts: StoredAttempt[]) => Promise<(attempt: StoredAttempt) => VersionForAttempt>,
  blocks = 1,
): Promise<{ before: VersionSums; after: VersionSums; attempts: number; inProgress: number; classesChanged: boolean }> {
  const refs = shardRefs(at, blocks);
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
      // Then the classes' shards, which the same submits write after the version's.
      const classShards = await classShardsOf(tx, at, blocks);
      const stored = attempts.docs.map((d) => d.data() as StoredAttempt);
      const paperFor = await papersFor(stored);
      const contributions = stored.map((attempt) => contributionOf(attempt, paperFor(attempt)));
      let after = emptySums();
      for (const contribution of contributions) after = addSums(after, contribution);
      const parts = splitByBlock(after);
      for (const [block, part] of parts) tx.set(blockRef(at, block, 0), part);
      const classesChanged = replaceClassSums(
        tx,
        at,
        classShards,
        sumsByClass(
          stored.map((_, i) => i),
          (i) => stored[i],
          (i) => contributions[i],
        ),
      );
      // Attempts submitted before the percentage and the test's name were kept on them: a student's averages
      // and best (index aggregations over `percentage`) count them once they carry it.
      for (const doc of attempts.docs) {
        const attempt = doc.data() as StoredAttempt;
        if (attempt.status !== 'submitted') continue;
        const missing: Partial<StoredAttempt> = {};
        if (attempt.grading === 'pending') {
          // Submitted before a pending score was kept out of the figures: no percentage until graded.
          if (attempt.percentage !== null) missing.percentage = null;
        } else {
          if (typeof attempt.percentage !== 'number')
            missing.percentage = percentageOf(attempt.score ?? 0, attempt.total_marks);
          if (typeof attempt.final_score !== 'number') missing.final_score = attempt.score ?? 0;
        }
        if (typeof attempt.test_name !== 'string') missing.test_name = testName;
        if (Object.keys(missing).length > 0) tx.update(doc.ref, missing);
      }
      const written = new Set([...parts.keys()].map((block) => blockRef(at, block, 0).path));
      for (const ref of refs) if (!written.has(ref.path)) tx.delete(ref);
      const inProgress = attempts.docs.filter((d) => d.get('status') === 'in_progress').length;
      return { before, after, attempts: attempts.size, inProgress, classesChanged };
    },
    { maxAttempts: 5 },
  );
}

/** Every class's shards of the version as stored (all blocks): read by the repair only, bounded by its classes. */
async function classShardsOf(tx: Transaction, at: VersionAt, blocks: number): Promise<QueryDocumentSnapshot[]> {
  const [shards, extra] = await Promise.all([
    tx.get(paths.testClassStats(at.clientId, at.testId, at.version)),
    blocks > 1 ? tx.get(paths.testClassStatsBlocks(at.clientId, at.testId, at.version)) : undefined,
  ]);
  return [...shards.docs, ...(extra?.docs ?? [])];
}

/**
 * Replaces the classes' stored shards with their recomputed sums (each class on its shard 0, as the
 * version's), deleting every other shard, and those of a class no attempt counts in any more.
 * Answers whether any class's stored sums differed from the recomputed ones.
 */
function replaceClassSums(
  tx: Transaction,
  at: VersionAt,
  stored: QueryDocumentSnapshot[],
  recomputed: Map<string, VersionSums>,
): boolean {
  const before = new Map<string, VersionSums>();
  for (const doc of stored) {
    const classId = classOfShardId(doc.id);
    before.set(classId, addSums(before.get(classId) ?? emptySums(), doc.data() as StoredStatsShard));
  }
  const written = new Set<string>();
  for (const [classId, sums] of recomputed) {
    if (sameSums(sums, emptySums())) continue;
    for (const [block, part] of splitByBlock(sums)) {
      const ref = blockRef({ ...at, classId }, block, 0);
      tx.set(ref, part);
      written.add(ref.path);
    }
  }
  for (const doc of stored) if (!written.has(doc.ref.path)) tx.delete(doc.ref);
  return [...new Set([...before.keys(), ...recomputed.keys()])].some(
    (classId) => !sameSums(before.get(classId) ?? emptySums(), recomputed.get(classId) ?? emptySums()),
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
    const written = held.exists
      ? await ref.update(lease, { lastUpdateTime: held.updateTime! })
      : await ref.create(lease);
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
    log.warn('A recompute claim was not released; it expires on its own', {
      path: lease.ref.path,
      error: errorText(err),
    });
  }
}
