import type { Principal } from '../../auth';
import { defineRoute, type RouteDefinition } from '../../http';
import type { AttemptCaller } from '../service';
import { AttemptParams, AttemptTokenQuery } from '../schemas';
import { splitPageQuery, unauthorized } from '../../shared';
import { FUTURE_TOLERANCE_MS, MAX_EVENTS_PER_ATTEMPT, MAX_EVENTS_PER_REQUEST } from './eventRules';
import { EventPage, ListEventsQuery, PostEventsBody, PostEventsReply } from './schemas';
import * as service from './service';

/** The attempt token wins when both are sent, as on the attempt's other routes. */
function callerOf(principal: Principal | undefined, token: string | undefined): AttemptCaller {
  if (token !== undefined) return { principal, token };
  if (!principal) throw unauthorized('Missing Authorization header (or ?attempt_token=)');
  return { principal };
}

export const integrityRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'post',
    path: '/attempts/{attemptId}/events',
    summary: 'Send integrity events (the taker’s page)',
    description:
      `What the taker’s page saw: {events: [{type, at, client_seq}]}, 1 to ${MAX_EVENTS_PER_REQUEST} per request (more → 400). ` +
      `Types: focus_lost, focus_back, paste, fullscreen_exit, offline, online, reload (another → 400); at is the page’s clock, at most ${FUTURE_TOLERANCE_MS / 60_000} minutes past the server’s (else 400). ` +
      'An event whose client_seq is already stored (or repeated in the request) is a duplicate: ignored, and counted in duplicates, so an offline queue can be replayed whole. ' +
      `An attempt keeps at most ${MAX_EVENTS_PER_ATTEMPT} events: the request that would take it past → 409, nothing of it stored. ` +
      'Stored beside the attempt, never in it: sending events never grows the attempt nor delays its saves. They inform a proctor; they never change a score. ' +
      'Sent by the taker (its ID token, or the attempt token from either form, exactly as saves accept them, with the same checks: the organization active, the token’s account enabled, on site, Safe Exam Browser); ' +
      'an administrator by its own ID token → 403 (it reads them: GET). Another student’s attempt → 403, an unknown one → 404. ' +
      'After submission, or past expires_at + 30 s → 409.',
    tag: 'Attempts',
    access: ['super_admin', 'client_admin', 'student', 'guest'],
    attemptToken: true,
    params: AttemptParams,
    query: AttemptTokenQuery,
    body: PostEventsBody,
    success: {
      status: 200,
      description: 'What was stored, and the attempt’s counts as they now stand',
      schema: PostEventsReply,
    },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, query, body, call }) => ({
      status: 200,
      body: await service.postEvents(callerOf(principal, query.attempt_token), params.attemptId, body, call),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/attempts/{attemptId}/events',
    summary: 'An attempt’s integrity events (its timeline)',
    description:
      'The events the taker’s page sent, in the order of their at (the page’s clock), then client_seq, a page at a time, with the counts per type and the last event. ' +
      'The administrators of the attempt’s organization (another organization’s → 403) and Super Admins; not its taker (403): they inform a proctor.',
    tag: 'Attempts',
    access: ['super_admin', 'client_admin'],
    params: AttemptParams,
    query: ListEventsQuery,
    success: { status: 200, description: 'A page of the timeline, and the counts', schema: EventPage },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, query }) => ({
      status: 200,
      body: await service.listEvents(principal, params.attemptId, splitPageQuery(query).page),
    }),
  }),
];
