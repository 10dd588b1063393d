import type { RequestHandler } from 'express';
import type { RuntimeConfig } from '../config';
import type { WithDeferredBodyError } from '../platform/frameworkBodyParser';
import { ApiError } from '../shared/errors';

/** Rejects bodies the platform parsed but we will not take: too large, or unparseable. */
export function bodyGuard(config: RuntimeConfig): RequestHandler {
  return (req, _res, next) => {
    const length = (req as { rawBody?: Buffer }).rawBody?.length ?? Number(req.header('content-length') ?? 0);
    if (req.is('application/json') && length > config.maxJsonBodyBytes) {
      throw new ApiError('PAYLOAD_TOO_LARGE', `JSON body is larger than ${config.maxJsonBodyBytes} bytes`);
    }
    const { deferredBodyError } = req as WithDeferredBodyError;
    if (deferredBodyError) throw deferredBodyError;
    next();
  };
}
