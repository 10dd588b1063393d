import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Context, Suite } from 'mocha';

/**
 * A root-hook plugin (`--require`d by scripts/test.mjs): the wall time of each test file, its
 * hooks included, appended as one JSON line to TEST_TIMING_FILE. scripts/testTiming.mjs makes the
 * per-file and per-folder table of them. Each file's top-level suites get a first before-all hook
 * and a last after-all hook, so the time runs from the file's first set-up to its last tear-down;
 * in parallel mode each worker loads this plugin and appends its own files' lines.
 */
export interface FileTiming {
  file: string;
  ms: number;
  tests: number;
  failed: number;
  pid: number;
}

const out = process.env.TEST_TIMING_FILE;

function fileTimes(root: Suite, record: (timing: FileTiming) => void): void {
  const byFile = new Map<string, Suite[]>();
  for (const suite of root.suites) {
    if (!suite.file) continue;
    byFile.set(suite.file, [...(byFile.get(suite.file) ?? []), suite]);
  }
  for (const [file, suites] of byFile) {
    let startedAt: number | undefined;
    let left = suites.length;
    for (const suite of suites) {
      suite.beforeAll('timing: file starts', () => {
        startedAt ??= Date.now();
      });
      // Hooks run in the order they were added: the one just added goes first.
      const hooks = (suite as unknown as { _beforeAll: unknown[] })._beforeAll;
      hooks.unshift(hooks.pop());
      suite.afterAll('timing: file ends', () => {
        left -= 1;
        if (left > 0 || startedAt === undefined) return;
        const tests = suites.flatMap(allTests);
        record({
          file: relative(process.cwd(), file),
          ms: Date.now() - startedAt,
          tests: tests.filter((t) => t.state !== undefined).length,
          failed: tests.filter((t) => t.state === 'failed').length,
          pid: process.pid,
        });
      });
    }
  }
}

const allTests = (suite: Suite): Mocha.Test[] => [...suite.tests, ...suite.suites.flatMap(allTests)];

export const mochaHooks = out
  ? {
      beforeAll(this: Context) {
        const root = this.test?.parent;
        if (root?.root) fileTimes(root, (timing) => appendFileSync(out, `${JSON.stringify(timing)}\n`));
      },
    }
  : {};
