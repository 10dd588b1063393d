// Scripts that write documents the service also writes use the service's own
// compiled code for anything derived (such as the client-name key), so they can
// never disagree with it.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from './emulators.mjs';

const require = createRequire(import.meta.url);

export function compiledFunctions(modulePath) {
  try {
    return require(join(root, 'functions', 'lib', modulePath));
  } catch (err) {
    if (err.code === 'MODULE_NOT_FOUND')
      throw new Error('functions/lib is missing: run `npm run build` first', { cause: err });
    throw err;
  }
}

export const clientNameKey = (name) => compiledFunctions('clients/schemas.js').clientNameKey(name);
