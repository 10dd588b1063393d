import { createHash } from 'node:crypto';
import { getApp } from 'firebase-admin/app';
import type { Storage } from 'firebase-admin/storage';
import { db, paths } from '../firestore';
import { errorText, log } from '../platform';
import { badRequest, serviceUnavailable } from '../shared';
import { MAX_IMPORT_MEDIA_BYTES, sniffMedia } from './mediaType';
import { newMediaId } from './rules';
import type { StoredMedia } from './schemas';

// Media files: a record in Firestore (clients/{clientId}/media/{mediaId}) and
// the bytes in Cloud Storage under the same name. Only the backend reads or
// writes the bucket (storage.rules denies every client).

type Bucket = ReturnType<Storage['bucket']>;
let bucketOnce: Promise<Bucket> | undefined;

/**
 * The project's default bucket (its name from the app's options, as Firebase
 * configures functions; else `<project>.appspot.com`, the emulator's default).
 * The Storage client loads on first use, so instances that never touch media never load it.
 */
function bucket(): Promise<Bucket> {
  bucketOnce ??= import('firebase-admin/storage').then(({ getStorage }) => {
    const app = getApp();
    const projectId = app.options.projectId ?? process.env.GCLOUD_PROJECT ?? process.env.GOOGLE_CLOUD_PROJECT;
    const found = getStorage(app).bucket(app.options.storageBucket ?? `${projectId}.appspot.com`);
    // A reader waits for a picture: one retry, not the client's default of three over up to ten minutes.
    Object.assign(found.storage.retryOptions, { maxRetries: 1, totalTimeout: 20 });
    return found;
  });
  return bucketOnce;
}

/** Storage failing (down, timing out, or an object gone that its record names) is the backend's problem: 503, logged. */
function storageFault(what: string, err: unknown, fields: Record<string, unknown> = {}) {
  log.error(`Cloud Storage failed: ${what}`, { ...fields, error: errorText(err) });
  return serviceUnavailable('Media storage is temporarily unavailable; retry shortly');
}

export interface MediaFile {
  /** As the source named it: kept on the record, never used to decide the type. */
  name: string;
  bytes: Uint8Array;
  /** The id to store it under, when the caller chose it already (an import's text refers to it); else a new one. */
  id?: string;
}

