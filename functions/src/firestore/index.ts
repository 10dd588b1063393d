// Front door of firestore/: the Firestore client, the one module of collection paths, paged queries, contention, cost.
// What other folders may use; nothing else of this folder is imported from outside.
export { bookkeepingWrite, waitOnDeadline } from './callWatch';
export { retryOnContention } from './contention';
export type { ContentionRetry } from './contention';
export { costHeaderValue, installCostMeter } from './costMeter';
export { auth, db } from './db';
export { buildQuery, fetchPage } from './pagedQuery';
export { paths } from './paths';
export { ALREADY_EXISTS, FAILED_PRECONDITION, NOT_FOUND, hasStatus } from './statusCodes';
