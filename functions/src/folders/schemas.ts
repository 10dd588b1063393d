import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ClientId, MAX_ID_LENGTH, pagedQuery, Pagination } from '../shared';

// Pure: what a folder is. A folder groups an organization's tests and questions.

export const MAX_FOLDER_NAME = 100;

const name = z
  .string()
  .trim()
  .min(1)
  .max(MAX_FOLDER_NAME)
  .describe(`1 to ${MAX_FOLDER_NAME} characters; unique within the organization regardless of case and spacing`);

export const FolderId = z.string().min(1).max(MAX_ID_LENGTH).describe(`A folder id, 1 to ${MAX_ID_LENGTH} characters`);

export const Folder = z
  .object({
    id: z.string(),
    client_id: z.string(),
    name: z.string(),
    created_at: z.string().describe('ISO 8601 UTC'),
    updated_at: z.string().describe('ISO 8601 UTC'),
  })
  .meta({ id: 'Folder' });
export type Folder = z.infer<typeof Folder>;

export const CreateFolderBody = z
  .strictObject({
    name,
    client_id: ClientId.optional().describe(
      'Required for a Super Admin; a Client Admin may omit it (own organization)',
    ),
  })
  .meta({ id: 'CreateFolder' });
export type CreateFolderInput = z.infer<typeof CreateFolderBody>;

export const RenameFolderBody = z.strictObject({ name }).meta({ id: 'RenameFolder' });

export const FolderParams = z.strictObject({ folderId: FolderId });

export const ListFoldersQuery = pagedQuery({
  client_id: ClientId.optional().describe('Required for a Super Admin; others may omit it (own organization)'),
});

export const FolderPage = z.object({ data: z.array(Folder), pagination: Pagination }).meta({ id: 'FolderPage' });

/** A folder name as compared for uniqueness: Unicode-normalized, spacing collapsed, case folded. */
export const normalizedFolderName = (value: string): string =>
  value.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/** The name guard's document id: a digest, so any name makes a valid id of fixed length. */
export const folderNameKey = (value: string): string =>
  createHash('sha256').update(normalizedFolderName(value), 'utf8').digest('hex');
