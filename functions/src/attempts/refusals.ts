import { ApiError } from '../shared/errors';

// Pure: refusals of a credential the attempts handlers check themselves (a
// share code, an attempt token). Each is counted against the caller's address
// like a failed authentication, so guessing
// codes or tokens from one address stops at the limit with 429.
export class RefusedCredential extends ApiError {}

export const refusedCredential = (code: 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT', message: string): RefusedCredential => new RefusedCredential(code, message);

/** The test named in a start is not in the organization the start runs in (403 when it is another's, else 404). */
export class TestMissing extends ApiError {}
