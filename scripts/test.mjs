// `npm test`: builds, starts the emulators (project demo-exam-test, so test
// data never mixes with the `npm start` demo) and runs every mocha test.
import { spawnSync } from 'node:child_process';
import { buildFunctions, buildWeb, emulatorLogFile, emulatorsExec, root } from './emulators.mjs';

buildFunctions();
buildWeb();
// TEST_CHECKS=skip (for a part run while working) leaves the checks below to the whole run.
if (process.env.TEST_CHECKS !== 'skip') runChecks();

function runChecks() {
  // tsx runs the tests without looking at their types; tsc does, before anything starts. The benches
  // are JavaScript under `// @ts-check`: the same check keeps them honest.
  for (const project of ['test/tsconfig.json', 'bench/tsconfig.json']) {
    const typecheck = spawnSync('npx', ['tsc', '-p', project], { cwd: root, stdio: 'inherit' });
    if (typecheck.status !== 0) process.exit(typecheck.status ?? 1);
  }
  // Unused exports and files (knip.jsonc) fail the run too: dead code is found while it is still small.
  const unused = spawnSync('npx', ['knip'], { cwd: root, stdio: 'inherit' });
  if (unused.status !== 0) process.exit(unused.status ?? 1);
  // Lint (eslint.config.mjs) and format (.prettierrc.json) are part of the test: `npm run format` fixes the latter.
  for (const [tool, ...args] of [
    ['eslint', '.'],
    ['prettier', '--check', '--log-level', 'warn', '.'],
  ]) {
    const check = spawnSync('npx', [tool, ...args], { cwd: root, stdio: 'inherit' });
    if (check.status !== 0) {
      console.error(
        `${tool} found problems${tool === 'prettier' ? ': `npm run format` rewrites the files listed above' : ''}`,
      );
      process.exit(check.status ?? 1);
    }
  }
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
