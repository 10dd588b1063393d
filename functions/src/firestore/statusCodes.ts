// Pure: the Firestore (gRPC) status codes the service reacts to, named once.
export const NOT_FOUND = 5;
export const ALREADY_EXISTS = 6;
export const FAILED_PRECONDITION = 9;

/** Whether a Firestore error carries one of these status codes. */
export const hasStatus = (err: unknown, ...codes: number[]): boolean =>
  codes.includes((err as { code?: unknown }).code as number);
