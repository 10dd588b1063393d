import { AggregateField, type DocumentData, type DocumentReference, type Transaction } from 'firebase-admin/firestore';
import { ALREADY_EXISTS, db, fetchPage, hasStatus, paths } from '../firestore';
import { findFolderInTransaction, findFolderOwner } from '../folders';
import { recordEvent } from '../outbox';
import { toStoredQuestion } from '../questions';
import { badRequest, conflict, isDocumentId, notFound, type PageRequest } from '../shared';
import { errorText, log } from '../platform';
import { randomUUID } from 'node:crypto';
import type {
  FrozenPassage,
  FrozenQuestion,
  StoredSeat,
  StoredShareCode,
  StoredTest,
  TestContent,
  TestVersion,
  VersionPool,
} from './documents';
import { applyMove, isEditable, publishProblems, takesAttempts, type TestMove, type TestStatus } from './lifecycle';
import { pendingRefusal, poolFreezeStale, withPendingApplied } from './newVersion';
import { frozenPassage, namedPassageIds } from './passages';
import { seatShardCapacities } from './seats';
import { shareCodeQuerySpec } from './shareCodeQuery';
import { generateShareCode } from './shareCodeText';
import { studentTestQuerySpec, testQuerySpec } from './testQuery';
import { withAudience } from './audience';
import { documentSize, MAX_DOCUMENT_BYTES } from './versionSize';

// ---------------------------------------------------------------- tests

export async function findTest(clientId: string, testId: string): Promise<StoredTest | undefined> {
  const snap = await paths.clientTest(clientId, testId).get();
  return snap.exists ? (snap.data() as StoredTest) : undefined;
}

/** The test with this id in whichever organization holds it: one query, one read. */
export async function findTestAnywhere(testId: string): Promise<StoredTest | undefined> {
  const snap = await paths.allTests().where('id', '==', testId).limit(1).get();
  return snap.empty ? undefined : (snap.docs[0].data() as StoredTest);
}

export async function listTests(
  clientId: string,
  filters: { status?: TestStatus; folder_id?: string },
  page: PageRequest,
) {
  const { docs, pagination } = await fetchPage(paths.clientTests(clientId), testQuerySpec(filters), page);
  return { data: docs as StoredTest[], pagination };
}

/** A student's list: the published tests whose audience holds one of these values ('*' and its classes), newest first. */
export async function listTestsOpenTo(
  clientId: string,
  filters: { folder_id?: string },
  audience: readonly string[],
  page: PageRequest,
) {
  const { docs, pagination } = await fetchPage(
    paths.clientTests(clientId),
    studentTestQuerySpec(filters, audience),
    page,
  );
  return { data: docs as StoredTest[], pagination };
}

/** A student's classes, as its profile lists them (none when it has no profile, or none yet). */
export async function studentClassIds(clientId: string, uid: string): Promise<string[]> {
  const snap = await paths.clientUser(clientId, uid).get();
  const ids = snap.exists ? snap.get('class_ids') : undefined;
  return Array.isArray(ids) ? (ids as string[]) : [];
}

/** Which of these class ids are the organization's: one round trip. */
export async function existingClassIds(clientId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const snaps = await db.getAll(...ids.map((id) => paths.clientClass(clientId, id)));
  return new Set(snaps.filter((s) => s.exists).map((s) => s.id));
}

/** Of these class ids, the organization holding each, wherever it is (one query per 30 ids). */
export async function classOwners(ids: readonly string[]): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  const chunks = Array.from({ length: Math.ceil(ids.length / IN_LIMIT) }, (_, i) =>
    ids.slice(i * IN_LIMIT, (i + 1) * IN_LIMIT),
  );
  const snaps = await Promise.all(
    chunks.map((chunk) => paths.allClasses().where('id', 'in', chunk).select('id', 'client_id').get()),
  );
  for (const snap of snaps) for (const doc of snap.docs) owners.set(doc.get('id'), doc.get('client_id'));
  return owners;
}

/**
 * The classes a write assigns the test to, read in the writing transaction: deleting a
 * class looks for the tests assigned to it in a transaction of its own, so an assignment
 * landing at the same moment either lands first (and the delete answers 409) or finds
 * the class gone (400 here, naming it).
 */
async function assertClassesInTransaction(tx: Transaction, clientId: string, classIds: readonly string[]) {
  if (classIds.length === 0) return;
  const snaps = await tx.getAll(...classIds.map((id) => paths.clientClass(clientId, id)));
  const missing = classIds.filter((_, i) => !snaps[i].exists);
  if (missing.length > 0) throw unknownClasses(missing);
}

