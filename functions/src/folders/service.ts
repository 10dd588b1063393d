import { randomUUID } from 'node:crypto';
import { assertCanManageQuestionBank, type Principal, questionBankScope } from '../auth';
import { requireClient } from '../clients';
import { notFound, type PageRequest } from '../shared';
import type { CreateFolderInput, Folder } from './schemas';
import * as store from './store';

/**
 * The organization owning a folder id: the caller's own when it is there (one
 * read), else found across organizations so that another organization's
 * folder answers 403 and an unknown one 404. A Super Admin's is always found
 * across organizations.
 */
export async function folderOwner(principal: Principal, folderId: string): Promise<string> {
  if (
    principal.role !== 'super_admin' &&
    principal.clientId &&
    (await store.findFolder(principal.clientId, folderId))
  ) {
    return principal.clientId;
  }
  const owner = await store.findFolderOwner(folderId);
  if (!owner) throw notFound('Folder not found');
  assertCanManageQuestionBank(principal, owner);
  return owner;
}

export async function listFolders(principal: Principal, filters: { client_id?: string }, page: PageRequest) {
  const clientId = questionBankScope(principal, filters.client_id, 'query.client_id');
  await requireClient(clientId);
  return store.listFolders(clientId, page);
}

export async function createFolder(principal: Principal, input: CreateFolderInput): Promise<Folder> {
  const clientId = questionBankScope(principal, input.client_id, 'body.client_id');
  await requireClient(clientId);
  const now = new Date().toISOString();
  const folder: Folder = { id: randomUUID(), client_id: clientId, name: input.name, created_at: now, updated_at: now };
  await store.insertFolder(folder);
  return folder;
}

export async function renameFolder(principal: Principal, folderId: string, name: string): Promise<Folder> {
  const clientId = await folderOwner(principal, folderId);
  return store.renameFolder(clientId, folderId, name, new Date().toISOString());
}

export async function deleteFolder(principal: Principal, folderId: string): Promise<void> {
  const clientId = await folderOwner(principal, folderId);
  await store.deleteFolder(clientId, folderId);
}
