// @ts-check
// The function served the way Cloud Functions serves it in production: the
// Functions Framework (@google-cloud/functions-framework), one Node process,
// many requests in flight at once, against the Auth and Firestore emulators.
// Also a bare Express app under the same framework, as the floor to compare
// our app's CPU time per request with.
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { call } from './http.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
// The package's `bin`. Its exports map hides both the bin and package.json, so
// the package folder is found by walking up from its main module.
function frameworkBin() {
  let dir = dirname(require.resolve('@google-cloud/functions-framework'));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return join(dir, JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).bin['functions-framework']);
}
const frameworkMain = frameworkBin();
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The function's params as `functions/.env.<projectId>` sets them (KEY=VALUE lines, # comments). */
export function paramsEnv(projectId) {
  const env = {};
  for (const line of readFileSync(join(root, 'functions', `.env.${projectId}`), 'utf8').split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)\s*$/.exec(line);
    if (match && !line.trimStart().startsWith('#')) env[match[1]] = match[2].replace(/^(['"])(.*)\1$/, '$2');
  }
  return env;
}

/** CPU seconds (user + system) the process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces) start at field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / CLOCK_TICKS;
}

/**
 * A folder with a bare Express app exported as `bare`, using the same Express
 * the functions use: what any handler costs under the framework, with nothing of ours.
 */
export function bareExpressSource() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-bare-express-'));
  const express = require.resolve('express', { paths: [join(root, 'functions')] });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'bench-bare-express', private: true, main: 'index.js' }),
  );
  writeFileSync(
    join(dir, 'index.js'),
    `const express = require(${JSON.stringify(express)});\n` +
      `const app = express();\n` +
      `app.get('/', (req, res) => res.json({ ok: true }));\n` +
      `exports.bare = app;\n`,
  );
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Spawns `functions-framework --target=<target> --source=<source> --port=<port>`
 * (the framework's own entry point run by Node directly, so the pid is the
 * serving process) without waiting for it. `nodeArgs` go to Node itself
 * (`--cpu-prof`, say).
 */
export function spawnFramework({ target, source, port, env = {}, nodeArgs = [] }) {
  const child = spawn(
    process.execPath,
    [...nodeArgs, frameworkMain, `--target=${target}`, `--source=${source}`, `--port=${port}`, '--signature-type=http'],
    {
      cwd: root,
      env: { ...process.env, ...env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = [];
  const keep = (chunk) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = { code, signal };
  });
  return {
    pid: child.pid,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    cpuSeconds: () => cpuSeconds(child.pid),
    output: () => output.join(''),
    exited: () => exited,
    stop: () =>
      new Promise((resolve) => {
        if (exited) return resolve(exited);
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', (code, signal) => {
          clearTimeout(timer);
          resolve({ code, signal });
        });
        child.kill('SIGTERM');
      }),
  };
}

/** spawnFramework, then waits until `readyPath` answers. */
export async function startFramework({
  target,
  source,
  port,
  env = {},
  nodeArgs = [],
  readyPath = '/',
  timeoutMs = 60_000,
  logPrefix = target,
}) {
  const server = spawnFramework({ target, source, port, env, nodeArgs });
  const { baseUrl, output } = server;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const exited = server.exited();
    if (exited)
      throw new Error(
        `${logPrefix}: functions-framework exited (${JSON.stringify(exited)}):\n${output().slice(-2000)}`,
      );
    try {
      const res = await fetch(baseUrl + readyPath, {
        signal: AbortSignal.timeout(5_000),
        headers: { 'X-Forwarded-For': '127.0.0.1' },
      });
      await res.arrayBuffer();
      if (res.status < 500) break;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      await server.stop();
      throw new Error(
        `${logPrefix}: functions-framework did not answer ${readyPath} on port ${port} within ${timeoutMs} ms:\n${output().slice(-2000)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return server;
}

/** One request to `baseUrl` (bench/lib/http.mjs `call`: timed, never throws; `ip` travels as X-Forwarded-For). */
export const callAt = (baseUrl, options) => call({ ...options, baseUrl });

/**
 * Closed loop of `count` requests with `concurrency` in flight, against a
 * framework process; returns wall time, the process's CPU seconds, and statuses.
 */
export async function measureCpu(server, { count, concurrency, request }) {
  const statuses = {};
  let next = 0;
  const cpuBefore = server.cpuSeconds();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const res = await callAt(server.baseUrl, request(i));
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      }
    }),
  );
  const wallS = (performance.now() - started) / 1000;
  const cpuS = server.cpuSeconds() - cpuBefore;
  return {
    requests: count,
    wall_s: Number(wallS.toFixed(2)),
    rps: Number((count / wallS).toFixed(1)),
    cpu_s: Number(cpuS.toFixed(2)),
    cpu_ms_per_request: Number(((cpuS * 1000) / count).toFixed(3)),
    statuses,
  };
}

/**
 * The built `api` function on the framework against the Auth, Firestore and Storage emulators (the
 * import benches: media go to Storage), checked to have the Storage host in its environment.
 * @returns {Promise<{ api: Awaited<ReturnType<typeof startFramework>>, pid: number, storageHost: string }>}
 */
export async function startApiWithStorage() {
  const { PROJECT_ID, AUTH_HOST, FIRESTORE_HOST, storageHost } = await import('./env.mjs');
  const { freePort } = await import('./ports.mjs');
  // Without the Storage emulator an import of media has nothing to measure.
  const STORAGE_HOST = storageHost();
  const api = await startFramework({
    target: 'api',
    source: join(root, 'functions'),
    port: await freePort(),
    env: {
      ...paramsEnv(PROJECT_ID),
      FIRESTORE_EMULATOR_HOST: FIRESTORE_HOST,
      FIREBASE_AUTH_EMULATOR_HOST: AUTH_HOST,
      FIREBASE_STORAGE_EMULATOR_HOST: STORAGE_HOST,
      STORAGE_EMULATOR_HOST: `http://${STORAGE_HOST}`,
      GCLOUD_PROJECT: PROJECT_ID,
    },
    readyPath: '/api/health',
    logPrefix: 'api',
  });
  const pid = api.pid;
  if (pid === undefined) {
    await api.stop();
    throw new Error('the framework has no pid');
  }
  const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  if (!environ.includes(`FIREBASE_STORAGE_EMULATOR_HOST=${STORAGE_HOST}`)) {
    await api.stop();
    throw new Error('the serving process did not get FIREBASE_STORAGE_EMULATOR_HOST');
  }
  return { api, pid, storageHost: STORAGE_HOST };
}
