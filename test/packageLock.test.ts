import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..');
const lockOf = (file: string) =>
  JSON.parse(readFileSync(join(root, file), 'utf8')) as { packages: Record<string, Record<string, unknown>> };

describe('package-lock.json', () => {
  // npm 11 writes a `libc` field for platform packages and npm 10 (Node 22's own) drops it, so a lockfile
  // written by npm 11 is rewritten by the first `npm install` of a newcomer on Node 22. Without the field,
  // both leave it as it is. `npm run lockfile` writes it with npm 10.
  for (const file of ['package-lock.json', 'functions/package-lock.json']) {
    it(`${file} has no field that npm 10 and npm 11 write differently (libc), so npm install leaves it as tracked`, () => {
      const withLibc = Object.entries(lockOf(file).packages)
        .filter(([, entry]) => 'libc' in entry)
        .map(([path]) => path);
      assert.deepEqual(withLibc, [], 'run `npm run lockfile` to write it with npm 10');
    });
  }
});
