import { randomUUID } from 'node:crypto';
import { FieldValue } from 'firebase-admin/firestore';
import { db, paths } from '../firestore';
import { createFoldersInTransaction, findFolderInTransaction, type Folder } from '../folders';
import { conflict } from '../shared';
import { MissingFolder, toStoredQuestion } from './store';
import type { ImportRecord, StoredImportChunk, StoredQuestion } from './documents';
import { earlierImportRefusal } from './importDecision';

// How an import of thousands of questions becomes visible all at once although
// Firestore commits at most 500 writes together:
//
// 1. claim: the import record (id = the file's SHA-256) is created in a
//    transaction, status `staging`, with a lease. Two imports of one file at
//    once: one creates it, the other gets 409. A completed record stays, so a
//    re-sent file is refused with 409 naming the earlier import.
// 2. stage: the validated questions are written as a few large JSON chunk
//    documents under the record. No question is visible yet.
// 3. commit (the one atomic step): a transaction checks the claim is still
//    ours and every folder the rows name still exists, and flips the record to
//    `committed`. Before this, a crash leaves only invisible staging data,
//    which the next import of the organization removes once the lease ran out.
// 4. publish: the questions are written in batches of ≤ 499, each batch also
//    recording its number in the import record, in the same commit. A crash
//    here leaves a committed import that is finished from the staged chunks
//    (roll forward) by the organization's next import or next listing of its
//    questions once the lease ran out: only the batches not yet recorded are
//    written, so a question deleted meanwhile is never brought back.
// 5. complete: the record is marked `complete` and the chunks are deleted.

export const LEASE_MS = 3 * 60 * 1000;
export const BATCH_LIMIT = 500;
/** Largest JSON payload of one staged chunk: Firestore documents hold at most 1 MiB. */
const CHUNK_BYTES = 700 * 1024;
/** Chunks per commit, keeping a commit well under Firestore's 10 MiB request limit. */
const CHUNKS_PER_COMMIT = 4;
/** Batches committed at once while publishing. */
const PARALLEL_COMMITS = 3;

export const leaseFrom = (now: number): string => new Date(now + LEASE_MS).toISOString();
const leaseExpired = (record: ImportRecord, now: number): boolean =>
  record.lease_expires_at !== null && Date.parse(record.lease_expires_at) <= now;

/** The import's questions as chunk payloads of bounded size, in file order. */
export function chunkQuestions(questions: StoredQuestion[]): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let size = 2;
  for (const q of questions) {
    const json = JSON.stringify(q);
    const length = Buffer.byteLength(json, 'utf8') + 1;
    if (current.length > 0 && size + length > CHUNK_BYTES) {
      chunks.push(`[${current.join(',')}]`);
      current = [];
      size = 2;
    }
    current.push(json);
    size += length;
  }
  if (current.length > 0) chunks.push(`[${current.join(',')}]`);
  return chunks;
}

export async function findImport(clientId: string, importId: string): Promise<ImportRecord | undefined> {
  const snap = await paths.clientQuestionImport(clientId, importId).get();
  return snap.exists ? (snap.data() as ImportRecord) : undefined;
}

/** 409 when this file was imported before, or is being imported now. */
function assertNotImported(record: ImportRecord | undefined): void {
  const refusal = earlierImportRefusal(record);
  if (refusal) throw refusal;
}

/** Step 1: the record, created only if no import of this file exists (see recoverStaleImports for dead ones). */
export async function claimImport(record: Omit<ImportRecord, 'claim'>): Promise<ImportRecord> {
  const claimed: ImportRecord = { ...record, claim: randomUUID() };
  const ref = paths.clientQuestionImport(record.client_id, record.id);
  await db.runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    assertNotImported(snap.exists ? (snap.data() as ImportRecord) : undefined);
    tx.create(ref, claimed);
  });
  return claimed;
}

/** Step 2. */
export async function stageChunks(clientId: string, importId: string, chunks: string[]): Promise<void> {
  for (let start = 0; start < chunks.length; start += CHUNKS_PER_COMMIT) {
    const batch = db.batch();
    chunks.slice(start, start + CHUNKS_PER_COMMIT).forEach((payload, offset) => {
      batch.set(paths.clientQuestionImportChunk(clientId, importId, start + offset), {
        payload,
      } satisfies StoredImportChunk);
    });
    await batch.commit();
  }
}

/**
 * Step 3: the commit point. Throws MissingFolder when a folder was deleted
 * meanwhile, CONFLICT when the claim was lost. The folders the file's
 * categories need are created here, so they appear with the questions or not at all.
 */
