// `npm run bench:analytics-price`: the price of live analytics (issue 8
// "Performance"). The exam hot path (bench/hotpath.mjs: a class starts one
// test at once, answers every question, submits, on the Functions Framework)
// run with the same parameters on this working tree, whose submit transaction
// also adds the attempt to its version's stats shards, and on the commit
// before the analytics work (BASELINE_COMMIT), which has no aggregates. The
// runs go back to back, PRICE_ROUNDS times each, in ABBA order (the side that
// goes first alternates), so both sides see the same machine; the ratio of the
// medians is the price.
//
// The baseline lives in its own git worktree (BASELINE_DIR, default
// <tmpdir>/exam-backend-baseline-<commit>), made with `git worktree add
// --detach` and `npm ci` on first use (a few minutes); the main checkout is not
// touched. Knobs: PRICE_ROUNDS (4), HOTPATH_STUDENTS (50) and the other
// HOTPATH_* of bench/hotpath.mjs, passed to both sides; FIREBASE_JSON (its file
// is copied into the baseline) to run beside another emulator set.
// Prints a table; writes .bench/analytics-price.json. Exits 1 if a run failed.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ms, table } from './lib/report.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BASELINE_COMMIT = 'd309d58'; // "Import: a failed publishing batch is reported only after…", the last commit before analytics
const baselineDir = process.env.BASELINE_DIR ?? join(tmpdir(), `exam-backend-baseline-${BASELINE_COMMIT}`);
const rounds = Number(process.env.PRICE_ROUNDS ?? 4);
const log = (line) => console.log(`[price] ${line}`);

