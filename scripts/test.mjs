// `npm test`: builds, starts the emulators (project demo-exam-test, so test
// data never mixes with the `npm start` demo) and runs every mocha test.
import { buildFunctions, buildWeb, emulatorLogFile, emulatorsExec } from './emulators.mjs';
import { run } from './run.mjs';

buildFunctions();
buildWeb();
// TEST_CHECKS=skip (for a part run while working) leaves the checks below to the whole run.
if (process.env.TEST_CHECKS !== 'skip') await runChecks();

/**
 * The checks before any test, two at a time (this machine has two cores); each one's output is
 * held and shown only when it fails, so two never interleave.
 * - tsx runs the tests without looking at their types; tsc does. The benches are JavaScript under
 *   `// @ts-check`: the same check keeps them honest.
 * - Unused exports and files (knip.jsonc): dead code is found while it is still small.
 * - Lint (eslint.config.mjs) and format (.prettierrc.json): `npm run format` fixes the latter.
 */
async function runChecks() {
  const checks = [
    ['eslint', ['.']],
    ['prettier', ['--check', '--log-level', 'warn', '.'], 'npm run format rewrites the files listed above'],
    ['tsc', ['-p', 'test/tsconfig.json']],
    ['tsc', ['-p', 'bench/tsconfig.json']],
    ['knip', []],
  ];
  const failures = [];
  const lane = async () => {
    for (let check = checks.shift(); check; check = checks.shift()) {
      const [tool, args, hint] = check;
      const result = await run('npx', [tool, ...args], { held: true });
      if (result.code === 0) continue;
      failures.push(`${tool} ${args.join(' ')} found problems${hint ? `: ${hint}` : ''}`);
      process.stderr.write(result.output);
    }
  };
  await Promise.all([lane(), lane()]);
  if (failures.length === 0) return;
  for (const failure of failures) console.error(failure);
  process.exit(1);
}

// `npm test -- test/clients` runs a part; with no arguments, everything. scripts/testGroups.mjs
// splits the files into what runs alone and what runs in parallel, and ends with the timing report.
const specs = process.argv.slice(2);
const quoted = specs.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
// The emulators' own log goes to a file (emulatorLogFile); the terminal shows the test report.
const logFile = emulatorLogFile('test');
process.env.TEST_TIMING_FILE ??= logFile.replace(/-emulators([^/]*)\.log$/, '-timing$1.jsonl');
const code = await emulatorsExec('demo-exam-test', `node scripts/testGroups.mjs ${quoted}`, {
  quiet: true,
  logFile,
});
if (code !== 0) console.error(`Emulator log: ${logFile}`);
process.exit(code);
