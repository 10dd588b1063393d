import { type ContentionRetry, db, fetchPage, paths, retryOnContention } from '../../firestore';
import { conflict, keyedGate, type PageRequest } from '../../shared';
import type { AttemptSlot, StoredAttempt } from '../documents';
import { graceEndsMs } from '../rules';
import type { StoredIntegrityEvent, StoredIntegritySummary } from './documents';
import { EVENT_TIMELINE_QUERY } from './eventQuery';
import {
  eventId,
  EVENTS_AFTER_DEADLINE,
  EVENTS_AFTER_SUBMISSION,
  MAX_EVENTS_PER_ATTEMPT,
  planEvents,
  type IncomingEvent,
} from './eventRules';

// An attempt's integrity events, beside the attempt and never in it: a batch is
// one transaction on the attempt's summary document and the batch's own event
// documents, so a chatty tab neither grows the attempt nor contends with its saves.
//
// Whether the attempt still takes events is decided in that transaction, by the
// attempt's slot (tests/{t}/attempt_slots/{student}): every close of the attempt
// frees it (in_progress null) in its own transaction, and a save never writes it.
// A batch that read the slot before a submit freed it conflicts with the submit:
// one of the two runs again, and the batch then finds the slot freed (409). The
// submit reads the summary (answering.ts): a batch committed before that read is
// dated before submitted_at.

/** One tab's batches meet on the summary: queued here per instance, retried within the request's budget across instances. */
const oneSummaryAtATime = keyedGate(1);
const EVENTS_CONTENTION: ContentionRetry = { retries: 8, budgetMs: 20_000 };

export interface RecordedEvents {
  stored: number;
  duplicates: number;
  summary: StoredIntegritySummary | undefined;
}

/**
 * Stores a batch: one read round trip (the attempt's slot, the summary and the batch's event documents,
 * to find those already stored), then the new events and the summary in one commit. The attempt no
 * longer the slot's attempt in progress (submitted, or closed) → 409, or past its deadline (the slot's
 * expires_at, + 30 s) → 409; past MAX_EVENTS_PER_ATTEMPT → 409; nothing written. A batch of duplicates
 * only writes nothing.
 */
export function recordEvents(
  attempt: Pick<StoredAttempt, 'id' | 'client_id' | 'test_id' | 'student_id'>,
  events: readonly IncomingEvent[],
): Promise<RecordedEvents> {
  const { client_id: clientId, id: attemptId } = attempt;
  const slotRef = paths.attemptSlot(clientId, attempt.test_id, attempt.student_id);
  const summaryRef = paths.integritySummary(clientId, attemptId);
  const seqs = [...new Set(events.map((e) => e.client_seq))];
  const eventRefs = seqs.map((seq) => paths.integrityEvent(clientId, attemptId, eventId(seq)));
  return retryOnContention(
    () =>
      oneSummaryAtATime(summaryRef.path, () =>
        db.runTransaction(async (tx) => {
          const [slotSnap, summarySnap, ...eventSnaps] = await tx.getAll(slotRef, summaryRef, ...eventRefs);
          const running = slotSnap.exists ? (slotSnap.data() as AttemptSlot).in_progress : null;
          if (running?.attempt_id !== attemptId) throw conflict(EVENTS_AFTER_SUBMISSION);
          const nowMs = Date.now();
          if (nowMs > graceEndsMs(running.expires_at)) throw conflict(EVENTS_AFTER_DEADLINE);
          const stored = summarySnap.exists ? (summarySnap.data() as StoredIntegritySummary) : undefined;
          const already = new Set(seqs.filter((_, i) => eventSnaps[i].exists));
          const plan = planEvents(attemptId, stored, events, already, nowMs);
          if (plan.over)
            throw conflict(
              `An attempt keeps at most ${MAX_EVENTS_PER_ATTEMPT} integrity events; it has ${plan.stored}, and this request would take it to ${plan.wouldBe}. Nothing was stored`,
            );
          for (const event of plan.fresh)
            tx.create(
              paths.integrityEvent(clientId, attemptId, eventId(event.client_seq)),
              event satisfies StoredIntegrityEvent,
            );
          if (plan.summary) tx.set(summaryRef, plan.summary satisfies StoredIntegritySummary);
          return { stored: plan.fresh.length, duplicates: plan.duplicates, summary: plan.summary ?? stored };
        }),
      ),
    EVENTS_CONTENTION,
  );
}

export async function findSummary(clientId: string, attemptId: string): Promise<StoredIntegritySummary | undefined> {
  const snap = await paths.integritySummary(clientId, attemptId).get();
  return snap.exists ? (snap.data() as StoredIntegritySummary) : undefined;
}

/** The summaries of many attempts of one organization, in one round trip (absent: no event yet). */
export async function summariesOf(
  clientId: string,
  attemptIds: readonly string[],
): Promise<Map<string, StoredIntegritySummary>> {
  const found = new Map<string, StoredIntegritySummary>();
  if (attemptIds.length === 0) return found;
  const snaps = await db.getAll(...attemptIds.map((id) => paths.integritySummary(clientId, id)));
  snaps.forEach((snap, i) => {
    if (snap.exists) found.set(attemptIds[i], snap.data() as StoredIntegritySummary);
  });
  return found;
}

export async function listEvents(clientId: string, attemptId: string, page: PageRequest) {
  const { docs, pagination } = await fetchPage(paths.integrityEvents(clientId, attemptId), EVENT_TIMELINE_QUERY, page);
  return { data: docs as StoredIntegrityEvent[], pagination };
}