/** 400 naming the classes a body assigns that the organization does not hold. */
export const unknownClasses = (missing: readonly string[]) => {
  const message = `No such classes in this organization: ${missing.join(', ')}`;
  return badRequest(`The test names what does not exist: ${message}`, [
    { path: 'body.assigned_class_ids', message, class_ids: [...missing] },
  ]);
};

/** Which of these question ids exist in the organization: one round trip. */
export async function existingQuestionIds(clientId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const snaps = await db.getAll(...ids.map((id) => paths.clientQuestion(clientId, id)));
  return new Set(snaps.filter((s) => s.exists).map((s) => s.id));
}

const IN_LIMIT = 30;

/** Of these question ids, the organization holding each, wherever it is (one query per 30 ids). */
export async function questionOwners(ids: readonly string[]): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  const chunks = Array.from({ length: Math.ceil(ids.length / IN_LIMIT) }, (_, i) =>
    ids.slice(i * IN_LIMIT, (i + 1) * IN_LIMIT),
  );
  const snaps = await Promise.all(
    chunks.map((chunk) => paths.allQuestions().where('id', 'in', chunk).select('id', 'client_id').get()),
  );
  for (const snap of snaps) for (const doc of snap.docs) owners.set(doc.get('id'), doc.get('client_id'));
  return owners;
}

/** The organization holding a folder with this id, if any. */
export async function folderOwners(ids: readonly string[]): Promise<Map<string, string>> {
  const owners = await Promise.all(ids.map(async (id) => [id, await findFolderOwner(id)] as const));
  return new Map(owners.filter((e): e is readonly [string, string] => e[1] !== undefined));
}

export async function folderExists(clientId: string, folderId: string): Promise<boolean> {
  return (await paths.clientFolder(clientId, folderId).get()).exists;
}

/**
 * The test's folder, read inside the writing transaction: deleting a folder
 * looks for its tests in a transaction of its own, so a test filed into it at
 * the same moment either lands first (and the delete answers 409) or finds
 * the folder gone (400 here).
 */
async function assertFolderInTransaction(tx: Transaction, clientId: string, folderId: string | null): Promise<void> {
  if (folderId !== null && !(await findFolderInTransaction(tx, clientId, folderId))) {
    throw badRequest(`No such folder in this organization: ${folderId}`, [
      { path: 'body.folder_id', message: `No such folder in this organization: ${folderId}` },
    ]);
  }
}

export async function insertTest(test: StoredTest): Promise<void> {
  await db.runTransaction(async (tx) => {
    await Promise.all([
      assertFolderInTransaction(tx, test.client_id, test.folder_id),
      assertClassesInTransaction(tx, test.client_id, test.assigned_class_ids ?? []),
    ]);
    tx.create(paths.clientTest(test.client_id, test.id), withAudience(test));
  });
}

async function requireTestInTransaction(
  tx: Transaction,
  clientId: string,
  testId: string,
): Promise<{ ref: DocumentReference; test: StoredTest }> {
  const ref = paths.clientTest(clientId, testId);
  const snap = await tx.get(ref);
  if (!snap.exists) throw notFound('Test not found');
  return { ref, test: snap.data() as StoredTest };
}

/**
 * Replaces a draft's editable fields. Read and write are one transaction, so a
 * publish that lands in between makes this one retry, find the test published,
 * and refuse: a frozen version never differs from what its test said.
 */
export async function replaceDraft(
  clientId: string,
  testId: string,
  build: (current: StoredTest) => StoredTest,
  recordChange: DeliveryChangeRecorder,
): Promise<{ test: StoredTest; sweepId: string | undefined }> {
  return db.runTransaction(async (tx) => {
    const { ref, test } = await requireTestInTransaction(tx, clientId, testId);
    if (!isEditable(test.status)) {
      throw conflict(
        `Only a draft can be edited; this test is ${test.status}. Archive it and restore it to a draft, then publish again as a new version`,
      );
    }
    const next = withAudience(build(test));
    await Promise.all([
      assertFolderInTransaction(tx, clientId, next.folder_id),
      assertClassesInTransaction(tx, clientId, next.assigned_class_ids),
    ]);
    tx.set(ref, next);
    return { test: next, sweepId: recordChange(tx, test, next) };
  });
}

