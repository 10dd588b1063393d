import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { currentRequestId, runInRequestScope } from '../platform/requestScope';
import type { RequestOrigin } from '../shared/callContext';
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
  runInRequestScope(requestId, next);
};
