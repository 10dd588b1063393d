import { FieldPath } from 'firebase-admin/firestore';
import { addAudit, type AuditMeta } from '../audit';
import { scoredFields, type StoredAttempt, submissionEffects, type VersionForAttempt } from '../attempts';
import {
  documentSize,
  type FrozenQuestion,
  keyRevisionOf,
  MAX_DOCUMENT_BYTES,
  type StoredTest,
  type TestVersion,
} from '../exams';
import { db, paths } from '../firestore';
import { ApiError, conflict, notFound, round4 } from '../shared';
import { sameKey } from './correction';

// Firestore access for a regrade: the correction of the frozen question (one
// transaction), the stamp on attempts in progress, and the rescoring of the
// submitted attempts in pages, one transaction per page.

/**
 * Submitted attempts rescored per transaction: a bounded transaction whatever the number of attempts.
 * An attempt may weigh up to 1 MiB (its answers' budget is 900 KB), so a page holds at most ~50 MB in memory.
 */
export const REGRADE_PAGE = 50;
/** Attempts in progress stamped per transaction: small, as they contend with the takers' saves. */
const STAMP_BATCH = 50;

/** Where the question sits in the version: among the fixed ones (its index), or in a pool (its frozen document). */
export type QuestionPlace = { kind: 'fixed'; index: number } | { kind: 'pool'; freezeId: string };

export function placeOf(version: TestVersion, questionId: string): QuestionPlace | undefined {
  const index = version.questions.findIndex((q) => q.id === questionId);
  if (index >= 0) return { kind: 'fixed', index };
  const inPool = (version.pools ?? []).some((pool) => pool.question_ids.includes(questionId));
  return inPool && version.pool_freeze_id ? { kind: 'pool', freezeId: version.pool_freeze_id } : undefined;
}

/** The version as stored now (not the instance's cache: a regrade works on the latest revision). */
export async function readVersion(clientId: string, testId: string, version: number): Promise<TestVersion | undefined> {
  const snap = await paths.testVersion(clientId, testId, version).get();
  return snap.exists ? (snap.data() as TestVersion) : undefined;
}

export async function readFrozenQuestion(
  clientId: string,
  testId: string,
  version: TestVersion,
  questionId: string,
): Promise<FrozenQuestion | undefined> {
  const place = placeOf(version, questionId);
  if (!place) return undefined;
  if (place.kind === 'fixed') return version.questions[place.index];
  const snap = await paths.poolFrozenQuestion(clientId, testId, place.freezeId, questionId).get();
  return snap.exists ? (snap.data() as FrozenQuestion) : undefined;
}

/**
 * Writes the corrected question into the version and raises its revision, with
 * the test's key_revisions (read by every start) and an audit record, in one
 * transaction. A version that already holds this correction is left as it is
 * (a regrade sent again after a crash): answers its revision and whether it changed.
 */
