import type { RequestHandler } from 'express';
import type { RuntimeConfig } from '../config';
import type { DeferredBodyError, WithDeferredBodyError } from '../platform';
import { ApiError, badRequest } from '../shared';

/**
 * The one verdict on a body a parser could not read. Fixed messages only: the parser's own
 * message can quote the body or the decoder, and its stack names files.
 */
export function bodyParseError(err: DeferredBodyError): ApiError {
  const { type, status } = err;
  if (type === 'parameters.too.many') return new ApiError('PAYLOAD_TOO_LARGE', 'Request body has too many parameters');
  if (type === 'entity.too.large' || status === 413)
    return new ApiError('PAYLOAD_TOO_LARGE', 'Request body is too large');
  switch (type) {
    case 'entity.parse.failed':
      return badRequest('Malformed JSON in request body');
    case 'encoding.unsupported':
      return badRequest('Unsupported Content-Encoding; send the body as is, or gzip, deflate or br');
    case 'charset.unsupported':
      return badRequest('Unsupported charset in Content-Type; send utf-8');
    case 'querystring.parse.rangeError':
      return badRequest('Form body is nested too deeply');
    case undefined:
      // A gzip, deflate or br body that does not decode: body-parser passes on the decoder's error.
      return badRequest('Request body does not decode with its Content-Encoding');
    default:
      return badRequest(`Unreadable request body (${type})`);
  }
}

/** Rejects bodies the platform parsed but we will not take: too large, or unparseable. */
export function bodyGuard(config: RuntimeConfig): RequestHandler {
  return (req, _res, next) => {
    const { deferredBodyError } = req as WithDeferredBodyError;
    if (deferredBodyError) throw bodyParseError(deferredBodyError);
    const length = (req as { rawBody?: Buffer }).rawBody?.length ?? Number(req.header('content-length') ?? 0);
    if (req.is('application/json') && length > config.maxJsonBodyBytes) {
      throw new ApiError('PAYLOAD_TOO_LARGE', `JSON body is larger than ${config.maxJsonBodyBytes} bytes`);
    }
    next();
  };
}
