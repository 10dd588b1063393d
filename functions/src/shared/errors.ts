// Pure: the error vocabulary of the API, usable from domain code.
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

/** Seconds a caller is asked to wait after a 503 before retrying. */
export const RETRY_AFTER_UNAVAILABLE_SECONDS = 5;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path: string;
  message: string;
  [extra: string]: unknown;
}

/** An error reply lists at most this many details, and says how many there were (`details_total`). */
export const MAX_ERROR_DETAILS = 100;
/** Longest message, detail path or detail text in an error reply: a reply stays small whatever the input was. */
export const MAX_ERROR_TEXT = 500;

/** Cut to `max` UTF-16 units with "…", never splitting a surrogate pair. */
export function clipText(text: string, max = MAX_ERROR_TEXT): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

function clipDetail(detail: ErrorDetail): ErrorDetail {
  const clipped: ErrorDetail = {
    ...detail,
    path: clipText(String(detail.path)),
    message: clipText(String(detail.message)),
  };
  for (const [key, value] of Object.entries(clipped)) if (typeof value === 'string') clipped[key] = clipText(value);
  return clipped;
}

/** The one error type: anything thrown as ApiError reaches the client as the documented body. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
    /** Further top-level fields of the body (an import's per-question report). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }

  /** The reply, bounded here once for every endpoint: long texts are cut, and only the first details listed. */
  toBody(): Record<string, unknown> {
    const details = this.details;
    return {
      error: this.code,
      message: clipText(this.message),
      status: this.status,
      ...(details ? { details: details.slice(0, MAX_ERROR_DETAILS).map(clipDetail) } : {}),
      ...(details && details.length > MAX_ERROR_DETAILS ? { details_total: details.length } : {}),
      ...this.extra,
    };
  }
}

export const badRequest = (message: string, details?: ErrorDetail[], extra?: Record<string, unknown>) =>
  new ApiError('VALIDATION_ERROR', message, details, undefined, extra);
export const unauthorized = (message: string) => new ApiError('UNAUTHORIZED', message);
export const forbidden = (message: string) => new ApiError('FORBIDDEN', message);
export const notFound = (message: string) => new ApiError('NOT_FOUND', message);
export const conflict = (message: string) => new ApiError('CONFLICT', message);
/** A backend we depend on (Firestore, Auth) failed or timed out: the caller may retry, nothing was decided about it. */
export const serviceUnavailable = (message = 'A backend service is temporarily unavailable; retry shortly') =>
  new ApiError('SERVICE_UNAVAILABLE', message, undefined, { 'Retry-After': String(RETRY_AFTER_UNAVAILABLE_SECONDS) });
