// @ts-check
// `npm run bench:coldstart`: what a cold instance and a save cost, beside a
// floor. Three figures, each for our `api` function and for the floor
// (bench/floorFunction: a function that only verifies the ID token with
// firebase-admin and updates one Firestore document), both served by the
// Functions Framework the way Cloud Functions serves them:
//
//  (a) require: the time to require the function's module
//      (functions/lib/index.js, bench/floorFunction/index.js) in a fresh Node
//      process, measured inside that process;
//  (b) new process → first saved answer: from spawning the framework to the
//      first POST /api/attempts/{id}/answers answered 200 (the attempt already
//      started), split into "listening" (when a request was first not refused)
//      and the first request itself, with the process's CPU time by then;
//  (c) CPU per save under load: the serving process's CPU time (user + system,
//      /proc/<pid>/stat) over a closed loop of saves, divided by the saves.
//
// App and floor alternate within every trial, so other work on the machine
// weighs on both; medians are reported. The params are the bench project's
// (functions/.env.demo-exam-bench: the limits raised so the load is never
// refused) except EXPOSE_COST_HEADER, which is off as in production (its meter
// wraps every Firestore call).
//
// Run alone: `npm run bench:coldstart` builds the functions and starts the Auth
// and Firestore emulators (project demo-exam-bench) around this file. Beside
// someone else: FIREBASE_JSON=firebase.<name>.json npm run bench:coldstart.
// Knobs: COLDSTART_TRIALS (7: fresh processes per figure (a) and (b), each for
// app and floor), COLDSTART_ROUNDS (3: load rounds of (c)), COLDSTART_SAVES
// (400 per round), COLDSTART_CONCURRENCY (20: students saving at once),
// COLDSTART_CPU_PROF=1 (profile the (c) processes with --cpu-prof and print
// their top self-time frames; the profiler inflates that run's CPU figures),
// COLDSTART_APP_ENV (NAME=value pairs, space-separated, for the app's processes
// only: FIRESTORE_PREFER_REST=false puts its Firestore client back on gRPC, say).
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const TRIALS = Number(process.env.COLDSTART_TRIALS ?? 7);
const ROUNDS = Number(process.env.COLDSTART_ROUNDS ?? 3);
const SAVES = Number(process.env.COLDSTART_SAVES ?? 400);
const CONCURRENCY = Number(process.env.COLDSTART_CONCURRENCY ?? 20);
const CPU_PROF = process.env.COLDSTART_CPU_PROF === '1';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const round1 = (x) => Number(x.toFixed(1));
const ratio = (app, floor) => (floor > 0 ? Number((app / floor).toFixed(2)) : null);

// scripts/bench.mjs starts the emulators this bench needs (npm run bench:coldstart).
process.exitCode = await runColdstart();