export async function commitImport(
  record: ImportRecord,
  folderIds: string[],
  now: number,
  newFolders: readonly Folder[] = [],
): Promise<void> {
  const ref = paths.clientQuestionImport(record.client_id, record.id);
  await db.runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    const current = snap.exists ? (snap.data() as ImportRecord) : undefined;
    if (!current || current.claim !== record.claim || current.status !== 'staging') {
      throw conflict('The import was interrupted and taken over; retry it');
    }
    for (const folderId of folderIds) {
      if (!(await findFolderInTransaction(tx, record.client_id, folderId))) throw new MissingFolder(folderId);
    }
    await createFoldersInTransaction(tx, newFolders);
    tx.update(ref, {
      status: 'committed',
      pending_folder_ids: [...folderIds, ...newFolders.map((f) => f.id)],
      lease_expires_at: leaseFrom(now),
    });
  });
}

/**
 * Step 4. Batch k holds questions [k·499, (k+1)·499) of the import's order (the
 * same from the live run and from the staged chunks) and records k in the
 * import record as it commits; batches already recorded are skipped.
 */
export async function publishQuestions(
  record: Pick<ImportRecord, 'client_id' | 'id'>,
  questions: StoredQuestion[],
  alreadyPublished: readonly number[] = [],
): Promise<void> {
  const perBatch = BATCH_LIMIT - 1; // one write of each batch is the progress mark
  const done = new Set(alreadyPublished);
  const pending: number[] = [];
  for (let k = 0; k * perBatch < questions.length; k++) if (!done.has(k)) pending.push(k);
  const importRef = paths.clientQuestionImport(record.client_id, record.id);
  let next = 0;
  let failure: { error: unknown } | undefined;
  // After a failure no worker takes another batch, and the failure is reported
  // only once every commit in flight has settled: nothing lands after the answer.
  const worker = async () => {
    while (next < pending.length && !failure) {
      const k = pending[next++];
      const batch = db.batch();
      for (const q of questions.slice(k * perBatch, (k + 1) * perBatch))
        batch.set(paths.clientQuestion(record.client_id, q.id), q);
      batch.update(importRef, { published_batches: FieldValue.arrayUnion(k) });
      try {
        await batch.commit();
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_COMMITS, pending.length) }, worker));
  if (failure) throw failure.error;
}

/** Step 5. */
export async function completeImport(
  record: Pick<ImportRecord, 'client_id' | 'id' | 'chunk_count'>,
  now: number,
): Promise<void> {
  const batch = db.batch();
  batch.update(paths.clientQuestionImport(record.client_id, record.id), {
    status: 'complete',
    pending_folder_ids: [],
    lease_expires_at: null,
    completed_at: new Date(now).toISOString(),
  });
  for (let i = 0; i < record.chunk_count; i++)
    batch.delete(paths.clientQuestionImportChunk(record.client_id, record.id, i));
  await batch.commit();
}

/** Undoes steps 1–2 of an import that never committed: nothing of it was visible. */
export async function abandonImport(
  record: Pick<ImportRecord, 'client_id' | 'id' | 'chunk_count' | 'claim'>,
): Promise<void> {
  const ref = paths.clientQuestionImport(record.client_id, record.id);
  await db.runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (!snap.exists || (snap.data() as ImportRecord).claim !== record.claim || snap.get('status') !== 'staging')
      return;
    tx.delete(ref);
    for (let i = 0; i < record.chunk_count; i++)
      tx.delete(paths.clientQuestionImportChunk(record.client_id, record.id, i));
  });
}

async function rollForward(record: ImportRecord, now: number): Promise<void> {
  const refs = Array.from({ length: record.chunk_count }, (_, i) =>
    paths.clientQuestionImportChunk(record.client_id, record.id, i),
  );
  const snaps = refs.length > 0 ? await db.getAll(...refs) : [];
  const questions = snaps.flatMap((s) =>
    s.exists ? (JSON.parse(s.get('payload') as string) as unknown[]).map((q) => toStoredQuestion(q as never)) : [],
  );
  await publishQuestions(record, questions, record.published_batches ?? []);
  await completeImport(record, now);
}

/**
 * Finishes committed imports whose worker died (roll forward) and removes
 * staged ones that never committed, once their lease has run out. Run before
 * every import of the organization and beside every listing of its questions;
 * returns how many it handled.
 */
export async function recoverStaleImports(clientId: string, now: number): Promise<number> {
  const snap = await paths
    .clientQuestionImports(clientId)
    .where('status', 'in', ['staging', 'committed'])
    .limit(20)
    .get();
  const stale = snap.docs.map((d) => d.data() as ImportRecord).filter((r) => leaseExpired(r, now));
  for (const record of stale) {
    if (record.status === 'committed') await rollForward(record, now);
    else await abandonImport(record);
  }
  return stale.length;
}
