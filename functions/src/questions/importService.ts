import { randomUUID } from 'node:crypto';
import { questionBankScope } from '../auth/policy';
import type { Principal } from '../auth/principal';
import type { UploadBody } from '../shared/callContext';
import { isDocumentId } from '../shared/ids';
import { db } from '../firestore/db';
import { paths } from '../firestore/paths';
import { requireClient } from '../folders/service';
import { findFolderOwner } from '../folders/store';
import { badRequest, forbidden } from '../shared/errors';
import { errorText, log } from '../platform/log';
import { parseHeader, rowError, validateRow, type HeaderColumns, type RowResult } from './csvRows';
import { readCsvUpload } from './csvUpload';
import * as imports from './importStore';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, normalizeQuestion, type ImportResult, type RowError } from './schemas';
import type { StoredQuestion } from './documents';
import { MissingFolder } from './store';

export interface ImportOptions {
  client_id?: string;
  mode: 'all_or_nothing' | 'partial';
  dry_run: boolean;
}

/** Reads and validates every row while the upload streams in; holds only the validated rows. */
async function readRows(upload: UploadBody): Promise<{ sha256: string; rows: RowResult[] }> {
  let columns: HeaderColumns | undefined;
  const rows: RowResult[] = [];
  const { sha256 } = await readCsvUpload(upload, { maxBytes: MAX_IMPORT_BYTES, maxRows: MAX_IMPORT_ROWS }, (record) => {
    if (!columns) {
      const header = parseHeader(record.cells);
      if ('error' in header) throw badRequest(header.error, [{ path: 'row 1', message: header.error }]);
      columns = header.columns;
      return;
    }
    rows.push(validateRow(record.line, columns, record.cells));
  });
  return { sha256, rows };
}

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

export async function importQuestions(
  principal: Principal,
  options: ImportOptions,
  upload: UploadBody,
): Promise<ImportResult> {
  const clientId = questionBankScope(principal, options.client_id, 'query.client_id');
  await requireClient(clientId);
  const read = await readRows(upload);
  const rows = await checkFolders(principal, clientId, read.rows);

  const errors: RowError[] = rows.flatMap((r) => (r.ok ? [] : r.errors));
  const failed = rows.filter((r) => !r.ok).length;
  const valid = rows.filter((r): r is Extract<RowResult, { ok: true }> => r.ok);
  if (failed > 0 && options.mode === 'all_or_nothing') {
    throw badRequest(
      `${failed} of ${rows.length} rows are invalid; nothing was imported (send ?mode=partial to import the valid rows)`,
      errors,
    );
  }
  if (valid.length === 0) throw badRequest(`None of the ${rows.length} rows is valid; nothing was imported`, errors);

  const importId = read.sha256;
  if (options.dry_run) {
    imports.assertNotImported(await imports.findImport(clientId, importId));
    return { import_id: null, dry_run: true, imported: valid.length, failed, errors, question_ids: [] };
  }

  const now = Date.now();
  const createdAt = new Date(now).toISOString();
  const questions: StoredQuestion[] = valid.map((r) => ({
    id: randomUUID(),
    client_id: clientId,
    folder_id: r.question.folder_id ?? null,
    ...normalizeQuestion(r.question),
    created_at: createdAt,
    updated_at: createdAt,
  }));
  const chunks = imports.chunkQuestions(questions);
  const folderIds = [...new Set(questions.flatMap((q) => (q.folder_id ? [q.folder_id] : [])))];

  await imports.recoverStaleImports(clientId, now);
  const record = await imports.claimImport({
    id: importId,
    client_id: clientId,
    status: 'staging',
    question_ids: questions.map((q) => q.id),
    pending_folder_ids: [],
    chunk_count: chunks.length,
    imported: questions.length,
    failed,
    created_by: principal.uid,
    created_at: createdAt,
    lease_expires_at: imports.leaseFrom(now),
    completed_at: null,
  });
  try {
    await imports.stageChunks(clientId, importId, chunks);
    await imports.commitImport(record, folderIds, Date.now());
  } catch (err) {
    // Nothing is visible yet: remove what was staged (a crash leaves it to recoverStaleImports).
    await imports
      .abandonImport(record)
      .catch((cleanupErr) =>
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
    failed,
    errors,
    question_ids: questions.map((q) => q.id),
  };
}
