import { Timestamp, type Transaction } from 'firebase-admin/firestore';
import { paths } from '../firestore';
import { eventOfScoreChange, type ScoredAttempt } from './attemptEvents';
import type { StoredEvent } from './documents';

/**
 * The events there are. Here, not in documents.ts (types only, never loaded), because the door
 * exports the list (webhooks' schemas read it) and the door is loaded at cold start.
 */
export const EVENT_TYPES = ['attempt.submitted', 'attempt.graded', 'attempt.regraded', 'test.published'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

const EVENT_KEPT_MS = 30 * 24 * 60 * 60_000;

/** Writes the event in the change's own transaction (one write, no read): if the change commits, so does its event. */
export function recordEvent(
  tx: Transaction,
  event: { clientId: string; type: EventType; testId: string; attempts: StoredEvent['attempts']; nowMs?: number },
): string {
  const ref = paths.clientEvents(event.clientId).doc();
  const nowMs = event.nowMs ?? Date.now();
  const stored: StoredEvent = {
    id: ref.id,
    client_id: event.clientId,
    type: event.type,
    test_id: event.testId,
    attempts: event.attempts,
    timestamp: new Date(nowMs).toISOString(),
    fanned_out: false,
    expires_at: Timestamp.fromMillis(nowMs + EVENT_KEPT_MS),
  };
  tx.create(ref, stored);
  return ref.id;
}

/** The event a score written to one attempt makes, if any (outbox/attemptEvents.ts), in that write's transaction. */
export function recordScoreEvent(tx: Transaction, change: { before: ScoredAttempt; after: ScoredAttempt }): void {
  const type = eventOfScoreChange(change.before, change.after);
  if (!type) return;
  const { after } = change;
  recordEvent(tx, {
    clientId: after.client_id,
    type,
    testId: after.test_id,
    attempts: [{ id: after.id, revision: after.revision ?? 0 }],
  });
}

/** A regrade's attempts whose score changed, one event for them all (one write, however many attempts). */
export function recordRegradeEvent(
  tx: Transaction,
  at: { clientId: string; testId: string },
  changes: ReadonlyArray<{ after: ScoredAttempt }>,
): void {
  if (changes.length === 0) return;
  recordEvent(tx, {
    clientId: at.clientId,
    type: 'attempt.regraded',
    testId: at.testId,
    attempts: changes.map(({ after }) => ({ id: after.id, revision: after.revision ?? 0 })),
  });
}
