import cors from 'cors';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import helmet from 'helmet';
import onHeaders from 'on-headers';
import { recordLogin, recordTokenRejected } from './audit';
import {
  authenticate,
  type AuthenticationEffects,
  awaitAccountCheck,
  awaitAuthorization,
  bodyGuard,
  errorHandler,
  everyRoute,
  type Guards,
  mountRouteGroups,
  requestContext,
  requestOrigin,
  type RouteDefinition,
  type RouteGroup,
  trustedProxy,
  unknownRoute,
} from './http';
import { findClient } from './clients';
import type { RuntimeConfig } from './config';
import { auth, costHeaderValue, db, installCostMeter } from './firestore';
import { openApiRoutes } from './openapi';
import { deferBodyErrors } from './platform';
import {
  ipLimitPassed,
  rateLimiter,
  type RateLimiter,
  startCountAs,
  startIdentifiedCount,
  startIpCount,
} from './rateLimit';
import { registeredNetworks } from './networks';
import {
  attachmentRoutes,
  attemptRoutes,
  attemptShown,
  integrityRoutes,
  provideSubmissionEffects,
  stopOpenAttempts,
} from './attempts';
import { meRoute, recordSweep, runSweep, standingAccommodations } from './sittings';
import { recordScoreChange, recordScoreChanges } from './analytics';
import { type DeliveryChannel, provideDeliveryChannels, recordRegradeEvent, recordScoreEvent } from './outbox';
import { provideTestChangeEffects } from './exams';
import { provideAttemptLookup } from './media';
import { provideLeaveClasses, provideStandingAccommodations } from './users';
import { leaveClasses } from './classes';

/**
 * Every route the app mounts, in matching order; the OpenAPI document describes
 * this same list. A taker's sitting (start, read, save, submit, /me, /health)
 * is loaded with the app; every other feature loads with its first request
 * (http/routeGroups.ts), so a cold instance answers a save without loading them.
 */
export function routeGroups(): RouteGroup[] {
  const lazy = (segments: string[], load: () => Promise<RouteDefinition[]>): RouteGroup => ({ segments, load });
  const groups: RouteGroup[] = [
    { routes: openApiRoutes(() => everyRoute(groups)) },
    lazy(['clients'], async () => (await import('./clients').then((door) => door.loadRoutes())).clientRoutes),
    lazy(['clients'], async () => (await import('./networks').then((door) => door.loadRoutes())).networkRoutes),
    { routes: [meRoute] },
    lazy(['users'], async () => (await import('./users').then((door) => door.loadRoutes())).userRoutes),
    lazy(
      ['invitations'],
      async () => (await import('./invitations').then((door) => door.loadRoutes())).invitationRoutes,
    ),
    lazy(['audit-logs'], async () => (await import('./audit').then((door) => door.loadRoutes())).auditRoutes),
    lazy(['folders'], async () => (await import('./folders').then((door) => door.loadRoutes())).folderRoutes),
    lazy(['classes'], async () => (await import('./classes').then((door) => door.loadRoutes())).classRoutes),
    // Before questionRoutes: /questions/export is not a question id.
    lazy(
      ['questions', 'tests'],
      async () => (await import('./exports').then((door) => door.loadRoutes())).exportRoutes,
    ),
    lazy(['questions'], async () => (await import('./questions').then((door) => door.loadRoutes())).questionRoutes),
    lazy(['tests'], async () => (await import('./exams').then((door) => door.loadRoutes())).testRoutes),
    { routes: attemptRoutes },
    // Beside the answers: a taker's page sends its integrity events while it answers.
    { routes: integrityRoutes },
    // A taker's files beside its answers (their service loads with the first file).
    { routes: attachmentRoutes },
    lazy(
      ['tests', 'users', 'attempts'],
      async () => (await import('./sittings').then((door) => door.loadRoutes())).sittingRoutes,
    ),
    lazy(['analytics'], async () => (await import('./analytics').then((door) => door.loadRoutes())).analyticsRoutes),
    lazy(
      ['tests', 'attempts'],
      async () => (await import('./grading').then((door) => door.loadRoutes())).gradingRoutes,
    ),
    lazy(['tests'], async () => (await import('./regrading').then((door) => door.loadRoutes())).regradingRoutes),
    lazy(['media'], async () => (await import('./media').then((door) => door.loadRoutes())).mediaRoutes),
    lazy(['classes'], async () => (await import('./classes').then((door) => door.loadRosterRoutes())).rosterRoutes),
    lazy(['clients', 'lti'], async () => (await import('./lti').then((door) => door.loadRoutes())).ltiRoutes),
    lazy(['clients'], async () => (await import('./webhooks').then((door) => door.loadRoutes())).webhookRoutes),
  ];
  return groups;
}