export interface StoreMediaResult {
  /** By file name: the record stored for it (identical files of one import share one). */
  stored: Map<string, StoredMedia>;
  /** Files refused, with why (not an allowed type by their content, empty, over 2 MB, a video over 20 MB). */
  refused: Array<{ name: string; reason: string }>;
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** At most this many objects are written at once. */
const PARALLEL_WRITES = 8;
/** Records per batch: well below Firestore's 500 writes. */
const RECORDS_PER_BATCH = 400;

async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(PARALLEL_WRITES, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(lanes);
}

/**
 * Stores an import's media: each file's type is decided by its content; files
 * refused are reported, not stored. Identical bytes within the import are
 * stored once. Objects are written first, then their records, so a record
 * never names missing bytes; on failure what was written is removed and 503
 * is thrown. Accepted files together over 20 MB → 400, nothing written.
 */
export async function storeMedia(
  clientId: string,
  files: readonly MediaFile[],
  importId: string | null,
): Promise<StoreMediaResult> {
  const refused: StoreMediaResult['refused'] = [];
  const bySha = new Map<string, { record: StoredMedia; bytes: Uint8Array }>();
  const stored = new Map<string, StoredMedia>();
  const now = new Date().toISOString();
  for (const file of files) {
    const sniffed = await sniffMedia(file.bytes);
    if (!sniffed.ok) {
      refused.push({ name: file.name, reason: sniffed.reason });
      continue;
    }
    const hash = sha256(file.bytes);
    let entry = bySha.get(hash);
    if (!entry) {
      const id = file.id ?? newMediaId(clientId);
      const record: StoredMedia = {
        id,
        client_id: clientId,
        content_type: sniffed.contentType,
        bytes: file.bytes.byteLength,
        sha256: hash,
        name: file.name,
        created_at: now,
        import_id: importId,
      };
      entry = { record, bytes: file.bytes };
      bySha.set(hash, entry);
    }
    stored.set(file.name, entry.record);
  }
  const unique = [...bySha.values()];
  const total = unique.reduce((sum, e) => sum + e.record.bytes, 0);
  if (total > MAX_IMPORT_MEDIA_BYTES) {
    throw badRequest(
      `The file's media weigh ${total} bytes together; an import may bring at most ${MAX_IMPORT_MEDIA_BYTES}`,
    );
  }
  if (unique.length === 0) return { stored, refused };

  const target = await bucket();
  const written: string[] = [];
  try {
    await inParallel(unique, async ({ record, bytes }) => {
      await target.file(paths.mediaObject(clientId, record.id)).save(Buffer.from(bytes), {
        resumable: false,
        contentType: record.content_type,
      });
      written.push(record.id);
    });
  } catch (err) {
    await removeObjects(clientId, written);
    throw storageFault('writing media', err, { client_id: clientId, import_id: importId });
  }
  try {
    for (let i = 0; i < unique.length; i += RECORDS_PER_BATCH) {
      const batch = db.batch();
      for (const { record } of unique.slice(i, i + RECORDS_PER_BATCH))
        batch.create(paths.clientMedia(clientId, record.id), record);
      await batch.commit();
    }
  } catch (err) {
    await removeMedia(clientId, written).catch(() => undefined);
    throw err;
  }
  return { stored, refused };
}

async function removeObjects(clientId: string, ids: readonly string[]): Promise<void> {
  const target = await bucket();
  await inParallel(ids, async (id) => {
    try {
      await target.file(paths.mediaObject(clientId, id)).delete({ ignoreNotFound: true });
    } catch (err) {
      // Bytes without a record are never served; logged so they can be swept.
      log.error('Removing a media object failed; it is left without a record', {
        object: paths.mediaObject(clientId, id),
        error: errorText(err),
      });
    }
  });
}

/** Removes media (an abandoned import's): records first, so nothing is served while its bytes go. */
export async function removeMedia(clientId: string, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += RECORDS_PER_BATCH) {
    const batch = db.batch();
    for (const id of ids.slice(i, i + RECORDS_PER_BATCH)) batch.delete(paths.clientMedia(clientId, id));
    await batch.commit();
  }
  await removeObjects(clientId, ids);
}

/** A media file's record and bytes; undefined when there is no such record. Storage failing → 503. */
export async function readMedia(
  clientId: string,
  mediaId: string,
): Promise<{ doc: StoredMedia; bytes: Buffer } | undefined> {
  const record = paths.clientMedia(clientId, mediaId).get();
  // Started together: a served file costs one round trip, not two.
  const download = bucket().then((target) => target.file(paths.mediaObject(clientId, mediaId)).download());
  download.catch(() => undefined); // awaited below only when the record exists
  const snap = await record;
  if (!snap.exists) return undefined;
  try {
    const [bytes] = await download;
    return { doc: snap.data() as StoredMedia, bytes };
  } catch (err) {
    throw storageFault('reading media', err, { object: paths.mediaObject(clientId, mediaId) });
  }
}

// ---- one file's bytes under a name of the caller's (a taker's attached file), stored like media

/** Writes one file's bytes (the object first: its record is written after, by its owner). Storage failing → 503, logged. */
export async function writeFileObject(name: string, bytes: Uint8Array, contentType: string): Promise<void> {
  try {
    const target = await bucket();
    await target.file(name).save(Buffer.from(bytes), { resumable: false, contentType });
  } catch (err) {
    throw storageFault('writing a file', err, { object: name });
  }
}

/** One file's bytes. Storage failing (or the object gone that a record names) → 503, logged. */
export async function readFileObject(name: string): Promise<Buffer> {
  try {
    const [bytes] = await (await bucket()).file(name).download();
    return bytes;
  } catch (err) {
    throw storageFault('reading a file', err, { object: name });
  }
}

/** Removes one file's bytes; a failure is logged (bytes without a record are never served) and not thrown. */
export async function removeFileObject(name: string): Promise<void> {
  try {
    await (await bucket()).file(name).delete({ ignoreNotFound: true });
  } catch (err) {
    log.error('Removing a stored file failed; it is left without a record', { object: name, error: errorText(err) });
  }
}