async function runColdstart() {
  const { freePort } = await import('./lib/ports.mjs');
  const { PROJECT_ID, AUTH_HOST, FIRESTORE_HOST } = await import('./lib/env.mjs');
  const { createUser, mapLimit, seedClients, RUN_ID } = await import('./lib/seed.mjs');
  const { latencySummary } = await import('./lib/stats.mjs');
  const { table, verdict } = await import('./lib/report.mjs');
  const { callAt, paramsEnv, root, spawnFramework, startFramework } = await import('./lib/framework.mjs');
  const { cpuBusy } = await import('./lib/guard.mjs');
  const { topSelfTime } = await import('./lib/profile.mjs');

  const log = (line) => console.log(`[coldstart] ${line}`);
  const failures = [];
  const running = new Set();
  const startedAt = Date.now();

  const env = {
    ...paramsEnv(PROJECT_ID),
    EXPOSE_COST_HEADER: 'false',
    FIRESTORE_EMULATOR_HOST: FIRESTORE_HOST,
    FIREBASE_AUTH_EMULATOR_HOST: AUTH_HOST,
    GCLOUD_PROJECT: PROJECT_ID,
  };
  const appEnv = Object.fromEntries(
    (process.env.COLDSTART_APP_ENV ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => pair.split(/=(.*)/s).slice(0, 2)),
  );
  const targets = {
    app: {
      target: 'api',
      env: { ...env, ...appEnv },
      source: join(root, 'functions'),
      module: join(root, 'functions', 'lib', 'index.js'),
      readyPath: '/api/health',
    },
    floor: {
      target: 'floor',
      env,
      source: join(root, 'bench', 'floorFunction'),
      module: join(root, 'bench', 'floorFunction', 'index.js'),
      readyPath: '/',
    },
  };
  const order = (trial) => (trial % 2 === 0 ? ['app', 'floor'] : ['floor', 'app']);

  try {
    // ---- a tenant, its admin, the class, a published test and one started attempt per student
    const setupPort = await freePort();
    const setup = await startFramework({ ...targets.app, port: setupPort, logPrefix: 'setup' });
    running.add(setup);
    log(`seeding a tenant, a client admin and ${CONCURRENCY} students, each with a started attempt`);
    const [tenant] = await seedClients(1, 'coldstart');
    const admin = { ...(await createUser('client_admin', tenant.id, 'cs-admin')), ip: '2001:db8:c5:ffff::1' };
    const students = await mapLimit(Array.from({ length: CONCURRENCY }), 4, async (_, i) => ({
      ...(await createUser('student', tenant.id, `cs-student${i}`)),
      ip: `2001:db8:c5:${i.toString(16)}::1`,
    }));
    const post = async (path, body) => {
      const res = await callAt(setup.baseUrl, { method: 'POST', path, body, token: admin.token, ip: admin.ip });
      if (res.status !== 201 && res.status !== 200)
        throw new Error(`POST ${path}: ${res.status} ${res.text.slice(0, 500)}`);
      return res.json;
    };
    const options = ['Paris', 'Berlin', 'Rome', 'Madrid'];
    const questionIds = [];
    for (let n = 1; n <= 4; n++) {
      const q = await post('/api/questions', {
        question_text: `Cold start ${RUN_ID} ${n}`,
        question_type: 'multiple_choice',
        options,
        correct_answer: 'Paris',
        marks: 1,
        difficulty: 'easy',
      });
      questionIds.push(q.id);
    }
    const test = await post('/api/tests', {
      test_name: `Cold start ${RUN_ID}`,
      timer: 120,
      shuffle: 0,
      allow_review: 0,
      negative_marking: 0,
      status: 'draft',
      question_ids: questionIds,
    });
    await post(`/api/tests/${test.id}/publish`, undefined);
    for (const student of students) {
      const res = await callAt(setup.baseUrl, {
        method: 'POST',
        path: '/api/attempts',
        body: { test_id: test.id },
        token: student.token,
        ip: student.ip,
      });
      if (res.status !== 201) throw new Error(`start: ${res.status} ${res.text.slice(0, 300)}`);
      student.attemptId = res.json.attempt_id;
    }
    await setup.stop();
    running.delete(setup);

    // One save by student `who`, the i-th of a run, to one of the attempt's questions. A student never
    // has two saves in flight (as in a real sitting): two would contend for the attempt's transaction.
    const save = (kind, i, who) => {
      const student = students[who % students.length];
      const body = { question_id: questionIds[i % questionIds.length], student_answer: options[i % options.length] };
      return kind === 'app'
        ? {
            method: 'POST',
            path: `/api/attempts/${student.attemptId}/answers`,
            body,
            token: student.token,
            ip: student.ip,
          }
        : { method: 'POST', path: '/', body, token: student.token, ip: student.ip };
    };

    const busyBefore = await cpuBusy(2000);
    log(`the machine was ${Math.round(busyBefore * 100)}% busy before the first measurement (${cpus().length} cores)`);

    // ---- (a) requiring the module in a fresh process
    log(`(a) require: ${TRIALS} fresh processes each`);
    const requireMs = { app: [], floor: [] };
    const requireScript =
      "const { performance } = require('node:perf_hooks'); const t = performance.now(); require(process.argv[1]); process.stdout.write(String(performance.now() - t)); process.exit(0);";
    const requireOnce = ({ module, env: targetEnv }) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['-e', requireScript, module], {
          cwd: root,
          env: { ...process.env, ...targetEnv, NODE_ENV: 'production' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (c) => (out += c));
        child.stderr.on('data', (c) => (err += c));
        child.on('exit', (code) =>
          code === 0 && Number(out) > 0
            ? resolve(Number(out))
            : reject(new Error(`require ${module}: exit ${code} ${err.slice(-500)}`)),
        );
      });
    for (let trial = 0; trial < TRIALS; trial++)
      for (const kind of order(trial)) requireMs[kind].push(await requireOnce(targets[kind]));

    // ---- (b) new process → first saved answer
    log(`(b) new process -> first saved answer: ${TRIALS} fresh processes each`);
    const cold = { app: [], floor: [] };
    const firstSave = async (kind, trial) => {
      const port = await freePort();
      const t0 = performance.now();
      const server = spawnFramework({ ...targets[kind], port });
      running.add(server);
      try {
        for (;;) {
          if (server.exited())
            throw new Error(
              `${kind}: functions-framework exited (${JSON.stringify(server.exited())}):\n${server.output().slice(-2000)}`,
            );
          const sent = performance.now();
          const res = await callAt(server.baseUrl, save(kind, trial, trial));
          if (res.status === 0 && performance.now() - t0 < 60_000) {
            await sleep(5); // not listening yet
            continue;
          }
          if (res.status !== 200)
            throw new Error(`${kind}: first save answered ${res.status} ${(res.error ?? res.text).slice(0, 300)}`);
          const done = performance.now();
          return {
            total_ms: round1(done - t0),
            listening_ms: round1(sent - t0),
            first_request_ms: round1(res.ms),
            cpu_ms: Math.round(server.cpuSeconds() * 1000),
          };
        }
      } finally {
        await server.stop();
        running.delete(server);
      }
    };
    for (let trial = 0; trial < TRIALS; trial++)
      for (const kind of order(trial)) cold[kind].push(await firstSave(kind, trial));

    // ---- (c) CPU per save under load
    log(`(c) CPU per save: ${ROUNDS} rounds of ${SAVES} saves, ${CONCURRENCY} at a time, app and floor alternating`);
    const profDir = join(root, '.bench', 'coldstart-prof');
    if (CPU_PROF) rmSync(profDir, { recursive: true, force: true });
    const servers = {};
    for (const kind of ['app', 'floor']) {
      const nodeArgs = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${join(profDir, kind)}`] : [];
      servers[kind] = await startFramework({ ...targets[kind], port: await freePort(), nodeArgs, logPrefix: kind });
      running.add(servers[kind]);
    }
    const load = async (kind, count) => {
      const server = servers[kind];
      const statuses = {};
      const latencies = [];
      let unexpected = null;
      let next = 0;
      const cpuBefore = server.cpuSeconds();
      const started = performance.now();
      await Promise.all(
        students.map(async (_, who) => {
          while (next < count) {
            const res = await callAt(server.baseUrl, save(kind, next++, who));
            statuses[res.status] = (statuses[res.status] ?? 0) + 1;
            if (res.status !== 200 && !unexpected)
              unexpected = `${res.status} ${(res.error ?? res.text).slice(0, 300)}`;
            latencies.push(res.ms);
          }
        }),
      );
      const wallS = (performance.now() - started) / 1000;
      const cpuMs = (server.cpuSeconds() - cpuBefore) * 1000;
      if (statuses[200] !== count)
        failures.push(`${kind}: ${JSON.stringify(statuses)} over ${count} saves; the first: ${unexpected}`);
      return {
        cpu_ms_per_save: Number((cpuMs / count).toFixed(2)),
        saves_per_s: round1(count / wallS),
        latency_ms: latencySummary(latencies),
        statuses,
      };
    };
    for (const kind of ['app', 'floor']) await load(kind, 100); // warm-up: modules loaded, channels open (not measured)
    const loadRuns = { app: [], floor: [] };
    for (let r = 0; r < ROUNDS; r++) for (const kind of order(r)) loadRuns[kind].push(await load(kind, SAVES));
    for (const kind of ['app', 'floor']) {
      await servers[kind].stop();
      running.delete(servers[kind]);
    }

    // ---- report
    const figures = {};
    for (const kind of ['app', 'floor']) {
      figures[kind] = {
        require_ms: round1(median(requireMs[kind])),
        first_save_ms: round1(median(cold[kind].map((c) => c.total_ms))),
        listening_ms: round1(median(cold[kind].map((c) => c.listening_ms))),
        first_request_ms: round1(median(cold[kind].map((c) => c.first_request_ms))),
        cold_cpu_ms: Math.round(median(cold[kind].map((c) => c.cpu_ms))),
        cpu_ms_per_save: Number(median(loadRuns[kind].map((r) => r.cpu_ms_per_save)).toFixed(2)),
        save_p50_ms: round1(median(loadRuns[kind].map((r) => r.latency_ms.p50))),
        save_p95_ms: round1(median(loadRuns[kind].map((r) => r.latency_ms.p95))),
        saves_per_s: round1(median(loadRuns[kind].map((r) => r.saves_per_s))),
      };
    }
    const rows = [
      ['(a) require the module', 'require_ms', ' ms', '≤ 1.2×'],
      ['(b) new process → first saved answer', 'first_save_ms', ' ms', '≤ 1.2×'],
      ['    of which: until listening', 'listening_ms', ' ms', ''],
      ['    of which: the first request', 'first_request_ms', ' ms', ''],
      ['    CPU used by then', 'cold_cpu_ms', ' ms', ''],
      ['(c) CPU per save under load', 'cpu_ms_per_save', ' ms', '≤ 2×'],
      ['    save p50 under load', 'save_p50_ms', ' ms', ''],
      ['    save p95 under load', 'save_p95_ms', ' ms', ''],
      ['    saves/s held', 'saves_per_s', '', ''],
    ].map(([label, key, unit, goal]) => [
      label,
      `${figures.app[key]}${unit}`,
      `${figures.floor[key]}${unit}`,
      `${ratio(figures.app[key], figures.floor[key])}×`,
      goal,
    ]);
    const result = {
      generated_at: new Date().toISOString(),
      project: PROJECT_ID,
      node: process.version,
      cpus: cpus().length,
      cpu_busy_before: busyBefore,
      cpu_profiled: CPU_PROF,
      app_env: appEnv,
      trials: TRIALS,
      rounds: ROUNDS,
      saves_per_round: SAVES,
      concurrency: CONCURRENCY,
      figures,
      ratios: {
        require: ratio(figures.app.require_ms, figures.floor.require_ms),
        first_save: ratio(figures.app.first_save_ms, figures.floor.first_save_ms),
        cpu_per_save: ratio(figures.app.cpu_ms_per_save, figures.floor.cpu_ms_per_save),
      },
      samples: { require_ms: requireMs, cold, load: loadRuns },
      failures,
      runtime_s: Math.round((Date.now() - startedAt) / 1000),
    };
    console.log(`\n# Cold start and CPU per save: app against the floor\n`);
    console.log(
      `Medians: (a) and (b) of ${TRIALS} fresh processes each, (c) of ${ROUNDS} rounds of ${SAVES} saves with ${CONCURRENCY} in flight; ${cpus().length} cores, ${Math.round(busyBefore * 100)}% busy before the start.${CPU_PROF ? ' PROFILED: the CPU figures of (c) include the profiler.' : ''}${Object.keys(appEnv).length ? ` The app ran with ${JSON.stringify(appEnv)}.` : ''}\n`,
    );
    console.log(table(['figure', 'app', 'floor', 'app/floor', 'goal'], rows, { rightAlign: [1, 2, 3] }));
    for (const kind of ['app', 'floor']) {
      console.log(
        `\n${kind}: require ${requireMs[kind].map((x) => x.toFixed(0)).join(', ')} ms; first save ${cold[kind].map((c) => c.total_ms.toFixed(0)).join(', ')} ms; CPU per save ${loadRuns[kind].map((r) => r.cpu_ms_per_save).join(', ')} ms`,
      );
    }
    if (CPU_PROF) {
      for (const kind of ['app', 'floor']) {
        const top = topSelfTime(join(profDir, kind));
        result[`profile_${kind}`] = top;
        console.log(`\n## ${kind}: self time by package (whole process: start, warm-up and load)\n`);
        console.log(
          table(
            ['package', 'ms', 'share'],
            top.byPackage.slice(0, 15).map((r) => [r.name, r.ms, `${r.share}%`]),
            { rightAlign: [1, 2] },
          ),
        );
        console.log(`\n## ${kind}: top self-time frames\n`);
        console.log(
          table(
            ['frame', 'ms', 'share'],
            top.byFrame.slice(0, 25).map((r) => [r.name, r.ms, `${r.share}%`]),
            { rightAlign: [1, 2] },
          ),
        );
      }
    }
    mkdirSync(join(root, '.bench'), { recursive: true });
    const file = join(root, '.bench', 'coldstart.json');
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`\nResults written to ${file}.`);
  } catch (err) {
    failures.push(`aborted: ${err.stack ?? err}`);
  } finally {
    for (const server of running) {
      if (failures.some((f) => f.startsWith('aborted')))
        console.log(`--- ${server.baseUrl} output (tail):\n${server.output().slice(-3000)}`);
      await server.stop();
    }
  }
  return verdict('Cold start bench', { failures, passed: 'no check failed.' });
}