/**
 * What a change of delivery settings records in its own transaction (the
 * audit record; the deadline sweep when closes_at moved): answers the sweep's
 * id, if one is needed. A restored draft may still have stopped attempts in
 * progress, so a replace records it too.
 */
export type DeliveryChangeRecorder = (tx: Transaction, before: StoredTest, after: StoredTest) => string | undefined;

/**
 * Changes a test's delivery settings, on a draft or a published test alike, in one
 * transaction with what the change records. The classes it assigns (`assigning`, when
 * the body names them) are read in the same round trip as the test.
 */
export async function patchDelivery(
  clientId: string,
  testId: string,
  apply: (current: StoredTest) => StoredTest,
  recordChange: DeliveryChangeRecorder,
  assigning?: readonly string[],
): Promise<{ test: StoredTest; sweepId: string | undefined }> {
  return db.runTransaction(async (tx) => {
    const [{ ref, test }] = await Promise.all([
      requireTestInTransaction(tx, clientId, testId),
      assertClassesInTransaction(tx, clientId, assigning ?? []),
    ]);
    const next = withAudience(apply(test));
    tx.set(ref, next);
    return { test: next, sweepId: recordChange(tx, test, next) };
  });
}

/** archive or restore, in a transaction: of two concurrent moves one sees the other's result. */
export async function moveTest(
  clientId: string,
  testId: string,
  move: Exclude<TestMove, 'publish'>,
  now: string,
): Promise<StoredTest> {
  return db.runTransaction(async (tx) => {
    const { ref, test } = await requireTestInTransaction(tx, clientId, testId);
    const outcome = applyMove(move, test.status);
    if (!outcome.ok) throw conflict(outcome.reason);
    // A restored draft is edited in place: a new version left pending when it was archived becomes its content.
    const kept = outcome.next === 'draft' ? withPendingApplied(test) : test;
    const next: StoredTest = withAudience({ ...kept, status: outcome.next, updated_at: now });
    tx.set(ref, next);
    return next;
  });
}

/** A question as the bank stores it (questions/store.ts), less what a version does not keep. */
function freeze(id: string, data: DocumentData): FrozenQuestion {
  const {
    client_id: _client,
    folder_id: _folder,
    created_at: _created,
    updated_at: _updated,
    ...frozen
  } = toStoredQuestion({ ...data, id });
  return frozen;
}

const IN_BATCH = 400;

/**
 * The ids of the questions a pool draws from, as the bank holds them now (its
 * folder, of its difficulty): ids only, and at most `limit`, so a folder of any
 * size costs a bounded read.
 */
export async function poolCandidates(
  clientId: string,
  pool: { folder_id: string; difficulty: string | null },
  limit: number,
): Promise<string[]> {
  let query = paths.clientQuestions(clientId).where('folder_id', '==', pool.folder_id);
  if (pool.difficulty) query = query.where('difficulty', '==', pool.difficulty);
  return (await query.select().limit(limit).get()).docs.map((d) => d.id);
}

/**
 * Copies pool questions, frozen, under a fresh freeze id before the version
 * naming it is written: read and written 400 at a time. Returns the freeze id;
 * a question deleted meanwhile is left out of `frozen` (the caller checks the draws again).
 */
export async function writePoolFreeze(
  clientId: string,
  testId: string,
  ids: readonly string[],
): Promise<{ freezeId: string; frozen: Map<string, number>; passageIds: string[] }> {
  const freezeId = randomUUID();
  // Each frozen id with its marks: the version keeps them beside the ids, so its totals need no read of the freeze.
  const frozen = new Map<string, number>();
  const passageIds = new Set<string>();
  for (let i = 0; i < ids.length; i += IN_BATCH) {
    const snaps = await db.getAll(...ids.slice(i, i + IN_BATCH).map((id) => paths.clientQuestion(clientId, id)));
    const batch = db.batch();
    for (const snap of snaps) {
      if (!snap.exists) continue;
      const question = freeze(snap.id, snap.data()!);
      batch.create(paths.poolFrozenQuestion(clientId, testId, freezeId, snap.id), question);
      frozen.set(snap.id, typeof question.marks === 'number' ? question.marks : 0);
      if (question.passage_id) passageIds.add(question.passage_id);
    }
    await batch.commit();
  }
  return { freezeId, frozen, passageIds: [...passageIds] };
}

