import type { Principal } from '../auth';
import type { CallContext } from '../shared';

// What an attempt shows its caller, asked of the attempts feature (which
// provides the answer from app.ts): media is served by the attempt's rules
// without this folder depending on attempts, which depends on the bank, which
// stores media.

/** Who asks through an attempt: a signed-in user, or the bearer of its attempt token. */
export type MediaAttemptCaller = { principal: Principal; token?: undefined } | { principal?: Principal; token: string };

export interface ShownAttempt {
  clientId: string;
  /** The attempt's questions as frozen (text, options, feedback…). */
  questions: readonly object[];
  /** In progress and before its deadline. */
  taking: boolean;
  /** Submitted, and its review open to this caller. */
  reviewOpen: boolean;
}

/** The checks of reading the attempt (who, the token, the organization, the taker's account), then what it shows. */
export type AttemptLookup = (caller: MediaAttemptCaller, attemptId: string, call: CallContext) => Promise<ShownAttempt>;

let lookup: AttemptLookup | undefined;

export function provideAttemptLookup(provided: AttemptLookup): void {
  lookup = provided;
}

export function shownAttempt(caller: MediaAttemptCaller, attemptId: string, call: CallContext): Promise<ShownAttempt> {
  if (!lookup) throw new Error('The attempt lookup of media was not provided (app.ts provideEffects)');
  return lookup(caller, attemptId, call);
}
