import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { type Principal, questionBankScope } from '../auth';
import { badRequest, forbidden, isDocumentId, notFound } from '../shared';
import { db, paths } from '../firestore';
import { requireClient } from '../clients';
import { findFolder, findFolderIdsByName, findFolderOwner, type Folder, normalizedFolderName } from '../folders';
import { errorText, log } from '../platform';
import { parseHeader, rowError, validateRow, type HeaderColumns, type RowResult } from './csvRows';
import { csvRecords, type ReceivedFile, streamBytes, type UploadedFile, uploadError } from '../transfer';
import * as imports from './importStore';
import { MAX_IMPORT_ROWS, type ImportResult } from './importSchemas';
import { normalizeQuestion, type QuestionInput } from './schemas';
import type { StoredQuestion } from './documents';
import { importEntries, type ImportEntry, type MediaPlan } from './bankEntries';
import {
  BankFileRefused,
  decodeBankText,
  detectFormat,
  FORMAT_LABELS,
  type InterchangeFormat,
  type ParsedBank,
} from '../interchange';
import { loadBankFormats } from '../questionTypes';
import { loadMediaType, loadStore, mediaUrl, newMediaId, type MediaFile } from '../media';
import { MissingFolder } from './store';
import { bankSizeRefusal, decideImport, type ImportMode, type ImportWrite, type ValidEntry } from './importDecision';

export interface ImportOptions {
  mode: ImportMode;
  dry_run: boolean;
  format?: InterchangeFormat;
  folder_id?: string;
}

type ReadFile = { kind: 'csv'; rows: RowResult[] } | { kind: 'bank'; bank: ParsedBank };

/** CSV rows, validated while the file streams in; holds only the validated rows. */
async function readCsvFile(file: UploadedFile): Promise<ReadFile> {
  let columns: HeaderColumns | undefined;
  const rows: RowResult[] = [];
  for await (const record of csvRecords(file, MAX_IMPORT_ROWS)) {
    if (!columns) {
      const header = parseHeader(record.cells);
      if ('error' in header) throw badRequest(header.error, [{ path: 'row 1', message: header.error }]);
      columns = header.columns;
      continue;
    }
    rows.push(validateRow(record.line, columns, record.cells));
  }
  return { kind: 'csv', rows };
}

/** The file as its format reads it: CSV streamed row by row, a bank file whole (at most the upload's 5 MB). */
async function readImportFile(file: UploadedFile, explicit: InterchangeFormat | undefined): Promise<ReadFile> {
  if (explicit === 'csv' || (!explicit && /\.csv$/i.test(file.filename ?? ''))) return readCsvFile(file);
  const bytes = await streamBytes(file.stream);
  try {
    const format = detectFormat({ filename: file.filename, bytes, explicit });
    if (format === 'csv') return readCsvFile({ filename: file.filename, stream: Readable.from([bytes]) });
    const formats = await loadBankFormats();
    if (format === 'qti' && isZip(bytes)) return { kind: 'bank', bank: await formats.parseQtiPackage(bytes) };
    const text = decodeBankText(bytes, FORMAT_LABELS[format]);
    const bank =
      format === 'gift'
        ? formats.parseGift(text)
        : format === 'aiken'
          ? formats.parseAiken(text)
          : format === 'moodle_xml'
            ? formats.parseMoodleXml(text)
            : formats.parseQtiXml(text);
    return { kind: 'bank', bank };
  } catch (err) {
    if (err instanceof BankFileRefused) throw uploadError(err.message);
    throw err;
  }
}

const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b;

/** Each folder a file names costs a read; a file may name this many at most. */
export const MAX_FOLDERS_PER_IMPORT = 100;

/**
 * Folders the valid rows name must be folders of the organization. Read in one
 * round trip; rows naming a folder that does not exist fail. A Client Admin
 * naming another organization's folder is refused whole (403), as for POST.
 */
