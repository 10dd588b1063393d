// Front door of media/: question media: ids and the URL a question may link to, the bytes in Cloud Storage, GET /api/media.
// What other folders may use; nothing else of this folder is imported from outside.
export { provideAttemptLookup } from './attemptLookup';
export { mediaUrl, newMediaId, organizationOfMediaId } from './rules';
export type { MediaFile } from './store';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadMediaType = () => import('./mediaType');
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadStore = () => import('./store');