/** A receiver of the outbox, loaded when the outbox first plans or sends for it (never by the API's requests). */
function lazyChannel(load: () => Promise<DeliveryChannel>): DeliveryChannel {
  return {
    plan: async (event) => (await load()).plan(event),
    send: async (delivery) => (await load()).send(delivery),
  };
}

/**
 * The composition root's effects between features that must not import each
 * other: a submit adds the attempt to its version's analytics; a test's change
 * reaches its attempts (sweeps, stops). Run by
 * createApp and by the scheduled closer (index.ts), which runs without the app;
 * closing an attempt before it is an error, never a submit without analytics.
 */
export function provideEffects(): void {
  provideSubmissionEffects({
    // The analytics and the outbox's event move with the score, in its transaction.
    recordScoreChange: (tx, change) => {
      recordScoreChange(tx, change);
      recordScoreEvent(tx, change);
    },
    recordScoreChanges: (tx, at, changes) => {
      recordScoreChanges(tx, at, changes);
      recordRegradeEvent(tx, at, changes);
    },
  });
  provideTestChangeEffects({ recordSweep, runSweep, stopOpenAttempts });
  provideAttemptLookup(attemptShown);
  provideLeaveClasses(leaveClasses);
  // The Users list's students with their standing extra time, which sittings/ keeps.
  provideStandingAccommodations(standingAccommodations);
  // The outbox's receivers: each plans an event's deliveries and sends one try (delivery/engine.ts).
  provideDeliveryChannels({
    webhook: lazyChannel(async () => (await import('./webhooks').then((door) => door.loadChannel())).webhookChannel),
    lti_score: lazyChannel(
      async () => (await import('./lti').then((door) => door.loadGradesScoreChannel())).ltiScoreChannel,
    ),
  });
}

/** The composition root: what authentication does to the audit log, the limiter and the clients. */
function guards(limiter: RateLimiter): Guards {
  const effects: AuthenticationEffects = {
    recordLogin: (principal, req) => recordLogin(principal, requestOrigin(req)),
    recordTokenRejected: (req, reason, claimedUid) => recordTokenRejected(requestOrigin(req), reason, claimedUid),
    // After this request's own per-IP verdict (which may already be 429), so that
    // verdict never counts this request's failure against itself.
    countFailedAuthentication: async (req, res) => {
      await ipLimitPassed(res);
      await limiter.countRefusedCredential(req, res);
    },
    isClientActive: async (clientId) => (await findClient(clientId))?.active_status === 1,
    prefetchClient: (clientId) => void findClient(clientId).catch(() => undefined),
    signed: startCountAs,
  };
  return {
    countRequest: startIpCount,
    countIdentified: startIdentifiedCount,
    // A route that is not sensitive starts its per-IP count as it begins, so reading the organization while the
    // token is verified overlaps that count; a sensitive one counts after verification, and reads beside that commit.
    authenticate: (access, options) => authenticate(access, effects, options),
    sensitive: limiter.sensitive,
    runHandler: awaitAccountCheck,
    beforeHandler: (res) => firstRefusal(ipLimitPassed(res), awaitAuthorization(res)),
    countRefusedCredential: limiter.countRefusedCredential,
  };
}