/** A freeze that no version names (its publish failed): removed, best effort (what is left is never read). */
export async function deletePoolFreeze(clientId: string, testId: string, freezeId: string): Promise<void> {
  try {
    await db.recursiveDelete(paths.poolFreezes(clientId, testId).doc(freezeId));
  } catch (err) {
    log.warn('A pool freeze no version names was left behind', { clientId, testId, freezeId, error: errorText(err) });
  }
}

/** What a publish froze of the pools before its transaction: the version names them. */
export interface FrozenPools {
  freezeId: string;
  pools: VersionPool[];
  /** The passages the pools' questions name (the version freezes them with the fixed questions' own). */
  passageIds?: string[];
  /** The test as it stood when the pools were read: a publish finding it changed since refuses (409). */
  testUpdatedAt: string;
}

/** The passages `questions` name, as the bank holds them now (read in the publishing transaction); one that is gone or no passage is left out. */
async function freezePassages(
  tx: Transaction,
  clientId: string,
  questions: ReadonlyArray<{ passage_id?: string }>,
): Promise<FrozenPassage[]> {
  const ids = namedPassageIds(questions).filter(isDocumentId);
  if (ids.length === 0) return [];
  const snaps = await tx.getAll(...ids.map((id) => paths.clientQuestion(clientId, id)));
  return snaps.flatMap((snap) => {
    const passage = frozenPassage(snap.exists ? freeze(snap.id, snap.data()!) : undefined);
    return passage ? [passage] : [];
  });
}

/**
 * Version `number` of the test, frozen from `content` and the bank's questions as they are now,
 * read in the publishing transaction: 400 naming what stops it (no question, no timer, a question
 * gone, too large). The caller creates it (never overwrites) with the test's own write.
 */
async function freezeVersion(
  tx: Transaction,
  clientId: string,
  testId: string,
  content: TestContent,
  number: number,
  now: string,
  publishedBy: string,
  frozenPools: FrozenPools | undefined,
): Promise<{ ref: DocumentReference; version: TestVersion }> {
  const questionRefs = content.question_ids.map((id) => paths.clientQuestion(clientId, id));
  const snaps = questionRefs.length > 0 ? await tx.getAll(...questionRefs) : [];
  const found = new Map(snaps.filter((s) => s.exists).map((s) => [s.id, s.data()!]));
  const problems = publishProblems(content, new Set(found.keys()));
  if (problems.length > 0) {
    throw badRequest(`This test cannot be published yet: ${problems.map((p) => p.message).join('; ')}`, problems);
  }
  const questions = content.question_ids.map((id) => freeze(id, found.get(id)!));
  const passages = await freezePassages(tx, clientId, [
    ...questions,
    ...(frozenPools?.passageIds ?? []).map((id) => ({ passage_id: id })),
  ]);
  const version: TestVersion = {
    version: number,
    test_id: testId,
    client_id: clientId,
    published_at: now,
    published_by: publishedBy,
    test: {
      test_name: content.test_name,
      timer: content.timer,
      shuffle: content.shuffle,
      allow_review: content.allow_review,
      negative_marking: content.negative_marking,
      description: content.description,
      max_attempts: content.max_attempts,
      negative_mark_ratio: content.negative_mark_ratio,
      question_ids: content.question_ids,
    },
    questions,
    total_marks: questions.reduce((sum, q) => sum + (typeof q.marks === 'number' ? q.marks : 0), 0),
    pools: frozenPools?.pools ?? [],
    pool_freeze_id: frozenPools?.freezeId ?? null,
    ...(passages.length > 0 ? { passages } : {}),
    revision: 0,
  };
  const versionRef = paths.testVersion(clientId, testId, number);
  const size = documentSize(versionRef.path, version as unknown as Record<string, unknown>);
  if (size > MAX_DOCUMENT_BYTES) {
    throw badRequest('The test’s questions are too large to publish together; split it into smaller tests', [
      {
        path: 'question_ids',
        message: `The frozen version would take ${size} bytes; at most ${MAX_DOCUMENT_BYTES} fit`,
      },
    ]);
  }
  return { ref: versionRef, version };
}

/**
 * draft → published, freezing version n+1, all in one transaction: the test,
 * its questions and the version number are read together, so two publishes at
 * once cannot both succeed (the second retries, finds the test published, and
 * gets 409), and the version is created (never overwritten) besides.
 */

