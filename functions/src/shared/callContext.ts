import type { SebRequest } from './seb';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

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
   * Counts a credential the service refused (a share code, an attempt token,
   * an access code) as docs/security.md#rate-limits says; throws RATE_LIMITED
   * past the limit.
   */
  countRefusedCredential(): Promise<void>;
  /** The attempt token opened its attempt: the request is no refused credential for having carried it. */
  attemptTokenOpened(): void;
  /** The request's public URL and Safe Exam Browser's headers, for a test that requires SEB (absent: none sent). */
  seb?: SebRequest;
}

/** A multipart upload as a service reads it: its headers and its body, nothing else of the request. */
export interface UploadBody {
  headers: IncomingHttpHeaders;
  /** Whether the request says it carries a multipart/form-data body (as Express's `req.is` decides). */
  multipart: boolean;
  /** The body as the platform (Cloud Functions, the emulator) already read it; then `stream` is spent. */
  rawBody?: Buffer;
  /** The body as it arrives, when nothing read it before. */
  stream: Readable;
}
