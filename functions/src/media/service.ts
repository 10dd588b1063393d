import { attemptMediaScope, mediaAccess, type Principal } from '../auth';
import { shownAttempt, type MediaAttemptCaller } from './attemptLookup';
import { type CallContext, isDocumentId, notFound } from '../shared';
import { organizationOfMediaId, questionShowsMedia } from './rules';
import type { StoredMedia } from './schemas';
import { readMedia } from './store';

const mediaNotFound = () => notFound('Media not found');

/**
 * A media file for GET /media/{mediaId}, to whoever may see it (policy:
 * mediaAccess, attemptMediaScope). Whatever the caller may not see is 404,
 * exactly as media that does not exist.
 */
export async function serveMedia(
  principal: Principal | undefined,
  mediaId: string,
  query: { attempt_id?: string; attempt_token?: string },
  call: CallContext,
): Promise<{ doc: StoredMedia; bytes: Buffer }> {
  const clientId = organizationOfMediaId(mediaId);
  // An id that names no possible document names no media.
  if (clientId === undefined || !isDocumentId(mediaId) || !isDocumentId(clientId)) throw mediaNotFound();
  const token = query.attempt_token;
  const access = mediaAccess(token === undefined ? principal : undefined, clientId, query.attempt_id !== undefined);
  if (access === 'attempt') {
    const caller: MediaAttemptCaller = token === undefined ? { principal: principal! } : { principal, token };
    const shown = await shownAttempt(caller, query.attempt_id!, call);
    const scope = attemptMediaScope(shown);
    if (
      !scope ||
      shown.clientId !== clientId ||
      !shown.questions.some((question) => questionShowsMedia(question, mediaId, scope))
    ) {
      throw mediaNotFound();
    }
  }
  const found = await readMedia(clientId, mediaId);
  if (!found) throw mediaNotFound();
  return found;
}
