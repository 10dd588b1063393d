import type { Transaction } from 'firebase-admin/firestore';
import { conflict, isDocumentId, notFound, type PageRequest } from '../shared';
import { ALREADY_EXISTS, db, fetchPage, hasStatus, paths } from '../firestore';
import type { StoredFolder, StoredFolderName } from './documents';
import { folderQuerySpec } from './folderQuery';
import { folderNameKey, normalizedFolderName, type Folder } from './schemas';

const duplicateName = (name: string) => conflict(`A folder named "${name}" already exists in this organization`);
const folderNotFound = () => notFound('Folder not found');

const toFolder = ({ id, client_id, name, created_at, updated_at }: StoredFolder): Folder => ({
  id,
  client_id,
  name,
  created_at,
  updated_at,
});

/** The folder of this client, or undefined when there is none by that id. */
export async function findFolder(clientId: string, folderId: string): Promise<Folder | undefined> {
  if (!isDocumentId(clientId) || !isDocumentId(folderId)) return undefined;
  const snap = await paths.clientFolder(clientId, folderId).get();
  return snap.exists ? toFolder(snap.data() as StoredFolder) : undefined;
}

/**
 * The folder, read inside the caller's transaction. A write that files
 * something into a folder reads it this way, so a concurrent delete of the
 * folder (which reads what the folder holds in its own transaction) and the
 * write cannot both succeed.
 */
export async function findFolderInTransaction(
  tx: Transaction,
  clientId: string,
  folderId: string,
): Promise<Folder | undefined> {
  if (!isDocumentId(clientId) || !isDocumentId(folderId)) return undefined;
  const snap = await tx.get(paths.clientFolder(clientId, folderId));
  return snap.exists ? toFolder(snap.data() as StoredFolder) : undefined;
}

/** The organization that owns a folder id, whichever it is: tells "another organization's" (403) from "none" (404). */
export async function findFolderOwner(folderId: string): Promise<string | undefined> {
  if (!isDocumentId(folderId)) return undefined;
  const snap = await paths.allFolders().where('id', '==', folderId).select('client_id').limit(1).get();
  return snap.empty ? undefined : (snap.docs[0].get('client_id') as string);
}

/** The folders these names name in the organization (compared as folder names are: case and spacing aside), by name as given. */
export async function findFolderIdsByName(clientId: string, names: readonly string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const snaps = await db.getAll(...names.map((name) => paths.clientFolderName(clientId, folderNameKey(name))));
  const found = new Map<string, string>();
  snaps.forEach((snap, i) => {
    if (snap.exists) found.set(names[i], (snap.data() as StoredFolderName).folder_id);
  });
  return found;
}

/**
 * Creates folders inside the caller's transaction, each with its name guard
 * (read first: a name taken since the caller looked answers 409). Reads come
 * before writes, so call it after the transaction's other reads.
 */
export async function createFoldersInTransaction(tx: Transaction, folders: readonly Folder[]): Promise<void> {
  if (folders.length === 0) return;
  const guards = folders.map((f) => paths.clientFolderName(f.client_id, folderNameKey(f.name)));
  const taken = await tx.getAll(...guards);
  const clash = taken.findIndex((snap) => snap.exists);
  if (clash >= 0)
    throw conflict(`A folder named "${folders[clash].name}" was created while the import ran; send the file again`);
  folders.forEach((folder, i) => {
    tx.create(guards[i], { folder_id: folder.id } satisfies StoredFolderName);
    tx.create(paths.clientFolder(folder.client_id, folder.id), {
      ...folder,
      name_sort: normalizedFolderName(folder.name),
    });
  });
}

/** The name guard and the folder are created together, so two racing creates of one name cannot both win. */
export async function insertFolder(folder: Folder): Promise<void> {
  const batch = db.batch();
  batch.create(paths.clientFolderName(folder.client_id, folderNameKey(folder.name)), {
    folder_id: folder.id,
  } satisfies StoredFolderName);
  batch.create(paths.clientFolder(folder.client_id, folder.id), {
    ...folder,
    name_sort: normalizedFolderName(folder.name),
  });
  try {
    await batch.commit();
  } catch (err) {
    if (hasStatus(err, ALREADY_EXISTS)) throw duplicateName(folder.name);
    throw err;
  }
}

export async function renameFolder(clientId: string, folderId: string, name: string, now: string): Promise<Folder> {
  if (!isDocumentId(folderId)) throw folderNotFound();
  return db.runTransaction(async (tx) => {
    const snap = await tx.get(paths.clientFolder(clientId, folderId));
    if (!snap.exists) throw folderNotFound();
    const current = snap.data() as StoredFolder;
    const oldKey = folderNameKey(current.name);
    const newKey = folderNameKey(name);
    if (newKey !== oldKey) {
      const taken = await tx.get(paths.clientFolderName(clientId, newKey));
      if (taken.exists) throw duplicateName(name);
      tx.create(paths.clientFolderName(clientId, newKey), { folder_id: folderId } satisfies StoredFolderName);
      tx.delete(paths.clientFolderName(clientId, oldKey));
    }
    const next: StoredFolder = { ...current, name, name_sort: normalizedFolderName(name), updated_at: now };
    tx.set(paths.clientFolder(clientId, folderId), next);
    return toFolder(next);
  });
}

/**
 * Deletes an empty folder. What it holds is read in the same transaction as
 * the delete, and every write that files a question into a folder reads the
 * folder in its own transaction (findFolderInTransaction), so a question filed
 * at the same moment either lands first (and the delete answers 409) or finds
 * the folder gone. Imports that are still writing into it count as contents.
 */
export async function deleteFolder(clientId: string, folderId: string): Promise<void> {
  if (!isDocumentId(folderId)) throw folderNotFound();
  await db.runTransaction(async (tx) => {
    const ref = paths.clientFolder(clientId, folderId);
    const snap = await tx.get(ref);
    if (!snap.exists) throw folderNotFound();
    const [tests, questions, imports] = await Promise.all([
      tx.get(paths.clientTests(clientId).where('folder_id', '==', folderId).select().limit(1)),
      tx.get(paths.clientQuestions(clientId).where('folder_id', '==', folderId).select().limit(1)),
      tx.get(
        paths.clientQuestionImports(clientId).where('pending_folder_ids', 'array-contains', folderId).select().limit(1),
      ),
    ]);
    if (!tests.empty) throw conflict('The folder holds tests; move or delete them first');
    if (!questions.empty || !imports.empty) throw conflict('The folder holds questions; move or delete them first');
    tx.delete(ref);
    tx.delete(paths.clientFolderName(clientId, folderNameKey((snap.data() as StoredFolder).name)));
  });
}

export async function listFolders(clientId: string, page: PageRequest) {
  const { docs, pagination } = await fetchPage(paths.clientFolders(clientId), folderQuerySpec(), page);
  return { data: (docs as StoredFolder[]).map(toFolder), pagination };
}
