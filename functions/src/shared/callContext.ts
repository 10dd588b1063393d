/** Where a request came from, as the audit log records it. */
export interface RequestOrigin {
  /** The caller's address as our trusted proxies reported it (`unknown` when none did). */
  ip: string;
  /** The User-Agent header as sent, if any. */
  userAgent: string | null;
  requestId: string;
}

/**
 * What a service knows of the request it serves, built once per request by the
 * http layer, so that services never see Express's req or res.
 */
export interface CallContext extends RequestOrigin {
  /**
   * Counts a credential the service refused (a share code, an attempt token)
   * against the caller's address, like a failed authentication; throws
   * RATE_LIMITED once the address is past its limit.
   */
  countRefusedCredential(): Promise<void>;
}
