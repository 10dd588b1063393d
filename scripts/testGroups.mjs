// Runs the mocha tests under the emulators scripts/test.mjs started, split so that what cannot
// overlap does not, and the rest runs TEST_JOBS files at a time (mocha --parallel: each file in a
// worker process of its own, so in-process tests that patch the SDK stay apart, and each worker
// has its own default X-Forwarded-For address, test/support/http.ts):
// 1. alone: files that reach past their own data or time (see ALONE), step by step;
// 2. then together: the Demo Academy files in order (they share that organization) beside the
//    rest in parallel.
// Each file's wall time goes to the timing report (test/support/timing.ts, scripts/testTiming.mjs).
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { run } from './run.mjs';
import { reportTiming } from './testTiming.mjs';

const root = join(import.meta.dirname, '..');

/**
 * Files run while no other group runs, and why: step by step, each step one lane of files one after
 * another, or two lanes side by side (`beside`) where neither can disturb the other.
 */
const ALONE = [
  // SIGSTOPs the Firestore and Auth emulators: every other file's requests would stall with them.
  ['test/platform/backendDeadline.stall.test.ts'],
  beside(
    // "Refused within 60 s" is asserted to 63 s of wall time: load from other files must not eat the
    // margin, and no other file may send requests to the emulated function meanwhile (seen twice:
    // 200 where 401 was due, once these two overlapped, once beside files that set up through it).
    ['test/attempts/gates.test.ts', 'test/console/consoleActions.test.ts'],
    // In-process only (their requests go to an app in their own process, which an unreachable
    // API_BASE_URL enforces), light, and making nothing the lane beside reads: the faults are patched
    // into this process's SDK; the deliverDue schedule's handler delivers every organization's due
    // deliveries, and the lane beside makes none.
    inProcessOnly(['test/sittings/faults.inProcess.test.ts', 'test/functions/index.test.ts']),
  ),
  // runDue with the clock moved on delivers and retries every organization's due deliveries, other
  // files' webhooks included.
  ['test/delivery/engine.inProcess.test.ts'],
  // 1,000 submits in a minute, delivered by the trigger and runDue (every organization's deliveries);
  // asserts how long its submits take.
  ['test/delivery/burst.inProcess.test.ts'],
  [
    // resumeStaleSweeps with the clock moved on finishes every organization's stale sweeps; its
    // 1,000 seeded attempts would load the 60 s lane above.
    'test/sittings/sweeps.inProcess.test.ts',
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
    // Also per-instance caches: a second instance reads what the first had cached.
    'test/analytics/classFilters.test.ts',
    'test/analytics/testAnalyticsCost.test.ts',
    'test/attempts/cost.test.ts',
    // Forty requests at once each inside its backend deadline; a counter of the current minute.
    'test/attempts/concurrency.inProcess.test.ts',
    'test/attempts/attachments/concurrency.inProcess.test.ts',
    'test/users/schoolSignIn.concurrency.inProcess.test.ts',
    'test/rateLimit/rateLimit.test.ts',
    // Walks the whole project's list of organizations page by page and asserts that the pages add up:
    // an organization another file makes meanwhile moves the totals between two pages (seen: 248, then 249).
    'test/clients/routes.test.ts',
  ],
];

/**
 * A step of lanes run side by side. @param {...(string[] | { files: string[], env: Record<string, string> })} lanes
 */
function beside(...lanes) {
  return { lanes: lanes.map((lane) => (Array.isArray(lane) ? { files: lane, env: {} } : lane)) };
}

/** A step's lanes: a plain list of files is one lane. */
const lanesOf = (step) => (Array.isArray(step) ? [{ files: step, env: {} }] : step.lanes);

/** A lane whose files may not send a request to the emulated function: the discard port refuses any. */
function inProcessOnly(files) {
  return { files, env: { API_BASE_URL: 'http://127.0.0.1:9' } };
}

/** Files that seed and remove the fixed Demo Academy organization: one at a time, in this order. */
const DEMO_ACADEMY = ['test/scripts/seed.test.ts', 'test/examples/walkthroughs.test.ts'];

// Three at a time on two cores: most files wait on the emulators and on each other's round trips, so two
// left the machine idle a third of the time; three keep it busy (docs/operations.md, "Test suite's time").
const jobs = Number(process.env.TEST_JOBS ?? 3);
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
 * @param {{ parallel?: boolean, buffered?: boolean, env?: Record<string, string> }} options
 */
function mocha(files, { parallel = false, buffered = false, env = {} } = {}) {
  const args = ['mocha', '--extension', 'ts', '--require', 'test/support/timing.ts'];
  if (parallel) args.push('--parallel', '--jobs', String(jobs));
  if (files.length === 0) return Promise.resolve({ code: 0, ms: 0, output: '' });
  return run('npx', [...args, ...files], { held: buffered, env });
}

/**
 * The alone group: its steps one after another, a step's lanes side by side, each lane's files in one
 * mocha run. Lanes beside the first hold their report and print it when the step ends.
 * @param {string[]} files
 */
async function runAlone(files) {
  const startedAt = Date.now();
  let code = 0;
  for (const step of ALONE) {
    const lanes = lanesOf(step)
      .map((lane) => ({ ...lane, files: lane.files.filter((f) => files.includes(f)) }))
      .filter((lane) => lane.files.length > 0);
    const runs = await Promise.all(lanes.map((lane, i) => mocha(lane.files, { buffered: i > 0, env: lane.env })));
    for (const { output } of runs) if (output) process.stdout.write(`\nBeside the files above:\n${output}`);
    code ||= runs.find((r) => r.code !== 0)?.code ?? 0;
  }
  return { code, ms: Date.now() - startedAt };
}

// The longest files first (browsers, the fuzz test), so the parallel group does not end on one
// long file running while the other job has nothing left.
const LONG_FIRST = ['test/fuzz/', 'test/web/'];
const longFirst = (f) => (LONG_FIRST.some((prefix) => f.startsWith(prefix)) ? 0 : 1);

const specs = process.argv.length > 2 ? process.argv.slice(2) : ['test'];
const files = [...new Set(specs.flatMap(testFiles))];
const aloneFiles = ALONE.flatMap((step) => lanesOf(step).flatMap((lane) => lane.files));
const alone = files.filter((f) => aloneFiles.includes(f));
const demo = DEMO_ACADEMY.filter((f) => files.includes(f));
const rest = files.filter((f) => !alone.includes(f) && !demo.includes(f)).sort((a, b) => longFirst(a) - longFirst(b));
if (timingFile) writeFileSync(timingFile, '');

const first = await runAlone(alone);
const [demoRun, restRun] = await Promise.all([
  mocha(demo, { buffered: rest.length > 0 }),
  mocha(rest, { parallel: rest.length > 1 && jobs > 1 }),
]);
if (demoRun.output) process.stdout.write(`\nDemo Academy files:\n${demoRun.output}`);
if (timingFile)
  reportTiming(timingFile, [
    { name: 'alone', files: alone.length, jobs: 'up to 2', ms: first.ms },
    { name: 'demo', files: demo.length, jobs: 1, ms: demoRun.ms },
    { name: 'parallel', files: rest.length, jobs, ms: restRun.ms },
  ]);
process.exit(first.code || demoRun.code || restRun.code);
