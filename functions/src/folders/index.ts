// Front door of folders/: question folders.
// What other folders may use; nothing else of this folder is imported from outside.
export { Folder, MAX_FOLDER_NAME, normalizedFolderName } from './schemas';
export {
  createFoldersInTransaction,
  findFolder,
  findFolderIdsByName,
  findFolderInTransaction,
  findFolderOwner,
} from './store';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