export async function publishTest(
  clientId: string,
  testId: string,
  now: string,
  publishedBy: string,
  frozenPools?: FrozenPools,
): Promise<StoredTest> {
  return db.runTransaction(async (tx) => {
    const { ref, test } = await requireTestInTransaction(tx, clientId, testId);
    const outcome = applyMove('publish', test.status);
    if (!outcome.ok) throw conflict(outcome.reason);
    if (poolFreezeStale(test.pools ?? [], test.updated_at, frozenPools)) {
      throw conflict('The test changed while its pools were being frozen; publish it again');
    }
    const number = (test.version ?? 0) + 1;
    const { ref: versionRef, version } = await freezeVersion(
      tx,
      clientId,
      testId,
      test,
      number,
      now,
      publishedBy,
      frozenPools,
    );
    const next: StoredTest = withAudience({
      ...test,
      status: outcome.next,
      version: number,
      published_at: now,
      updated_at: now,
    });
    tx.create(versionRef, version);
    tx.set(ref, next);
    // The outbox's event moves with the publish: one write more in its transaction.
    recordEvent(tx, { clientId, type: 'test.published', testId, attempts: [] });
    return next;
  });
}

// ---------------------------------------------------------------- a new version, edited beside the live one

/** What a change of the pending edit records in its own transaction (its audit record), given the test before and after. */
export type PendingEditRecorder = (tx: Transaction, before: StoredTest, after: StoredTest) => void;

/**
 * Opens, edits or discards the pending edit in one transaction with the test: `change` refuses
 * (409) from a state it does not fit, so of two changes at once the later sees the earlier's result.
 * The test's live fields, status and version are left as they are.
 */
export async function changePendingEdit(
  clientId: string,
  testId: string,
  change: (current: StoredTest) => StoredTest,
  record?: PendingEditRecorder,
): Promise<StoredTest> {
  return db.runTransaction(async (tx) => {
    const { ref, test } = await requireTestInTransaction(tx, clientId, testId);
    const next = change(test);
    if (next.pending_edit) await assertFolderInTransaction(tx, clientId, next.pending_edit.folder_id);
    tx.set(ref, next);
    record?.(tx, test, next);
    return next;
  });
}

/**
 * The pending edit made live: version n+1 frozen from it and the bank's questions, the test's
 * fields set to it and the edit removed, all in one transaction (status stays published).
 * Two publishes at once cannot both succeed: the later retries, finds no pending edit, and gets 409.
 */
export async function publishPendingEdit(
  clientId: string,
  testId: string,
  now: string,
  publishedBy: string,
  frozenPools: FrozenPools | undefined,
  record: PendingEditRecorder,
): Promise<StoredTest> {
  return db.runTransaction(async (tx) => {
    const { ref, test } = await requireTestInTransaction(tx, clientId, testId);
    const refusal = pendingRefusal(test, 'publish');
    if (refusal) throw conflict(refusal);
    const pending = test.pending_edit!;
    if (poolFreezeStale(pending.pools, pending.updated_at, frozenPools)) {
      throw conflict('The new version changed while its pools were being frozen; publish it again');
    }
    const number = (test.version ?? 0) + 1;
    const [{ ref: versionRef, version }] = await Promise.all([
      freezeVersion(tx, clientId, testId, pending, number, now, publishedBy, frozenPools),
      assertFolderInTransaction(tx, clientId, pending.folder_id),
    ]);
    const next: StoredTest = withAudience({
      ...withPendingApplied(test),
      version: number,
      published_at: now,
      updated_at: now,
    });
    tx.create(versionRef, version);
    tx.set(ref, next);
    recordEvent(tx, { clientId, type: 'test.published', testId, attempts: [] });
    record(tx, test, next);
    return next;
  });
}

/** A version as frozen, and the bank's questions of its fixed ones as they are now (one round trip for those). */
export async function readVersionAndBank(
  clientId: string,
  testId: string,
  number: number,
): Promise<{ version: TestVersion; bank: Map<string, { question: FrozenQuestion; updated_at: string }> } | undefined> {
  const snap = await paths.testVersion(clientId, testId, number).get();
  if (!snap.exists) return undefined;
  const version = snap.data() as TestVersion;
  const ids = version.questions.map((q) => q.id);
  const snaps = ids.length > 0 ? await db.getAll(...ids.map((id) => paths.clientQuestion(clientId, id))) : [];
  const bank = new Map(
    snaps
      .filter((q) => q.exists)
      .map(
        (q) => [q.id, { question: freeze(q.id, q.data()!), updated_at: String(q.get('updated_at') ?? '') }] as const,
      ),
  );
  return { version, bank };
}

