import express, { type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { errorText, log } from '../platform';
import type { Access, Principal } from '../auth';
import { badRequest, type CallContext, type ErrorCode, type UploadBody, validate } from '../shared';
import { ATTEMPT_TOKEN_HEADER, tokenOpenedNothing, usesAttemptToken } from './attemptToken';
import { requestOrigin } from './requestContext';
import { sebRequestOf } from './sebRequest';
import { requestState } from './requestState';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Reply {
  status: number;
  body?: unknown;
  /**
   * A streamed reply (a file) instead of a JSON body: written only once every
   * check has passed. What can fail (the first read) should fail in the handler,
   * before this, so it is still answered with an error body; a failure while
   * streaming can only cut the response short.
   */
  stream?: { contentType: string; fileName?: string; write: (res: Response) => Promise<void> };
  /** A 302 to this location instead of a body (the LTI login and launch hand the browser on). */
  redirect?: string;
  /** A Set-Cookie header (the LTI login binds its launch to the browser with `__session`). */
  setCookie?: string;
}

export interface HandlerContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** Absent (despite its type) on public routes and on requests that came in with an attempt token. */
  principal: Principal;
  /** Who is calling from where, and the refusal counter: all a service may know of the request. */
  call: CallContext;
  /** The origin the caller reached us at (scheme and host, as Hosting forwarded them): the tool's own URLs. */
  baseUrl?: string;
  /** The multipart body, on routes that declare `upload`. */
  upload?: UploadBody;
  /** The request's Cookie header: behind Hosting, only `__session` ever reaches a function. */
  cookies?: string;
}

export interface RouteDefinition<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
> {
  method: Method;
  /** OpenAPI-style path below /api, e.g. /clients/{clientId}. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  access: Access;
  /** Counts against the strict per-user limit as well as the per-IP one. */
  sensitive?: boolean;
  /**
   * Also open to a request with an attempt token (header X-Attempt-Token or
   * `?attempt_token=`) and no Authorization header (a Guest's way into its
   * attempt): it reaches the handler without a principal, the token in
   * `query.attempt_token`, and the handler checks the token.
   */
  attemptToken?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** The body may come as an HTML form (application/x-www-form-urlencoded) as well as JSON: a browser's post. */
  form?: boolean;
  /**
   * Errors as a page for a browser (Accept prefers text/html): a navigation ends on a page a person can
   * read, not on JSON; API clients still get the JSON body.
   */
  errorPage?: (error: { status: number; message: string; reason?: string }) => string;
  /** A multipart/form-data upload instead of a JSON body: the file part's name and what it holds. */
  upload?: { field: string; description: string };
  /** `mediaType`: a file's type(s) when the reply is not JSON. */
  success: { status: number; description: string; schema?: z.ZodType; mediaType?: string | string[] };
  /** Errors this route can answer beyond those every route of its kind can. */
  errors?: ErrorCode[];
  handler: (ctx: HandlerContext<z.infer<P>, z.infer<Q>, z.infer<B>>) => Promise<Reply>;
}

export const defineRoute = <P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  route: RouteDefinition<P, Q, B>,
): RouteDefinition => route as unknown as RouteDefinition;

const EMPTY = z.strictObject({});

function requireJson(req: Request, form: boolean): void {
  if (form && req.is('application/x-www-form-urlencoded')) return;
  if (!req.is('application/json')) {
    if (form) throw badRequest('Content-Type must be application/x-www-form-urlencoded or application/json');
    throw badRequest('Content-Type must be application/json');
  }
}

/**
 * A reply leaves only through its route's schema: fields the schema does not
 * name (an answer key, a token hash, anything a store adds later) are stripped,
 * and a reply that does not fit is a bug, answered 500 rather than sent.
 */
function outgoing(route: RouteDefinition, body: unknown): unknown {
  const schema = route.success.schema;
  if (!schema || body === undefined) return body;
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  log.error('Reply does not match its schema', {
    route: `${route.method.toUpperCase()} ${route.path}`,
    issues: result.error.issues.slice(0, 5),
  });
  throw new Error(`Reply of ${route.method.toUpperCase()} ${route.path} does not match its schema`);
}

// The platform (Cloud Functions, the emulator) reads the body into req.rawBody before Express sees it.
const uploadBody = (req: Request): UploadBody => ({
  headers: req.headers,
  multipart: Boolean(req.is('multipart/form-data')),
  rawBody: 'rawBody' in req && Buffer.isBuffer(req.rawBody) ? req.rawBody : undefined,
  stream: req,
});

/**
 * The query with the X-Attempt-Token header's token as `attempt_token`, so the
 * route's schema validates it however it came; both, differing, are refused.
 */
function withHeaderToken(req: Request): unknown {
  const header = req.header(ATTEMPT_TOKEN_HEADER);
  if (header === undefined) return req.query;
  if (req.query.attempt_token !== undefined && req.query.attempt_token !== header) {
    throw badRequest('X-Attempt-Token and ?attempt_token= differ; send one', [
      { path: 'header.x-attempt-token', message: 'Differs from query.attempt_token' },
    ]);
  }
  return { ...req.query, attempt_token: header };
}

