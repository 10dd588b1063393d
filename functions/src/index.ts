import { deferFrameworkBodyErrors } from './platform';
deferFrameworkBodyErrors();

import { onRequest } from 'firebase-functions/v2/https';
import type { Express } from 'express';
import type { Domain } from 'node:domain';
import { createApp, provideEffects } from './app';
import { params, readConfig } from './config';
import { onSchedule } from 'firebase-functions/v2/scheduler';
import { onDocumentCreated } from 'firebase-functions/v2/firestore';
import type { StoredEvent } from './outbox';

// Every function of this codebase loads this module, the api's instances
// included: the other functions' work is imported inside their handlers, so
// it never weighs on the api's cold start (bench/README.md).

let app: Express | undefined;

/**
 * The Functions Framework runs each request inside a `domain` (deprecated in
 * Node) so that an exception thrown outside any promise answers that request
 * 500. While a domain is active, Node pairs every promise and callback the
 * request creates with it and enters and leaves it around each: about a sixth
 * of the CPU of a save under load (bench/README.md). The app answers its own errors
 * (Express catches a handler's throw and rejection); an exception that escapes
 * everything still reaches the framework's process handler, which answers 500
 * and replaces the instance, as Node advises after an uncaught exception.
 */
function leaveRequestDomain(): void {
  (process as NodeJS.Process & { domain?: Domain }).domain?.exit();
}

/** The whole API: Hosting rewrites /api/** here. */
// cors: false because the app applies its own allowlist; firebase-functions would
// otherwise answer every origin in the emulator.
// maxInstances caps what a flood can cost: at most MAX_INSTANCES × CONCURRENCY requests in flight.
// minInstances keeps instances warm for a sitting's synchronized start (docs/operations.md).
// timeoutSeconds: a regrade rescores every attempt of a version in pages within its request
// (10,000 attempts took about a minute on the emulator, bench/README.md); sent again it finishes.
export const api = onRequest(
  {
    region: 'us-central1',
    memory: '512MiB',
    timeoutSeconds: 540,
    concurrency: params.concurrency,
    minInstances: params.minInstances,
    maxInstances: params.maxInstances,
    cors: false,
  },
  (req, res) => {
    app ??= createApp(readConfig());
    leaveRequestDomain();
    return app(req, res);
  },
);

/**
 * Every 5 minutes: finishes deadline changes whose runner stopped part way
 * (a moved closes_at, an accommodation, a sitting-wide extension), then
 * submits attempts left in progress past their deadline (expires_at + 30 s),
 * scoring the answers saved in time, in bounded batches.
 */
export const closeOverdueAttempts = onSchedule(
  { schedule: 'every 5 minutes', region: 'us-central1', timeoutSeconds: 300 },
  async () => {
    provideEffects();
    const { resumeStaleSweeps } = await import('./sittings').then((door) => door.loadSweeps());
    const { closeOverdueAttempts: closeOverdue } = await import('./attempts').then((door) => door.loadService());
    await resumeStaleSweeps(Date.now());
    await closeOverdue(Date.now(), 200);
  },
);

/** A course first launched from an LTI platform: its roster (NRPS) fills the course's class (lti/roster/). */
export { syncLtiRosterOnWrite } from './lti';
/**
 * An event written with its change (the outbox) is fanned out into deliveries
 * at once: one per receiver, under deterministic ids, tried at once and again
 * after 5 s. Not retried by the platform: the runner below fans out any event
 * left without deliveries a minute on.
 */
export const fanOutEvent = onDocumentCreated(
  { document: 'clients/{clientId}/events/{eventId}', region: 'us-central1', timeoutSeconds: 120, retry: false },
  async (change) => {
    const event = change.data?.data() as StoredEvent | undefined;
    if (!event) return;
    provideEffects();
    const { fanOut } = await import('./delivery');
    await fanOut(event, Date.now());
  },
);

/**
 * Every minute: fans out events whose trigger was lost, then tries every due
 * delivery, organizations in turn (delivery/retry.ts RUNNER_LIMITS bound one
 * organization's share, so its backlog never holds up another's).
 */
export const deliverDue = onSchedule(
  { schedule: 'every 1 minutes', region: 'us-central1', timeoutSeconds: 120 },
  async () => {
    provideEffects();
    const { runDue } = await import('./delivery');
    await runDue(Date.now());
  },
);
