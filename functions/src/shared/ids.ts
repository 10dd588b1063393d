import { z } from 'zod';

// Pure: the documented bounds of every id a caller sends. Firebase uids are at
// most 128 characters; our document ids are uuids or short slugs. Anything
// longer is refused with 400 before it reaches Firestore or Auth.
export const MAX_ID_LENGTH = 128;
/** The longest attempt token any route takes (query or header). */
export const MAX_ATTEMPT_TOKEN_LENGTH = 128;

/**
 * Whether an id could name a Firestore document. One that cannot (a `/`, `.`
 * or `..`, `__reserved__`, too long) names nothing: not found, never a server error.
 */
export const isDocumentId = (id: string): boolean =>
  id.length > 0 &&
  Buffer.byteLength(id, 'utf8') <= 1500 &&
  !id.includes('/') &&
  id !== '.' &&
  id !== '..' &&
  !/^__.*__$/.test(id);

export const Uid = z.string().min(1).max(MAX_ID_LENGTH).describe(`A user id (uid), 1 to ${MAX_ID_LENGTH} characters`);
export const ClientId = z.string().min(1).max(MAX_ID_LENGTH).describe(`A client id, 1 to ${MAX_ID_LENGTH} characters`);