async function checkFolders(principal: Principal, clientId: string, rows: RowResult[]): Promise<RowResult[]> {
  const named = [...new Set(rows.flatMap((r) => (r.ok && r.question.folder_id ? [r.question.folder_id] : [])))];
  if (named.length === 0) return rows;
  // Each named folder costs a read: a file may not make an import read thousands.
  if (named.length > MAX_FOLDERS_PER_IMPORT) {
    throw badRequest(`A file may name at most ${MAX_FOLDERS_PER_IMPORT} different folders; it names ${named.length}`, [
      { path: 'file.folder_id', message: `At most ${MAX_FOLDERS_PER_IMPORT} different folders per file` },
    ]);
  }
  const valid = named.filter(isDocumentId);
  const snaps = valid.length > 0 ? await db.getAll(...valid.map((id) => paths.clientFolder(clientId, id))) : [];
  const existing = new Set(snaps.filter((s) => s.exists).map((s) => s.id));
  const missing = named.filter((id) => !existing.has(id));
  if (principal.role !== 'super_admin') {
    for (const id of missing.slice(0, 20)) {
      if (await findFolderOwner(id)) throw forbidden(`Folder ${id} belongs to another organization`);
    }
  }
  const missingSet = new Set(missing);
  return rows.map((r) =>
    r.ok && r.question.folder_id && missingSet.has(r.question.folder_id)
      ? { ok: false, line: r.line, errors: [rowError(r.line, 'folder_id', 'Names no folder of this organization')] }
      : r,
  );
}

interface FolderPlan {
  /** The folder a question goes into. */
  folderOf(entry: ImportEntry): string | null;
  /** Folders to create with the import (categories no folder has the name of yet). */
  created: Folder[];
}

/**
 * Where the questions go: every one into ?folder_id= when given; otherwise a
 * CSV row's own folder_id, or the folder named after a bank file's category,
 * found by name or created with the import.
 */
async function planFolders(
  principal: Principal,
  clientId: string,
  entries: ImportEntry[],
  folderId: string | undefined,
): Promise<FolderPlan> {
  if (folderId !== undefined) {
    if (!(await findFolder(clientId, folderId))) {
      if (principal.role !== 'super_admin' && (await findFolderOwner(folderId)))
        throw forbidden(`Folder ${folderId} belongs to another organization`);
      throw notFound('Folder not found');
    }
    return { folderOf: () => folderId, created: [] };
  }
  const byKey = new Map<string, string>();
  for (const e of entries) if (e.question && e.folderName) byKey.set(normalizedFolderName(e.folderName), e.folderName);
  const names = [...byKey.values()];
  if (names.length > MAX_FOLDERS_PER_IMPORT) {
    throw badRequest(
      `A file may name at most ${MAX_FOLDERS_PER_IMPORT} different categories; it names ${names.length}`,
      [{ path: 'file', message: `At most ${MAX_FOLDERS_PER_IMPORT} categories per file` }],
    );
  }
  const existing = await findFolderIdsByName(clientId, names);
  const now = new Date().toISOString();
  const created: Folder[] = names
    .filter((name) => !existing.has(name))
    .map((name) => ({ id: randomUUID(), client_id: clientId, name, created_at: now, updated_at: now }));
  const idByKey = new Map<string, string>([
    ...[...existing].map(([name, id]): [string, string] => [normalizedFolderName(name), id]),
    ...created.map((f): [string, string] => [normalizedFolderName(f.name), f.id]),
  ]);
  return {
    folderOf: (e) =>
      e.folderName ? (idByKey.get(normalizedFolderName(e.folderName)) ?? null) : (e.question?.folder_id ?? null),
    created,
  };
}

/** A CSV row as the per-question report shows it. */
function csvEntry(row: RowResult, i: number): ImportEntry {
  if (row.ok)
    return {
      report: {
        index: i + 1,
        line: row.line,
        title: row.question.title ?? null,
        question_type: row.question.question_type,
        status: 'ok',
        message: null,
        warnings: [],
      },
      question: row.question,
      folderName: null,
      errors: [],
    };
  return {
    report: {
      index: i + 1,
      line: row.line,
      title: null,
      question_type: null,
      status: 'error',
      message: row.errors.map((e) => `${e.field}: ${e.message}`).join('; '),
      warnings: [],
    },
    folderName: null,
    errors: row.errors,
  };
}

