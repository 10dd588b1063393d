import type { Response } from 'express';
import type { Principal } from '../auth';
import type { ApiError } from '../shared';

/**
 * Everything the middleware of one request leaves for its later steps, typed
 * once: authentication and the rate limiter write it, the route reads it.
 */
export interface RequestState {
  /** The verified caller; absent on public routes and on requests that came in with an attempt token. */
  principal?: Principal;
  /** An admin read's account re-check, run beside its handler (awaitAccountCheck). */
  accountCheck?: Promise<void>;
  /** What authentication left running (organization status, login record, a write's account re-check), awaited before the handler. */
  authorization?: Promise<void>;
  /** This request's per-IP verdict, once its counting started. */
  ipLimit?: Promise<ApiError | undefined>;
  /** The uid of a token whose signature is verified, while Auth is still asked whether it was revoked. */
  signedUid?: string;
  /** The caller's address is inside a registered organization network: an identified request is counted against its identity. */
  onNetwork?: boolean;
  /** Starts the per-IP count, at most once. */
  startIpCount?: () => Promise<ApiError | undefined>;
  /** The attempt token this request carried opened its attempt: until then it identifies no one (see `tokenOpenedNothing`, http/attemptToken.ts). */
  attemptTokenOpened?: boolean;
  /** This request's refused credential was counted (once per request, whichever step refused it). */
  refusalCounted?: boolean;
  /** A sensitive operation reported its stricter limit: the per-IP count must not overwrite its headers. */
  strictLimitReported?: boolean;
}

/** This request's state; kept in `res.locals`, which lives exactly as long as the request. */
export const requestState = (res: Response): RequestState => res.locals;
