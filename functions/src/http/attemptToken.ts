import type { Request } from 'express';

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

/** Whether the request came in with an attempt token instead of an Authorization header. */
export const usesAttemptToken = (req: Request): boolean =>
  req.header('authorization') === undefined && (req.header(ATTEMPT_TOKEN_HEADER) !== undefined || req.query.attempt_token !== undefined);