function run(command, args, cwd, env = process.env) {
  const result = spawnSync(command, args, { cwd, env, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited ${result.status ?? result.signal}`);
}

/** The baseline worktree, made (and installed) on first use. */
function prepareBaseline() {
  if (!existsSync(join(baselineDir, 'package.json'))) {
    log(`creating a worktree of ${BASELINE_COMMIT} in ${baselineDir}`);
    run('git', ['worktree', 'add', '--detach', baselineDir, BASELINE_COMMIT], root);
  }
  if (!existsSync(join(baselineDir, 'functions', 'node_modules'))) {
    log(`npm ci in ${baselineDir} (root and functions; a few minutes)`);
    run('npm', ['ci', '--no-audit', '--no-fund'], baselineDir);
  }
  if (process.env.FIREBASE_JSON) copyFileSync(join(root, process.env.FIREBASE_JSON), join(baselineDir, process.env.FIREBASE_JSON));
}

/** One `npm run bench:hotpath` in `dir`; its .bench/hotpath.json, or null when the run failed before writing it. */
function hotpath(label, dir, round) {
  log(`${label}, round ${round}: npm run bench:hotpath in ${dir}`);
  const file = join(dir, '.bench', 'hotpath.json');
  const before = existsSync(file) ? readFileSync(file, 'utf8') : null;
  const result = spawnSync('npm', ['run', 'bench:hotpath'], { cwd: dir, env: process.env, stdio: 'inherit' });
  const text = existsSync(file) ? readFileSync(file, 'utf8') : null;
  const report = text && text !== before ? JSON.parse(text) : null;
  return { label, round, exit_code: result.status, report };
}

const step = (report, name) => report?.steps.find((s) => s.step === name);
const median = (values) => {
  const sorted = values.filter((v) => typeof v === 'number').sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return Number((sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2).toFixed(3));
};

function row(r) {
  const submit = step(r.report, 'submit');
  const start = step(r.report, 'start');
  const answer = step(r.report, 'answer');
  return {
    side: r.label,
    round: r.round,
    exit_code: r.exit_code,
    requests_per_s: r.report?.requests_per_s ?? null,
    start_p50: start?.latency_ms.p50 ?? null,
    start_p95: start?.latency_ms.p95 ?? null,
    answer_p50: answer?.latency_ms.p50 ?? null,
    answer_p95: answer?.latency_ms.p95 ?? null,
    submit_p50: submit?.latency_ms.p50 ?? null,
    submit_p95: submit?.latency_ms.p95 ?? null,
    submit_writes: submit?.cost.writes?.median ?? null,
    start_writes: start?.cost.writes?.median ?? null,
    errors: r.report?.errors ?? null,
    lost_answers: r.report?.lost_answers ?? null,
    cpu_ms_per_request: r.report?.cpu.app_cpu_ms_per_request ?? null,
    cpu_busy_before: r.report?.cpu_busy_before_hot_path ?? null,
  };
}

const startedAt = Date.now();
const git = (...args) => spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout.trim();
const head = `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? ' + uncommitted changes' : ''}`;
prepareBaseline();
const runs = [];
// ABBA: the side that goes first alternates, so a drift in the machine's load does not favour either side.
for (let round = 1; round <= rounds; round++) {
  const sides = [['baseline', baselineDir], ['analytics', root]];
  if (round % 2 === 0) sides.reverse();
  for (const [label, dir] of sides) runs.push(hotpath(label, dir, round));
}
const rows = runs.map(row);
const side = (label) => rows.filter((r) => r.side === label);
const summary = {};
for (const label of ['baseline', 'analytics']) {
  const mine = side(label);
  summary[label] = Object.fromEntries(
    ['requests_per_s', 'start_p50', 'start_p95', 'answer_p50', 'answer_p95', 'submit_p50', 'submit_p95', 'cpu_ms_per_request'].map((key) => [key, median(mine.map((r) => r[key]))]),
  );
  summary[label].errors = mine.reduce((n, r) => n + (r.errors ?? 0), 0);
  summary[label].lost_answers = mine.reduce((n, r) => n + (r.lost_answers ?? 0), 0);
}
const ratio = (key) => (summary.baseline[key] ? Number((summary.analytics[key] / summary.baseline[key]).toFixed(2)) : null);
const ratios = Object.fromEntries(['requests_per_s', 'submit_p50', 'submit_p95', 'start_p50', 'cpu_ms_per_request'].map((key) => [key, ratio(key)]));

const params = { students: Number(process.env.HOTPATH_STUDENTS ?? 50), rounds_per_student: Number(process.env.HOTPATH_ROUNDS ?? 1), auth: process.env.HOTPATH_AUTH ?? 'bearer', questions: runs.find((r) => r.report)?.report.questions ?? null };
const out = ['\n# The price of live analytics: the exam hot path with and without aggregates'];
out.push(`\n${params.students} students x ${params.rounds_per_student} attempt(s), ${params.questions} questions, auth ${params.auth}; ${rounds} run(s) per side, back to back in ABBA order on ${cpus().length} cores shared by the emulators, the server and the load.`);
out.push(`baseline = ${BASELINE_COMMIT} (no aggregates); analytics = this working tree, ${head} (its submit transaction also adds the attempt to a stats shard: compare the writes columns).\n`);
out.push(
  table(
    ['side', 'round', 'req/s held', 'start p50 / p95 ms', 'answer p50 / p95 ms', 'submit p50 / p95 ms', 'writes: start / submit', 'errors', 'lost answers', 'CPU ms/request', 'CPU busy before'],
    rows.map((r) => [r.side, r.round, r.requests_per_s ?? 'failed', `${ms(r.start_p50)} / ${ms(r.start_p95)}`, `${ms(r.answer_p50)} / ${ms(r.answer_p95)}`, `${ms(r.submit_p50)} / ${ms(r.submit_p95)}`, `${r.start_writes ?? '-'} / ${r.submit_writes ?? '-'}`, r.errors ?? '-', r.lost_answers ?? '-', r.cpu_ms_per_request ?? '-', r.cpu_busy_before === null ? '-' : `${Math.round(r.cpu_busy_before * 100)}%`]),
    { rightAlign: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] },
  ),
);
out.push('\nMedians per side, and analytics / baseline:\n');
out.push(
  table(
    ['', 'req/s held', 'submit p50 ms', 'submit p95 ms', 'start p50 ms', 'CPU ms/request', 'errors'],
    [
      ...['baseline', 'analytics'].map((label) => [
        label === 'baseline' ? 'baseline (no aggregates)' : 'analytics (aggregates on)',
        ms(summary[label].requests_per_s),
        ms(summary[label].submit_p50),
        ms(summary[label].submit_p95),
        ms(summary[label].start_p50),
        summary[label].cpu_ms_per_request?.toFixed(2) ?? '-',
        summary[label].errors,
      ]),
      ['ratio', ratios.requests_per_s, ratios.submit_p50, ratios.submit_p95, ratios.start_p50, ratios.cpu_ms_per_request, ''],
    ],
    { rightAlign: [1, 2, 3, 4, 5, 6] },
  ),
);
console.log(out.join('\n'));

const failures = runs.filter((r) => r.exit_code !== 0 || !r.report).map((r) => `${r.label} round ${r.round}: exit ${r.exit_code}${r.report ? '' : ', no report'}`);
const file = join(root, '.bench', 'analytics-price.json');
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify({ generated_at: new Date().toISOString(), baseline_commit: BASELINE_COMMIT, baseline_dir: baselineDir, analytics_tree: head, cpus: cpus().length, params, rounds, runs: rows, summary, ratios, failures, runtime_s: Math.round((Date.now() - startedAt) / 1000), reports: runs.map((r) => ({ side: r.label, round: r.round, report: r.report })) }, null, 2)}\n`);
console.log(`\nResults written to ${file}.`);
if (failures.length) {
  console.log(`\nPRICE RUN FAILED (${failures.length}):`);
  for (const f of failures) console.log(`- ${f}`);
  process.exit(1);
}
