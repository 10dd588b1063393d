import type { NextFunction, Request, Response } from 'express';

// Cloud Functions (functions-framework) and the Functions emulator parse the
// request body with body-parser (json, text, urlencoded, then raw for every
// other type) before our app runs, and answer any parse error themselves with
// an HTML page carrying the stack. Both build those parsers after loading this
// module, so wrapping the body-parser they already loaded lets every parse
// error reach our error handler, which answers with the documented JSON body.

type Middleware = (req: Request, res: Response, next: NextFunction) => void;
type ParserFactory = ((options?: unknown) => Middleware) & { deferringErrors?: boolean };

/** What body-parser (and the zlib or iconv error it wraps) says about a body it could not read. */
export interface DeferredBodyError {
  type?: string;
  status?: number;
}

/** A request whose body the platform could not parse; our error handler reports it. */
export interface WithDeferredBodyError {
  deferredBodyError?: DeferredBodyError;
}

/**
 * A body parser whose errors are kept on the request instead of answered: the first one wins,
 * since the parsers after it find the body already consumed.
 */
export function deferBodyErrors(parse: Middleware): Middleware {
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (err && typeof err === 'object') {
        (req as WithDeferredBodyError).deferredBodyError ??= err as DeferredBodyError;
        return next();
      }
      next(err);
    });
}

function deferErrors(factory: ParserFactory): ParserFactory {
  const wrapped: ParserFactory = (options) => deferBodyErrors(factory(options));
  wrapped.deferringErrors = true;
  return wrapped;
}

const PARSERS = ['json', 'text', 'urlencoded', 'raw'] as const;

export function deferFrameworkBodyErrors(): void {
  for (const [file, loaded] of Object.entries(require.cache)) {
    if (!loaded || !/[\\/]body-parser[\\/]index\.js$/.test(file)) continue;
    const exports = loaded.exports as Partial<Record<(typeof PARSERS)[number], ParserFactory>>;
    for (const name of PARSERS) {
      const factory = exports[name];
      if (typeof factory !== 'function' || factory.deferringErrors) continue;
      // body-parser exposes its parsers as configurable getters (1.x) or plain properties (2.x).
      Object.defineProperty(exports, name, {
        configurable: true,
        enumerable: true,
        writable: true,
        value: deferErrors(factory),
      });
    }
  }
}
