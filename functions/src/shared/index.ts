// Front door of shared/: errors, validation, ids, pagination, text, numbers and wall clocks: the vocabulary every feature shares.
// What other folders may use; nothing else of this folder is imported from outside.
export { readCache } from './cache';
export type { CallContext, RequestOrigin, UploadBody } from './callContext';
export {
  ApiError,
  ERROR_STATUS,
  MAX_ERROR_DETAILS,
  MAX_ERROR_TEXT,
  badRequest,
  conflict,
  forbidden,
  notFound,
  serviceUnavailable,
  unauthorized,
} from './errors';
export type { ErrorCode, ErrorDetail } from './errors';
export { ClientId, MAX_ATTEMPT_TOKEN_LENGTH, MAX_ID_LENGTH, Uid, isDocumentId } from './ids';
export { keyedGate } from './keyedGate';
export { parseNumberAnswer, parseNumberText } from './numberText';
export {
  DEFAULT_PAGE_LIMIT,
  MAX_CURSOR_LENGTH,
  MAX_PAGE_LIMIT,
  Pagination,
  decodeCursor,
  encodeCursor,
  isDocumentPath,
  pageInfo,
  pagedQuery,
  queryBoolean,
  splitPageQuery,
} from './pagination';
export type { CursorValue, PageInfo, PageRequest } from './pagination';
export { prefixRange } from './prefixRange';
export { activeEquals } from './querySpec';
export type { QuerySpec } from './querySpec';
export { percentageOf, round4 } from './scores';
export { seededFractions, shuffled } from './shuffle';
export {
  MAX_SEB_KEYS,
  SEB_CONFIG_KEY_HEADER,
  SEB_KEY_PATTERN,
  SEB_REQUEST_HASH_HEADER,
  publicUrl,
  sebKeysOf,
  sebRefusal,
  sebRequired,
} from './seb';
export type { SebKeys, SebRequest } from './seb';
export { isWellFormedText } from './text';
export { validate } from './validate';
export { localTime } from './wallClock';