/**
 * The media the bank carries, each checked by its content and size, and given
 * the id it would be stored under (identical bytes share one). Writes nothing:
 * a dry run stops after this.
 */
async function planMedia(clientId: string, bank: ParsedBank): Promise<MediaPlan> {
  const { MAX_IMPORT_MEDIA_BYTES, sniffMedia } = await loadMediaType();
  const plan = new Map<string, { id: string } | { refused: string }>();
  const idBySha = new Map<string, string>();
  let total = 0;
  for (const [name, file] of bank.media) {
    const sniffed = await sniffMedia(file.bytes);
    if (!sniffed.ok) {
      plan.set(name, { refused: sniffed.reason });
      continue;
    }
    const sha = createHash('sha256').update(file.bytes).digest('hex');
    const id = idBySha.get(sha) ?? newMediaId(clientId);
    if (!idBySha.has(sha)) {
      idBySha.set(sha, id);
      total += file.bytes.byteLength;
    }
    plan.set(name, { id });
  }
  if (total > MAX_IMPORT_MEDIA_BYTES)
    throw uploadError(
      `The file carries ${(total / (1024 * 1024)).toFixed(1)} MB of media; an import may bring at most ${MAX_IMPORT_MEDIA_BYTES / (1024 * 1024)} MB`,
    );
  return plan;
}

/** The media files the imported questions refer to, as they will be stored. */
function mediaToStore(
  bank: ParsedBank,
  plan: MediaPlan,
  questions: QuestionInput[],
): Array<MediaFile & { id: string }> {
  const text = questions.map((q) => JSON.stringify(q)).join('\n');
  const files: Array<MediaFile & { id: string }> = [];
  for (const [name, file] of bank.media) {
    const planned = plan.get(name);
    if (planned && 'id' in planned && text.includes(mediaUrl(planned.id)))
      files.push({ id: planned.id, name: file.name, bytes: file.bytes });
  }
  return files;
}

interface ReadEntries {
  entries: ImportEntry[];
  /** The media a bank file carries, to store beside the questions that show them. */
  media: { bank: ParsedBank; plan: MediaPlan } | null;
}

/** The file's entries: CSV rows with the folders they name checked, or a bank's questions with its media planned. */
async function entriesOf(principal: Principal, clientId: string, file: ReadFile): Promise<ReadEntries> {
  if (file.kind === 'csv') {
    const rows = await checkFolders(principal, clientId, file.rows);
    return { entries: rows.map(csvEntry), media: null };
  }
  const refusal = bankSizeRefusal(file.bank.items.length);
  if (refusal) throw refusal;
  const plan = await planMedia(clientId, file.bank);
  return { entries: importEntries(file.bank, plan), media: { bank: file.bank, plan } };
}

/** The organization whose bank the file goes into (a Super Admin names it); it must exist. Checked before the upload is read. */
export async function importScope(principal: Principal, clientIdParam: string | undefined): Promise<string> {
  const clientId = questionBankScope(principal, clientIdParam, 'query.client_id');
  await requireClient(clientId);
  return clientId;
}

/**
 * Reads the uploaded file (its format read as it streams in), decides what it
 * writes, and writes that.
 */
export async function importQuestions(
  principal: Principal,
  clientId: string,
  options: ImportOptions,
  file: ReceivedFile,
): Promise<ImportResult> {
  const read = await file.finish(readImportFile(file, options.format));
  const { entries, media } = await entriesOf(principal, clientId, read.result);
  const folders = await planFolders(principal, clientId, entries, options.folder_id);
  const importId = read.sha256;
  const decision = decideImport(entries, {
    csv: read.result.kind === 'csv',
    mode: options.mode,
    dryRun: options.dry_run,
    earlier: options.dry_run ? await imports.findImport(clientId, importId) : undefined,
  });
  if ('refusal' in decision) throw decision.refusal;
  if ('dryRun' in decision) return decision.dryRun;
  return writeImport(principal, clientId, importId, decision.write, folders, media);
}

