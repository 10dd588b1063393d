import type { Request, Response } from 'express';
import { ApiError } from '../shared';
import { requestState } from './requestState';

// A Guest's way into its attempt: the attempt token, sent as the header
// X-Attempt-Token (kept out of URLs and access logs) or as ?attempt_token=.

export const ATTEMPT_TOKEN_HEADER = 'x-attempt-token';

/** The header's token, else the query parameter's; undefined when neither was sent (a repeated parameter is no token). */
export function attemptTokenOf(req: Request): string | undefined {
  const header = req.header(ATTEMPT_TOKEN_HEADER);
  if (header !== undefined) return header;
  const query = req.query.attempt_token;
  return typeof query === 'string' ? query : undefined;
}

/** Whether the request carries an attempt token (well-formed or not), whatever else it carries. */
const carriesAttemptToken = (req: Request): boolean =>
  req.header(ATTEMPT_TOKEN_HEADER) !== undefined || req.query.attempt_token !== undefined;

/** Whether the request came in with an attempt token instead of an Authorization header. */
export const usesAttemptToken = (req: Request): boolean =>
  req.header('authorization') === undefined && carriesAttemptToken(req);

/**
 * Whether `err`, refusing a request from a registered network that carried an
 * attempt token (beside an ID token or not), makes that token a refused
 * credential: there the request was counted in the token's own bucket, before
 * the token was checked, so a token that never opened its attempt (malformed,
 * for an attempt that does not exist or another's, the request refused before
 * the token was looked at) must count against the address, or made-up tokens
 * would cost nothing. Only the caller's refusals (4xx, not 429), once.
 * Elsewhere such a request was counted against the address already.
 * See docs/security.md#a-hall-behind-one-address-registered-networks.
 */
export function tokenOpenedNothing(req: Request, res: Response, err: unknown): boolean {
  const state = requestState(res);
  if (!state.onNetwork || !carriesAttemptToken(req) || state.attemptTokenOpened || state.refusalCounted) return false;
  return err instanceof ApiError && err.status >= 400 && err.status < 500 && err.code !== 'RATE_LIMITED';
}
