import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { currentRequestId, type DeadlineAnswer, log, runInRequestScope, watchRequest } from '../platform';
import { type RequestOrigin, serviceUnavailable } from '../shared';
import { clientIp } from './clientIp';

// Cloud Run forwards the trace id; reusing it ties our logs to the platform's request log.
function requestIdFrom(traceHeader: string | undefined): string {
  const traceId = traceHeader?.split('/')[0];
  return traceId && /^[0-9a-f]{16,32}$/i.test(traceId) ? traceId : randomUUID();
}

/** Where this request came from: its address, user agent and id. */
export const requestOrigin = (req: Request): RequestOrigin => ({
  ip: clientIp(req),
  userAgent: req.header('user-agent') ?? null,
  requestId: currentRequestId(),
});

export const requestContext: RequestHandler = (req, res, next) => {
  const requestId = requestIdFrom(req.header('x-cloud-trace-context'));
  res.setHeader('X-Request-Id', requestId);
  runInRequestScope(
    requestId,
    next,
    watchRequest((stalledMs) => answerAtDeadline(res, requestId, stalledMs)),
  );
};

/** Whether this request was answered at its backend deadline: whatever its handler does next is not sent. */
export const answeredAtDeadline = (res: Response): boolean => res.locals?.answeredAtDeadline === true;

/**
 * A Firestore or Auth call of this request has not answered for STALL_MS
 * (platform/backendDeadline.ts): the documented 503 now, rather than an empty
 * 504 from Hosting when the platform gives up. A reply already under way (a
 * streamed file) is cut, so the client sees an incomplete file, never a
 * complete-looking one.
 */
function answerAtDeadline(res: Response, requestId: string, stalledMs: number): DeadlineAnswer {
  if (res.writableEnded) return 'over';
  res.locals.answeredAtDeadline = true;
  log.error('A backend call stalled: answered 503 at the deadline', { requestId, stalledMs: Math.round(stalledMs) });
  if (res.headersSent) {
    res.destroy();
    return 'cut';
  }
  const error = serviceUnavailable('A backend service did not answer in time; retry shortly');
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  res.status(error.status).json(error.toBody());
  return 'answered';
}