function handle(route: RouteDefinition, { beforeHandler, runHandler, countRefusedCredential }: Guards): RequestHandler {
  return async (req, res) => {
    let checksPassed = false;
    if (route.errorPage) res.locals.errorPage = route.errorPage;
    try {
      if (route.body) requireJson(req, route.form === true);
      const params = validate(route.params ?? EMPTY, req.params, 'params');
      const query = validate(route.query ?? EMPTY, route.attemptToken ? withHeaderToken(req) : req.query, 'query');
      const body = route.body ? validate(route.body, req.body, 'body') : undefined;
      // Nothing a handler does (a write least of all) starts before the checks that ran beside authentication pass.
      await beforeHandler(res);
      checksPassed = true;
      // Authentication set the principal on every route but public ones and attempt-token requests, whose handlers do not rely on it.
      const principal = requestState(res).principal!;
      const baseUrl = `${forwarded(req, 'x-forwarded-proto') ?? req.protocol}://${forwarded(req, 'x-forwarded-host') ?? req.get('host')}`;
      const call: CallContext = {
        ...requestOrigin(req),
        countRefusedCredential: () => countRefusedCredential(req, res),
        attemptTokenOpened: () => void (requestState(res).attemptTokenOpened = true),
        seb: sebRequestOf(req, baseUrl),
      };
      const upload = route.upload ? uploadBody(req) : undefined;
      const cookies = req.get('cookie');
      const reply = await runHandler(
        res,
        route.handler({ params, query, body, principal, call, upload, baseUrl, cookies }),
      );
      if (reply.setCookie !== undefined) {
        res.setHeader('Set-Cookie', reply.setCookie);
        // Hosting drops a function's Set-Cookie unless the reply is private (a CDN must never keep it).
        res.setHeader('Cache-Control', 'private, no-store');
      }
      if (reply.stream) return streamReply(res, reply.status, reply.stream);
      if (reply.redirect !== undefined) return res.redirect(reply.status, reply.redirect);
      const payload = outgoing(route, reply.body);
      if (payload === undefined) res.status(reply.status).end();
      else res.status(reply.status).json(payload);
    } catch (err) {
      // An attempt token that opened nothing is a refused credential; counted after this request's own checks
      // (as a refused ID token is), and not when those refused it: that refusal is the caller's, not its token's.
      if (
        route.attemptToken &&
        tokenOpenedNothing(req, res, err) &&
        (checksPassed || (await passes(beforeHandler(res))))
      ) {
        await countRefusedCredential(req, res);
      }
      throw err;
    }
  };
}

/** The first value of a header a proxy (Hosting) sets, if any. */
const forwarded = (req: Request, name: string): string | undefined => req.get(name)?.split(',')[0].trim() || undefined;

const passes = (check: Promise<void>): Promise<boolean> =>
  check.then(
    () => true,
    () => false,
  );

async function streamReply(res: Response, status: number, stream: NonNullable<Reply['stream']>): Promise<void> {
  res.status(status);
  // attachment() sets a type from the file's extension: the stream's own type is set after it.
  if (stream.fileName) res.attachment(stream.fileName);
  res.type(stream.contentType);
  // Sent chunked, with no length: the one kind of reply that can carry trailers (app.ts, the cost meter).
  res.locals.streamed = true;
  try {
    await stream.write(res);
    res.end();
  } catch (err) {
    // The status line has gone: cut the response so the client sees an incomplete file, never a complete-looking one.
    log.error('A streamed reply failed part way', { error: errorText(err) });
    res.destroy(err instanceof Error ? err : new Error(String(err)));
  }
}

/** What every route is wrapped in, built by the app from auth and the rate limiter. */
export interface Guards {
  /** Starts counting the request (per-IP limit) without waiting; a sensitive route counts it with the user's instead. */
  countRequest: RequestHandler;
  /** After authentication: starts the count if it waited to know whom to count (a registered network counts identities). */
  countIdentified: RequestHandler;
  /**
   * `prefetchClient`: read the token's organization while the token is verified; `countWhenSigned`: start the
   * request's count (by uid on a registered network) once the signature is verified, beside a write's revocation
   * check. Both off on sensitive routes, which count after verification, in one commit with the user's (see app.ts).
   */
  authenticate(access: Access, options?: { prefetchClient?: boolean; countWhenSigned?: boolean }): RequestHandler;
  sensitive: RequestHandler;
  /** Runs a handler's work beside checks authentication started (the admin account re-check). */
  runHandler<T>(res: Response, work: Promise<T>): Promise<T>;
  /** Waits for the checks started before the route (per-IP limit, organization status); throws their refusal. */
  beforeHandler(res: Response): Promise<void>;
  /** Counts a credential a handler refused, as the rate limiter counts failed authentications. */
  countRefusedCredential(req: Request, res: Response): Promise<void>;
}

/** Lets a request that carries an attempt token and no Authorization header past authentication: its handler checks the token. */
const orAttemptToken =
  (authentication: RequestHandler): RequestHandler =>
  (req, res, next) =>
    usesAttemptToken(req) ? next() : authentication(req, res, next);

/** Mounts every route on one router. */
export function mountRoutes(routes: RouteDefinition[], guards: Guards): express.Router {
  const router = express.Router();
  for (const route of routes) {
    const expressPath = route.path.replace(/\{(\w+)\}/g, ':$1');
    const authentication = guards.authenticate(route.access, {
      prefetchClient: !route.sensitive,
      countWhenSigned: !route.sensitive,
    });
    const chain: RequestHandler[] = [route.attemptToken ? orAttemptToken(authentication) : authentication];
    if (route.sensitive) {
      chain.push(guards.sensitive);
    } else {
      chain.unshift(guards.countRequest);
      chain.push(guards.countIdentified);
    }
    chain.push(handle(route, guards));
    router[route.method](expressPath, ...chain);
  }
  return router;
}
