import type { NextFunction, Request, Response } from 'express';

// Cloud Functions (functions-framework) and the Functions emulator parse the
// request body with body-parser before our app runs, and answer a malformed
// JSON body themselves with an HTML page. Both build that parser after loading
// this module, so wrapping the body-parser they already loaded lets the parse
// error reach our error handler, which answers with the documented JSON body.

type Middleware = (req: Request, res: Response, next: NextFunction) => void;
type JsonFactory = ((options?: unknown) => Middleware) & { deferringErrors?: boolean };

export interface DeferredBodyError {
  type?: string;
  status?: number;
}

/** A request whose body the platform could not parse; our error handler reports it. */
export interface WithDeferredBodyError {
  deferredBodyError?: DeferredBodyError;
}

function deferErrors(json: JsonFactory): JsonFactory {
  const wrapped: JsonFactory = (options) => {
    const parse = json(options);
    return (req, res, next) =>
      parse(req, res, (err?: unknown) => {
        if (err && typeof err === 'object' && 'type' in err) {
          (req as WithDeferredBodyError).deferredBodyError = err as DeferredBodyError;
          return next();
        }
        next(err);
      });
  };
  wrapped.deferringErrors = true;
  return wrapped;
}

export function deferFrameworkBodyErrors(): void {
  for (const [file, loaded] of Object.entries(require.cache)) {
    if (!loaded || !/[\\/]body-parser[\\/]index\.js$/.test(file)) continue;
    const exports = loaded.exports as { json?: JsonFactory };
    const json = exports.json;
    if (typeof json !== 'function' || json.deferringErrors) continue;
    // body-parser 1.x exposes its parsers as configurable getters.
    Object.defineProperty(exports, 'json', { configurable: true, enumerable: true, value: deferErrors(json) });
  }
}