/** Waits for every check; the first one's refusal wins (a 429 over a 403). */
async function firstRefusal(...checks: Array<Promise<void>>): Promise<void> {
  for (const settled of await Promise.allSettled(checks)) if (settled.status === 'rejected') throw settled.reason;
}

/**
 * Every answer waits for this request's per-IP count (started by its route, or
 * here when no route took it): the limit headers go on every response, and a
 * 429 wins over whatever else the request would have been answered.
 */
const withIpLimit: ErrorRequestHandler = async (err, _req, res, next) => {
  try {
    await ipLimitPassed(res);
    next(err);
  } catch (refusal) {
    next(refusal);
  }
};
const ipLimitFirst: RequestHandler = async (_req, res, next) => {
  await ipLimitPassed(res);
  next();
};

export function createApp(config: RuntimeConfig): express.Express {
  if (config.exposeCostHeader) installCostMeter(db, auth);
  provideEffects();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Clients cannot choose their rate-limit bucket: only the entries our own
  // proxies appended to X-Forwarded-For are believed (http/clientIp.ts).
  app.set('trust proxy', trustedProxy(config.trustedProxyHops, config.trustedProxyRanges));

  app.use(requestContext);
  if (config.exposeCostHeader) {
    app.use((req, res, next) => {
      onHeaders(res, () => {
        res.setHeader('X-Debug-Cost', costHeaderValue() ?? '');
        // A streamed reply (a file, sent chunked) reads on after its headers: its whole cost follows the body as a
        // trailer. Only such a reply: Node throws on a trailer in any reply that is not chunked (a 204, a JSON body).
        if (res.locals.streamed === true && !res.hasHeader('Content-Length') && req.method !== 'HEAD')
          res.setHeader('Trailer', 'X-Debug-Cost');
      });
      const end = res.end as (...args: unknown[]) => express.Response;
      res.end = function (this: express.Response, ...args: unknown[]) {
        if (res.headersSent && res.hasHeader('Trailer')) res.addTrailers({ 'X-Debug-Cost': costHeaderValue() ?? '' });
        return end.apply(this, args);
      } as express.Response['end'];
      next();
    });
  }
  // The API answers JSON and CSV, never a page: a policy that loads nothing and is never framed.
  app.use(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      xFrameOptions: { action: 'deny' },
    }),
  );
  app.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.use(
    cors({
      origin: config.corsOrigins,
      allowedHeaders: [
        'Authorization',
        'Content-Type',
        'X-Attempt-Token',
        'X-SafeExamBrowser-ConfigKeyHash',
        'X-SafeExamBrowser-RequestHash',
      ],
      exposedHeaders: [
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Retry-After',
        'X-Request-Id',
      ],
      maxAge: 600,
    }),
  );
  // A liveness probe is counted like any request but never writes a counter itself.
  const limiter = rateLimiter(config, {
    writesNothing: (req) => req.path === '/api/health' && ['GET', 'HEAD'].includes(req.method),
  });
  // Read the registered networks now, so the first requests seldom wait for them.
  registeredNetworks().catch(() => undefined);
  app.use(limiter.perAddress);
  // The platform has usually parsed the body already; this covers running the app elsewhere.
  // Its errors wait for bodyGuard, which answers every parser's error the same way.
  app.use(deferBodyErrors(express.json({ limit: config.maxJsonBodyBytes })));
  // An LTI platform posts forms (the login, the id_token).
  app.use(deferBodyErrors(express.urlencoded({ extended: false, limit: config.maxJsonBodyBytes })));
  app.use(bodyGuard(config));
  app.use('/api', mountRouteGroups(routeGroups(), guards(limiter)));
  app.use(ipLimitFirst, unknownRoute);
  app.use(withIpLimit, errorHandler);
  return app;
}