/** The questions as they will be stored, each in its folder, in file order. */
function storedQuestions(
  clientId: string,
  valid: ValidEntry[],
  folders: FolderPlan,
  createdAt: string,
): StoredQuestion[] {
  const ids = valid.map(() => randomUUID());
  // A description the file's questions name as their passage: its id is their passage_id.
  const passageIds = new Map(valid.flatMap((e, i) => (e.passageKey ? [[e.passageKey, ids[i]] as const] : [])));
  return valid.map((e, i) => {
    const passageId = e.passageRef ? passageIds.get(e.passageRef) : undefined;
    return {
      id: ids[i],
      client_id: clientId,
      folder_id: folders.folderOf(e),
      ...normalizeQuestion(e.question),
      ...(passageId ? { passage_id: passageId } : {}),
      created_at: createdAt,
      updated_at: createdAt,
    };
  });
}

/** Claims the file, stores its media, stages and commits its questions, then publishes them (see importStore.ts). */
async function writeImport(
  principal: Principal,
  clientId: string,
  importId: string,
  write: ImportWrite,
  folders: FolderPlan,
  media: ReadEntries['media'],
): Promise<ImportResult> {
  const { removeMedia, storeMedia } = await loadStore();
  const now = Date.now();
  const createdAt = new Date(now).toISOString();
  const questions = storedQuestions(clientId, write.valid, folders, createdAt);
  const chunks = imports.chunkQuestions(questions);
  const folderIds = [...new Set(questions.flatMap((q) => (q.folder_id ? [q.folder_id] : [])))];
  const newFolders = folders.created.filter((f) => folderIds.includes(f.id));
  const existingFolderIds = folderIds.filter((id) => !newFolders.some((f) => f.id === id));
  const mediaFiles = media
    ? mediaToStore(
        media.bank,
        media.plan,
        write.valid.map((e) => e.question),
      )
    : [];

  await imports.recoverStaleImports(clientId, now);
  const record = await imports.claimImport({
    id: importId,
    client_id: clientId,
    status: 'staging',
    question_ids: questions.map((q) => q.id),
    pending_folder_ids: [],
    chunk_count: chunks.length,
    imported: questions.length,
    failed: write.failed,
    created_by: principal.uid,
    created_at: createdAt,
    lease_expires_at: imports.leaseFrom(now),
    completed_at: null,
  });
  try {
    // Media first: a question is never visible before the files it shows.
    if (mediaFiles.length > 0) await storeMedia(clientId, mediaFiles, importId);
    await imports.stageChunks(clientId, importId, chunks);
    await imports.commitImport(record, existingFolderIds, Date.now(), newFolders);
  } catch (err) {
    // Nothing is visible yet: remove what was staged (a crash leaves it to recoverStaleImports).
    await Promise.all([
      imports.abandonImport(record),
      mediaFiles.length > 0 ? removeMedia(clientId, [...new Set(mediaFiles.map((m) => m.id))]) : undefined,
    ]).catch((cleanupErr) =>
      log.warn('Could not remove an abandoned import', { importId, error: errorText(cleanupErr) }),
    );
    if (err instanceof MissingFolder)
      throw badRequest(`Folder ${err.folderId} was deleted during the import; nothing was imported`, [
        { path: 'folder_id', message: `Folder ${err.folderId} no longer exists` },
      ]);
    throw err;
  }
  // Committed: from here on the import is finished, now or by a later roll forward.
  await imports.publishQuestions(record, questions);
  await imports.completeImport(record, Date.now());
  return {
    import_id: importId,
    dry_run: false,
    imported: questions.length,
    failed: write.failed,
    errors: write.errors,
    question_ids: questions.map((q) => q.id),
    questions: write.report,
  };
}
