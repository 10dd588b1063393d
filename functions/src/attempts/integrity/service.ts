import { assertCanReadIntegrityEvents, assertCanSendIntegrityEvents, type Principal } from '../../auth';
import { attemptTakingEvents, type AttemptCaller } from '../service';
import { findAttempt } from '../attemptLookup';
import { type CallContext, notFound, type PageRequest } from '../../shared';
import { summaryView } from './eventRules';
import type { PostEventsInput } from './schemas';
import * as store from './store';

// Integrity events: sent by the taker's page, read by the organization's
// administrators. They inform a person; nothing here touches a score.

export async function postEvents(caller: AttemptCaller, attemptId: string, input: PostEventsInput, call: CallContext) {
  if (caller.token === undefined) assertCanSendIntegrityEvents(caller.principal);
  const attempt = await attemptTakingEvents(caller, attemptId, call);
  const recorded = await store.recordEvents(attempt, input.events);
  return { stored: recorded.stored, duplicates: recorded.duplicates, summary: summaryView(recorded.summary) };
}

export async function listEvents(principal: Principal, attemptId: string, page: PageRequest) {
  const found = await findAttempt(attemptId);
  if (!found) throw notFound('Attempt not found');
  const { attempt } = found;
  assertCanReadIntegrityEvents(principal, { clientId: attempt.client_id });
  const [{ data, pagination }, summary] = await Promise.all([
    store.listEvents(attempt.client_id, attempt.id, page),
    store.findSummary(attempt.client_id, attempt.id),
  ]);
  return {
    data: data.map((e) => ({ type: e.type, at: e.at, client_seq: e.client_seq, received_at: e.received_at })),
    summary: summaryView(summary),
    pagination,
  };
}
