import { keyedGate } from '../shared';

// Every transaction on one attempt document (its taker's saves and submit, a
// deadline change reaching it, a close) runs alone in this instance: queued, a
// burst of saves and a sweep passing through do not hold one another's locks
// until Firestore aborts them all. Across instances the transactions still
// decide; this only removes the contention an instance makes with itself.
export const oneAttemptAtATime = keyedGate(1);