export async function applyCorrection(
  clientId: string,
  testId: string,
  versionNumber: number,
  questionId: string,
  correct: (current: FrozenQuestion) => FrozenQuestion,
  audit: { meta: AuditMeta; actorId: string },
): Promise<{ version: TestVersion; changed: boolean }> {
  return db.runTransaction(async (tx) => {
    const versionRef = paths.testVersion(clientId, testId, versionNumber);
    const versionSnap = await tx.get(versionRef);
    if (!versionSnap.exists) throw notFound('Test version not found');
    const version = versionSnap.data() as TestVersion;
    const place = placeOf(version, questionId);
    if (!place) throw notFound('No such question in this version');
    const poolRef =
      place.kind === 'pool' ? paths.poolFrozenQuestion(clientId, testId, place.freezeId, questionId) : undefined;
    const poolSnap = poolRef ? await tx.get(poolRef) : undefined;
    const current =
      place.kind === 'fixed' ? version.questions[place.index] : (poolSnap?.data() as FrozenQuestion | undefined);
    if (!current) throw notFound('No such question in this version');
    const corrected = correct(current);
    if (sameKey(current, corrected)) return { version, changed: false };
    const revision = (version.revision ?? 0) + 1;
    const next: TestVersion = { ...version, revision };
    if (place.kind === 'fixed') {
      next.questions = version.questions.map((q, i) => (i === place.index ? corrected : q));
      next.total_marks = round4(next.questions.reduce((sum, q) => sum + q.marks, 0));
      // A longer key on a version published near its limit: measured, as Firestore would refuse the whole commit.
      if (documentSize(versionRef.path, next as unknown as Record<string, unknown>) > MAX_DOCUMENT_BYTES) {
        throw new ApiError(
          'PAYLOAD_TOO_LARGE',
          'The corrected key would take the frozen version past the 1 MiB a document holds',
          [{ path: 'body.correct_answer', message: 'Too long for what is left of the version’s storage' }],
        );
      }
      tx.update(versionRef, { questions: next.questions, total_marks: next.total_marks, revision });
    } else {
      tx.set(poolRef!, corrected);
      // The version keeps its pool questions' marks beside their ids (the totals it can give): kept in step.
      const pools = (version.pools ?? []).map((pool) => {
        const at = pool.question_ids.indexOf(questionId);
        if (at < 0 || !pool.question_marks || pool.question_marks[at] === corrected.marks) return pool;
        return { ...pool, question_marks: pool.question_marks.map((m, i) => (i === at ? corrected.marks : m)) };
      });
      const marksMoved = pools.some((pool, i) => pool !== version.pools![i]);
      next.pools = pools;
      tx.update(versionRef, marksMoved ? { revision, pools } : { revision });
    }
    tx.update(paths.clientTest(clientId, testId), new FieldPath('key_revisions', String(versionNumber)), revision);
    addAudit(tx, audit.meta, {
      type: 'version_regraded',
      userId: audit.actorId,
      clientId,
      actorId: audit.actorId,
      details: {
        test_id: testId,
        version: versionNumber,
        question_id: questionId,
        revision,
        from: { correct_answer: current.correct_answer, tolerance: current.tolerance ?? null, marks: current.marks },
        to: {
          correct_answer: corrected.correct_answer,
          tolerance: corrected.tolerance ?? null,
          marks: corrected.marks,
        },
      },
    });
    return { version: next, changed: true };
  });
}

const versionAttempts = (clientId: string, testId: string, version: number, status: 'in_progress' | 'submitted') =>
  paths
    .clientAttempts(clientId)
    .where('test_id', '==', testId)
    .where('version', '==', version)
    .where('status', '==', status);

/**
 * Stamps every attempt of the version in progress with the revision: its next
 * read, save or submit, on any instance, then reloads a cached version older
 * than it. A submit ordered after a stamp sees it; one ordered before it is
 * submitted when the rescoring pages come by. Each batch is a transaction that
 * reads the test's revision and the attempts: a stamp never lowers an
 * attempt's revision, and a regrade overtaken by a later correction stops (409).
 */
export async function stampInProgress(
  clientId: string,
  testId: string,
  version: number,
  revision: number,
): Promise<number> {
  const snap = await versionAttempts(clientId, testId, version, 'in_progress').select().get();
  for (let i = 0; i < snap.docs.length; i += STAMP_BATCH) {
    const refs = snap.docs.slice(i, i + STAMP_BATCH).map((doc) => doc.ref);
    await db.runTransaction(async (tx) => {
      const [testSnap, ...attempts] = await tx.getAll(paths.clientTest(clientId, testId), ...refs);
      assertCurrentRevision(testSnap, version, revision);
      for (const attempt of attempts) {
        if (attempt.exists && (attempt.get('key_revision') ?? 0) < revision)
          tx.update(attempt.ref, { key_revision: revision });
      }
    });
  }
  return snap.size;
}

/** 409 when the test names a later revision of the version than this regrade's: the later regrade does the work. */
function assertCurrentRevision(testSnap: FirebaseFirestore.DocumentSnapshot, version: number, revision: number): void {
  if (keyRevisionOf(testSnap.data() as StoredTest | undefined, version) !== revision)
    throw conflict('A later regrade of this version has corrected it again; that regrade rescores its attempts');
}

