import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AnsweredAtDeadline, currentRequestId, errorText, isBackendFault, log } from '../platform';
import { ApiError, badRequest, notFound, serviceUnavailable } from '../shared';
import { bodyParseError } from './bodyGuard';
import { answeredAtDeadline } from './requestContext';

type ErrorPage = (error: { status: number; message: string; reason?: string }) => string;

export const unknownRoute: RequestHandler = (req, _res, next) => {
  next(notFound(`No route for ${req.method} ${req.path}`));
};

/** The one error handler. Never leaks internals: unexpected errors become SERVER_ERROR with a request id. */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  // Answered 503 at its backend deadline: the handler ended after that (its write refused, its reply
  // not sendable). Nothing to send, and no server error: only what was not the deadline's doing is noted.
  if (answeredAtDeadline(res)) {
    if (!(err instanceof AnsweredAtDeadline) && !isHeadersSent(err))
      log.warn('A request answered at its deadline ended with an error', {
        requestId: currentRequestId(),
        error: errorText(err),
      });
    return;
  }
  const apiError = err instanceof ApiError ? err : (fromBackendFault(err) ?? fromFrameworkError(err));
  if (!apiError) {
    const requestId = currentRequestId();
    log.error('Unhandled error', { requestId, error: err instanceof Error ? err.stack : String(err) });
    const body = new ApiError('SERVER_ERROR', `Internal server error (request id ${requestId})`).toBody();
    if (!res.headersSent) res.status(500).json(body);
    return;
  }
  if (res.headersSent) return;
  for (const [name, value] of Object.entries(apiError.headers ?? {})) res.setHeader(name, value);
  // A route a browser navigates to (the LTI launch) answers a page to a browser, JSON to anyone else.
  const page = res.locals?.errorPage as ErrorPage | undefined;
  if (page && req.accepts(['application/json', 'text/html']) === 'text/html') {
    const reason = apiError.details?.find((d) => typeof d.reason === 'string')?.reason as string | undefined;
    res
      .status(apiError.status)
      .type('html')
      .send(page({ status: apiError.status, message: apiError.message, reason }));
    return;
  }
  res.status(apiError.status).json(apiError.toBody());
};

const isHeadersSent = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === 'ERR_HTTP_HEADERS_SENT';

// Firestore or Auth failing is not the caller's fault and not a server bug: 503, retry later.
function fromBackendFault(err: unknown): ApiError | undefined {
  if (!isBackendFault(err)) return undefined;
  log.error('Backend unavailable', { requestId: currentRequestId(), error: errorText(err) });
  return serviceUnavailable();
}

// body-parser and friends signal client mistakes with `type` and a 4xx `status`
// (their errors normally arrive through bodyGuard; this catches any parser mounted elsewhere).
function fromFrameworkError(err: unknown): ApiError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  // Express cannot decode a path parameter such as %E0%A4%A: the address itself is malformed.
  if (err instanceof URIError) return badRequest('Malformed percent-encoding in the request path');
  const { type, status } = err as { type?: string; status?: number };
  if (typeof type === 'string' && typeof status === 'number' && status >= 400 && status < 500)
    return bodyParseError({ type, status });
  return undefined;
}
