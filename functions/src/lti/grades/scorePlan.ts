import type { StoredAttempt } from '../../attempts';
import type { StoredLtiOutcome } from '../documents';

// Pure: which attempt's score each line item and user receives for one event.

/**
 * One score per (platform, line item, user): a line item holds one score per user, and the
 * outbox keys a delivery by its target. Of several attempts of one student in one event (a
 * regrade of a test taken twice), the one submitted last is the one posted.
 */
export function scoreTargets<T extends { attempt: StoredAttempt; outcome: StoredLtiOutcome }>(linked: T[]): T[] {
  const byTarget = new Map<string, T>();
  for (const entry of linked) {
    const key = JSON.stringify([entry.outcome.platform_id, entry.outcome.lineitem, entry.outcome.user_sub]);
    const kept = byTarget.get(key);
    if (!kept || (entry.attempt.submitted_at ?? '') > (kept.attempt.submitted_at ?? '')) byTarget.set(key, entry);
  }
  return [...byTarget.values()];
}
