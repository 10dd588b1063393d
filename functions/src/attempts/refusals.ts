import { ApiError } from '../shared';

// Pure: refusals of a credential the attempts handlers check themselves (a
// share code, an attempt token, an access code). Each is counted toward the
// lockout as docs/security.md#rate-limits says, so guessing stops with 429.
export class RefusedCredential extends ApiError {}

export const refusedCredential = (code: 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT', message: string): RefusedCredential =>
  new RefusedCredential(code, message);

const ACCOUNT_MESSAGES = {
  disabled: 'The account this attempt belongs to has been disabled',
  revoked: 'The account this attempt belongs to no longer exists',
} as const;

/**
 * An attempt token whose taker's account was disabled or deleted: 401, counted
 * and recorded (token_rejected, with the reason) as the bearer path does for
 * such an account's ID token.
 */
export class RefusedAccount extends RefusedCredential {
  constructor(
    readonly reason: keyof typeof ACCOUNT_MESSAGES,
    readonly uid: string,
  ) {
    super('UNAUTHORIZED', ACCOUNT_MESSAGES[reason]);
  }
}

/** The test named in a start is not in the organization the start runs in (403 when it is another's, else 404). */
export class TestMissing extends ApiError {}
