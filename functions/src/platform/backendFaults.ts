// Pure: tells a failing backend apart from a caller's mistake. A fault is
// answered 503 SERVICE_UNAVAILABLE, never 401/403, and never counts against the
// caller (no failed-login count, no token_rejected record).

// gRPC status codes with which Firestore says "not now" rather than "not you".
const FIRESTORE_FAULT_CODES = new Set([
  1, // CANCELLED
  2, // UNKNOWN
  4, // DEADLINE_EXCEEDED
  8, // RESOURCE_EXHAUSTED (quota)
  10, // ABORTED (a transaction that kept losing to contention)
  13, // INTERNAL
  14, // UNAVAILABLE
]);

// Auth errors that are about the token or the account. Everything else the Auth
// SDK throws (internal-error when Google's keys cannot be fetched, network
// errors, quota) is the backend's problem.
export const TOKEN_PROBLEM_CODES = new Set([
  'auth/argument-error',
  'auth/invalid-id-token',
  'auth/id-token-expired',
  'auth/id-token-revoked',
  'auth/user-disabled',
  'auth/user-not-found',
]);

const codeOf = (err: unknown): unknown =>
  typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;

// INVALID_ARGUMENT is about the request, except when Firestore says the
// transaction it was sent in is gone: expired ("The referenced transaction has
// expired or is no longer valid"), or closed under it after a lock wait timed
// out (the emulator's "Transaction is invalid or closed", met when the client
// library re-sends a read of a transaction that was aborted meanwhile). That is
// contention, not the caller's mistake, and the SDK gives up on it.
const INVALID_ARGUMENT = 3;
const GONE_TRANSACTION = /transaction (has expired|is invalid or closed|is no longer valid)/i;

/** Whether `err` is Firestore refusing a transaction it has expired or closed (contention, timeouts), whatever the code it used. */
function isLostTransaction(err: unknown): boolean {
  const message = err instanceof Error ? err.message : '';
  return codeOf(err) === INVALID_ARGUMENT && GONE_TRANSACTION.test(message);
}

/** Whether `err` is a transaction that lost to contention (aborted, or expired/closed under it): worth running again. */
export const isContention = (err: unknown): boolean => codeOf(err) === 10 || isLostTransaction(err);

export const isTokenProblem = (err: unknown): boolean => TOKEN_PROBLEM_CODES.has(codeOf(err) as string);

// Auth and app-level codes (and socket errors) for a backend that did not answer properly.
const AUTH_FAULT_CODES = new Set([
  'auth/internal-error',
  'auth/quota-exceeded',
  'auth/too-many-requests',
  'app/network-error',
  'app/network-timeout',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EAI_AGAIN',
]);

/** Whether `err` is Firestore or Auth failing (unavailable, timed out, quota, internal), not a verdict on the request. */
export function isBackendFault(err: unknown): boolean {
  const code = codeOf(err);
  if (typeof code === 'number') return FIRESTORE_FAULT_CODES.has(code) || isLostTransaction(err);
  return typeof code === 'string' && AUTH_FAULT_CODES.has(code);
}