/** One page of the version's submitted attempts' ids, after `after` (a document id), in id order. */
export async function submittedPage(
  clientId: string,
  testId: string,
  version: number,
  after: string | undefined,
): Promise<string[]> {
  let query = versionAttempts(clientId, testId, version, 'submitted').orderBy(FieldPath.documentId()).select();
  if (after !== undefined) query = query.startAfter(after);
  return (await query.limit(REGRADE_PAGE).get()).docs.map((d) => d.id);
}

/** The attempts of a page as stored now (a dry run reads them outside any transaction). */
export async function readAttempts(clientId: string, ids: readonly string[]): Promise<StoredAttempt[]> {
  if (ids.length === 0) return [];
  const snaps = await db.getAll(...ids.map((id) => paths.clientAttempt(clientId, id)));
  return snaps.filter((s) => s.exists).map((s) => s.data() as StoredAttempt);
}

export interface Rescored {
  before: StoredAttempt;
  after: StoredAttempt;
}

/**
 * Rescores one page of submitted attempts in one transaction: each read again,
 * scored on its paper (`paperFor`, the corrected version); one whose result
 * changes is rewritten and audited (attempt_regraded), and the page's
 * analytics move by the sum of the differences (one write). One whose result
 * is the same gets only the revision (`key_revision`), not audited, so its
 * review shows the corrected key; a page rescored twice writes nothing the second time.
 */
export async function rescorePage(
  clientId: string,
  testId: string,
  version: number,
  ids: readonly string[],
  paperFor: (attempt: StoredAttempt) => Promise<VersionForAttempt>,
  audit: { meta: AuditMeta; actorId: string; questionId: string; revision: number },
): Promise<Rescored[]> {
  if (ids.length === 0) return [];
  return db.runTransaction(async (tx) => {
    const [testSnap, ...snaps] = await tx.getAll(
      paths.clientTest(clientId, testId),
      ...ids.map((id) => paths.clientAttempt(clientId, id)),
    );
    // A later correction of the version (its revision is on the test, written with it) rescores every attempt itself:
    // this one stops rather than write its older key over what the later one wrote.
    assertCurrentRevision(testSnap, version, audit.revision);
    // Looked up before the first write: a missing hook fails the page with nothing written.
    const effects = submissionEffects();
    const changes: Array<Rescored & { paper: VersionForAttempt }> = [];
    for (const snap of snaps) {
      if (!snap.exists) continue;
      const before = snap.data() as StoredAttempt;
      if (before.status !== 'submitted') continue;
      const paper = await paperFor(before);
      // Every attempt carries the revision it was scored with, so its reads (the review's key, on any instance)
      // reload a cached version older than that: the cost of a corrected key is paid here, once per attempt, not by each read.
      const fields = { ...scoredFields(before, paper), key_revision: audit.revision };
      if (
        JSON.stringify([fields.score, fields.total_marks, fields.results]) ===
        JSON.stringify([before.score, before.total_marks, before.results])
      ) {
        // The same result: only the revision is written, and only once (a page rescored again writes nothing).
        if ((before.key_revision ?? 0) < audit.revision) tx.update(snap.ref, { key_revision: audit.revision });
        continue;
      }
      const after: StoredAttempt = { ...before, ...fields };
      changes.push({ before, after, paper });
      tx.update(snap.ref, fields);
      addAudit(tx, audit.meta, {
        type: 'attempt_regraded',
        userId: before.student_id,
        clientId,
        actorId: audit.actorId,
        details: {
          attempt_id: before.id,
          test_id: testId,
          version,
          question_id: audit.questionId,
          revision: audit.revision,
          before: { score: before.score, total_marks: before.total_marks },
          after: { score: after.score, total_marks: after.total_marks },
        },
      });
    }
    if (changes.length > 0) effects.recordScoreChanges(tx, { clientId, testId, version }, changes);
    return changes.map(({ before, after }) => ({ before, after }));
  });
}
