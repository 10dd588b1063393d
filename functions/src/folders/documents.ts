import type { Folder } from './schemas';

// Pure: the Firestore documents the folders feature owns (where they live: firestore/paths.ts).

/** clients/{clientId}/folders/{folderId}: the reply's fields plus the sort key of its name. */
export type StoredFolder = Folder & { name_sort: string };

/** clients/{clientId}/folder_names/{key}: the guard that makes a folder's name unique in its organization. */
export interface StoredFolderName {
  folder_id: string;
}
