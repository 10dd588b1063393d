import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The features' dependency direction: analytics reads attempts, never the other
// way; what a submit does to analytics is handed to attempts by app.ts
// (SubmissionEffects), and shared figures live in shared/ (scores.ts).

const attemptsDir = join(__dirname, '..', '..', 'functions', 'src', 'attempts');

describe('attempts/ dependencies', () => {
  it('no file in functions/src/attempts imports from analytics/', () => {
    const offending = readdirSync(attemptsDir)
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) =>
        readFileSync(join(attemptsDir, name), 'utf8')
          .split('\n')
          .filter((line) => /\bfrom\s+['"]\.\.\/analytics\//.test(line) || /import\(\s*['"]\.\.\/analytics\//.test(line))
          .map((line) => `${name}: ${line.trim()}`),
      );
    assert.deepEqual(offending, []);
  });
});