/**
 * Deletes a test that has no attempts, in a transaction that reads the test and
 * looks for an attempt together. Starting an attempt reads the test (it must be
 * published) in its own transaction, so under Firestore's serializable
 * transactions an attempt cannot slip in between this look and the delete.
 * Its versions and share codes go afterwards; should that fail, what is left
 * names a test that no longer exists and leads nowhere.
 */
export async function deleteTestWithoutAttempts(clientId: string, testId: string): Promise<void> {
  await db.runTransaction(async (tx) => {
    const { ref, test } = await requireTestInTransaction(tx, clientId, testId);
    const attempts = await tx.get(paths.clientAttempts(clientId).where('test_id', '==', testId).limit(1));
    if (!attempts.empty) {
      const hint = takesAttempts(test.status) ? 'archive it instead' : 'it stays archived';
      throw conflict(`This test has attempts and cannot be deleted; ${hint}`);
    }
    tx.delete(ref);
  });
  try {
    const codes = await paths.shareCodes().where('client_id', '==', clientId).where('test_id', '==', testId).get();
    await Promise.all([
      db.recursiveDelete(paths.testVersions(clientId, testId)),
      db.recursiveDelete(paths.poolFreezes(clientId, testId)),
      // Overrides can be set on a draft: they and their counter go with it.
      db.recursiveDelete(paths.testOverrides(clientId, testId)),
      db.recursiveDelete(paths.testOverrideCount(clientId, testId).parent),
      ...codes.docs.map((d) => db.recursiveDelete(d.ref)),
    ]);
  } catch (err) {
    log.error('Deleted test left versions, overrides or share codes behind', {
      clientId,
      testId,
      error: errorText(err),
    });
  }
}

// ---------------------------------------------------------------- share codes

const CODE_ATTEMPTS = 3;

/**
 * A new code with its seat shards, for a test that is published when the
 * transaction commits (an archive at the same moment makes one of them wait
 * for the other). A code already taken (1 in 2^65 per code) is drawn again.
 */
export async function insertShareCode(
  clientId: string,
  testId: string,
  fields: { expires_at: string | null; max_uses: number | null; created_by: string; created_at: string },
): Promise<StoredShareCode> {
  for (let attempt = 1; ; attempt++) {
    const capacities = seatShardCapacities(fields.max_uses);
    const shareCode: StoredShareCode = {
      code: generateShareCode(),
      client_id: clientId,
      test_id: testId,
      expires_at: fields.expires_at,
      max_uses: fields.max_uses,
      seat_shards: capacities.length,
      revoked: false,
      revoked_at: null,
      created_by: fields.created_by,
      created_at: fields.created_at,
    };
    try {
      await db.runTransaction(async (tx) => {
        const { test } = await requireTestInTransaction(tx, clientId, testId);
        if (test.status !== 'published')
          throw conflict(`Share codes are issued for published tests only; this test is ${test.status}`);
        tx.create(paths.shareCode(shareCode.code), shareCode);
        capacities.forEach((capacity, k) =>
          tx.create(paths.shareCodeSeat(shareCode.code, k), { capacity, used: 0 } satisfies StoredSeat),
        );
      });
      return shareCode;
    } catch (err) {
      if (!hasStatus(err, ALREADY_EXISTS) || attempt >= CODE_ATTEMPTS) throw err;
    }
  }
}

export async function findShareCode(code: string): Promise<StoredShareCode | undefined> {
  const snap = await paths.shareCode(code).get();
  return snap.exists ? (snap.data() as StoredShareCode) : undefined;
}

/** Seats taken so far: the sum over the code's shards, as one aggregation. */
export async function usesOf(code: string): Promise<number> {
  const snap = await paths
    .shareCodeSeats(code)
    .aggregate({ used: AggregateField.sum('used') })
    .get();
  return snap.data().used ?? 0;
}

export async function listShareCodes(clientId: string, testId: string, page: PageRequest) {
  const { docs, pagination } = await fetchPage(
    paths.shareCodes(),
    shareCodeQuerySpec({ client_id: clientId, test_id: testId }),
    page,
  );
  return { data: docs as StoredShareCode[], pagination };
}

/** Revoking is final and idempotent: a revoked code stays revoked. */
export async function revokeShareCode(code: string, now: string): Promise<void> {
  await paths.shareCode(code).update({ revoked: true, revoked_at: now });
}
