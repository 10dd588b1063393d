import { z } from 'zod';
import { MAX_ATTEMPT_TOKEN_LENGTH, MAX_ID_LENGTH } from '../shared';
import type { MediaContentType } from './mediaType';

/** clients/{clientId}/media/{mediaId}: a stored media file's record. Server side only. */
export interface StoredMedia {
  id: string;
  client_id: string;
  content_type: MediaContentType;
  bytes: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  /** The file's name as the source gave it (never used to decide its type). */
  name: string;
  created_at: string;
  /** The import that brought it (removed with it if that import is abandoned), or null. */
  import_id: string | null;
}

/** Only its length is checked here; any other id simply names no media (404). */
export const MediaId = z
  .string()
  .min(1)
  .max(2 * MAX_ID_LENGTH + 1)
  .describe('A media id, as a question’s HTML refers to it (/api/media/<id>): the organization id, ".", then a UUID');

export const MediaParams = z.strictObject({ mediaId: MediaId });

export const MediaQuery = z.strictObject({
  attempt_id: z
    .string()
    .min(1)
    .max(2 * MAX_ID_LENGTH + 1)
    .optional()
    .describe(
      'Students and Guests: the attempt whose question shows this media (required for them; ignored for administrators)',
    ),
  attempt_token: z
    .string()
    .min(1)
    .max(MAX_ATTEMPT_TOKEN_LENGTH)
    .optional()
    .describe('The attempt_token of attempt_id, instead of an Authorization header (a Guest)'),
});
