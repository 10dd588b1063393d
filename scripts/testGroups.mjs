// Runs the mocha tests under the emulators scripts/test.mjs started, split so that what cannot
// overlap does not, and the rest runs TEST_JOBS files at a time (mocha --parallel: each file in a
// worker process of its own, so in-process tests that patch the SDK stay apart, and each worker
// has its own default X-Forwarded-For address, test/support/http.ts):
// 1. alone: files that reach past their own data (see ALONE), one after another;
// 2. then together: the Demo Academy files in order (they share that organization) beside the
//    rest in parallel.
// Each file's wall time goes to the timing report (test/support/timing.ts, scripts/testTiming.mjs).
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { run } from './run.mjs';
import { reportTiming } from './testTiming.mjs';

const root = join(import.meta.dirname, '..');

/** Files run with nothing else running, and why. */
const ALONE = [
  // SIGSTOPs the Firestore and Auth emulators: every other file's requests would stall with them.
  'test/platform/backendDeadline.stall.test.ts',
  // runDue with the clock moved on delivers and retries every organization's due deliveries,
  // other files' webhooks included; the burst also asserts how long its submits take.
  'test/delivery/engine.inProcess.test.ts',
  'test/delivery/burst.inProcess.test.ts',
  // resumeStaleSweeps with the clock moved on finishes every organization's stale sweeps.
  'test/sittings/sweeps.inProcess.test.ts',
  'test/sittings/faults.inProcess.test.ts',
  // Runs the deliverDue schedule's handler: every organization's due deliveries.
  'test/functions/index.test.ts',
  // "Refused within 60 s" is asserted to 63 s of wall time: load from other files must not eat the
  // margin, and only one Functions emulator instance may serve them (concurrent requests start a
  // second, which describes the account on its own clock: seen beside each other, 200 for 401).
  'test/attempts/gates.test.ts',
  'test/console/consoleActions.test.ts',
  // Time budgets that the other files' load would eat: an answer within 10 s, 7.5 s, 5 s or 30 s,
  // CPU-time ratios, and 50 requests at once each within the 8 s backend deadline.
  'test/platform/backendDeadline.inProcess.test.ts',
  'test/interchange/linearTime.test.ts',
  'test/interchange/zip.test.ts',
  'test/lti/launch.inProcess.test.ts',
  'test/attempts/submitContention.inProcess.test.ts',
  'test/analytics/attacks.test.ts',
  // Count round trips, which a slow emulator splits differently (seen: 8 instead of 7 under load; a
  // token read's 1 sequential round trip seen as 2, its two reads side by side timed one after the other).
  'test/analytics/classFilters.test.ts',
  'test/attempts/cost.test.ts',
  // Forty requests at once each inside its backend deadline; a counter of the current minute.
  'test/attempts/concurrency.inProcess.test.ts',
  'test/rateLimit/rateLimit.test.ts',
];

/** Files that seed and remove the fixed Demo Academy organization: one at a time, in this order. */
const DEMO_ACADEMY = ['test/scripts/seed.test.ts', 'test/examples/walkthroughs.test.ts'];

const jobs = Number(process.env.TEST_JOBS ?? 2);
const timingFile = process.env.TEST_TIMING_FILE;

/** The test files a spec names: a file, or every *.test.ts under a folder. */
function testFiles(spec) {
  const path = join(root, spec);
  if (!statSync(path).isDirectory()) return [relative(root, path)];
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => relative(root, join(path, f)))
    .sort();
}

/**
 * One mocha run; resolves with its exit code and wall time. With `buffered`, its report is held
 * and printed whole at the end, so two runs side by side do not interleave their lines.
 * @param {string[]} files
 * @param {{ parallel?: boolean, buffered?: boolean }} options
 */
function mocha(files, { parallel = false, buffered = false } = {}) {
  const args = ['mocha', '--extension', 'ts', '--require', 'test/support/timing.ts'];
  if (parallel) args.push('--parallel', '--jobs', String(jobs));
  if (files.length === 0) return Promise.resolve({ code: 0, ms: 0, output: '' });
  return run('npx', [...args, ...files], { held: buffered });
}

const specs = process.argv.length > 2 ? process.argv.slice(2) : ['test'];
const files = [...new Set(specs.flatMap(testFiles))];
const alone = files.filter((f) => ALONE.includes(f));
const demo = DEMO_ACADEMY.filter((f) => files.includes(f));
const rest = files.filter((f) => !alone.includes(f) && !demo.includes(f));
if (timingFile) writeFileSync(timingFile, '');

const first = await mocha(alone);
const [demoRun, restRun] = await Promise.all([
  mocha(demo, { buffered: rest.length > 0 }),
  mocha(rest, { parallel: rest.length > 1 && jobs > 1 }),
]);
if (demoRun.output) process.stdout.write(`\nDemo Academy files:\n${demoRun.output}`);
if (timingFile)
  reportTiming(timingFile, [
    { name: 'alone', files: alone.length, jobs: 1, ms: first.ms },
    { name: 'demo', files: demo.length, jobs: 1, ms: demoRun.ms },
    { name: 'parallel', files: rest.length, jobs, ms: restRun.ms },
  ]);
process.exit(first.code || demoRun.code || restRun.code);
