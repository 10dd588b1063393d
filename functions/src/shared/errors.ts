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

/** The one error type: anything thrown as ApiError reaches the client as the documented body. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }

  toBody(): Record<string, unknown> {
    return {
      error: this.code,
      message: this.message,
      status: this.status,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

export const badRequest = (message: string, details?: ErrorDetail[]) =>
  new ApiError('VALIDATION_ERROR', message, details);
export const unauthorized = (message: string) => new ApiError('UNAUTHORIZED', message);
export const forbidden = (message: string) => new ApiError('FORBIDDEN', message);
export const notFound = (message: string) => new ApiError('NOT_FOUND', message);
export const conflict = (message: string) => new ApiError('CONFLICT', message);
/** A backend we depend on (Firestore, Auth) failed or timed out: the caller may retry, nothing was decided about it. */
export const serviceUnavailable = (message = 'A backend service is temporarily unavailable; retry shortly') =>
  new ApiError('SERVICE_UNAVAILABLE', message, undefined, { 'Retry-After': String(RETRY_AFTER_UNAVAILABLE_SECONDS) });
