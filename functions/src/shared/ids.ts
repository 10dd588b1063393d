import { z } from 'zod';

// Pure: the documented bounds of every id a caller sends. Firebase uids are at
// most 128 characters; our document ids are uuids or short slugs. Anything
// longer is refused with 400 before it reaches Firestore or Auth.
export const MAX_ID_LENGTH = 128;

export const Uid = z.string().min(1).max(MAX_ID_LENGTH).describe(`A user id (uid), 1 to ${MAX_ID_LENGTH} characters`);
export const ClientId = z.string().min(1).max(MAX_ID_LENGTH).describe(`A client id, 1 to ${MAX_ID_LENGTH} characters`);
