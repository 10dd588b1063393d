// Front door of api/: the API client and its generated types.
// What other folders may use; nothing else of this folder is imported from outside.
export {
  ApiError,
  OfflineError,
  authorizedFetch,
  createApi,
  downloadFile,
  serverNow,
  serverNowAtLeast,
  unwrap,
} from './client';
export type { Api, Schemas } from './client';
export type { components, paths } from './schema';
