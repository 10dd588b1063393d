// Shared by start, test and bench: build the functions and run a command under
// the Emulator Suite with offline Firestore and Storage emulators.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firestoreEmulatorEnv } from './firestore-emulator.mjs';
import { storageEmulatorEnv } from './storage-emulator.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const EMULATORS = 'auth,firestore,functions,hosting,storage';
const firebaseBin = join(root, 'node_modules', '.bin', 'firebase');
// FIREBASE_JSON points at another config (scripts/isolated-config.mjs) to run beside someone else.
const configFile = process.env.FIREBASE_JSON || 'firebase.json';

/**
 * The emulators run a copy of the config whose pages' Content-Security-Policy also lets the web
 * app reach this config's Auth emulator, so the policy in firebase.json (production's) never names
 * a local address (docs/security.md). Written beside it, as firebase[.<name>].emulators.json (git-ignored).
 */
function emulatorConfigArgs() {
  const config = JSON.parse(readFileSync(join(root, configFile), 'utf8'));
  const { host, port } = config.emulators.auth;
  // The address the Hosting emulator's init.js gives the app (web/src/firebase.ts).
  const authOrigin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  for (const { headers } of config.hosting?.headers ?? []) {
    for (const header of headers) {
      if (header.key !== 'Content-Security-Policy') continue;
      header.value = header.value.replace(/(^|;)(\s*connect-src[^;]*)/, `$1$2 ${authOrigin}`);
      // The provider sign-in's popup talks to the Auth emulator's own frame (emulator/auth/iframe).
      header.value = header.value.replace(/(^|;)(\s*frame-src[^;]*)/, `$1$2 ${authOrigin}`);
    }
  }
  const file = `${basename(configFile, '.json')}.emulators.json`;
  writeFileSync(join(root, file), JSON.stringify(config, null, 2) + '\n');
  return ['--config', file];
}

export function buildFunctions() {
  const result = spawnSync('npm', ['--prefix', 'functions', 'run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** The web app (web/dist), which the Hosting emulator serves at / beside the API. */
export function buildWeb() {
  // Into the folder the config's Hosting serves, so runs on isolated ports never rebuild each other's files.
  const config = JSON.parse(readFileSync(join(root, process.env.FIREBASE_JSON || 'firebase.json'), 'utf8'));
  const outDir = relative(join(root, 'web'), join(root, config.hosting.public));
  const result = spawnSync('npm', ['--workspace', 'web', 'run', 'build', '--silent', '--', '--outDir', outDir], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) {
    console.error('Building the web app failed: npm --workspace web run build shows why.');
    process.exit(result.status ?? 1);
  }
}

/**
 * A temporary folder of this config's own: the Storage emulator keeps its blobs under
 * os.tmpdir()/firebase/storage and empties it when it stops, so two emulator sets (npm start
 * beside npm test, isolated configs) sharing /tmp would delete each other's files.
 */
function ownTmpDir() {
  const dir = join(root, '.emulators', `tmp-${basename(configFile, '.json')}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Where a command keeps the emulators' own log: `.emulators/<kind>-emulators.log`, one per FIREBASE_JSON
 * config, so runs on isolated ports keep theirs apart.
 * @param {'test' | 'start'} kind
 */
export function emulatorLogFile(kind) {
  const config = process.env.FIREBASE_JSON ? `-${basename(process.env.FIREBASE_JSON, '.json')}` : '';
  return join(root, '.emulators', `${kind}-emulators${config}.log`);
}

export function emulatorEnv() {
  try {
    return { ...process.env, TMPDIR: ownTmpDir(), ...firestoreEmulatorEnv(), ...storageEmulatorEnv() };
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}

// Lines the emulators print for every request; the command's own output shares their stream.
const REQUEST_NOISE = [
  /^\[hosting\] Rewriting /,
  /^i {2}functions: Loaded environment variables/,
  // A new function worker announcing itself.
  /^✔ {2}functions: Using node@\d+ from host/,
  /^Serving at port \d+$/,
];

/**
 * Runs `command` once the emulators are up; resolves with its exit code.
 * With `quiet`, the emulators log only what goes wrong and per-request lines
 * are dropped from the terminal, so a test run reads as a test report; the
 * whole stream is kept in `logFile`.
 * @param {string} projectId
 * @param {string} command
 * @param {{ quiet?: boolean, logFile?: string, only?: string }} [options] `only`: the emulators to start (all five by default)
 * @returns {Promise<number>}
 */
export function emulatorsExec(projectId, command, { quiet = false, logFile, only = EMULATORS } = {}) {
  return new Promise((resolve) => {
    const verbosity = quiet ? ['--log-verbosity', 'SILENT'] : [];
    const child = spawn(
      firebaseBin,
      ['emulators:exec', ...emulatorConfigArgs(), '--only', only, '--project', projectId, ...verbosity, command],
      { cwd: root, env: emulatorEnv(), stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'] },
    );
    if (quiet) {
      mkdirSync(dirname(logFile), { recursive: true });
      const log = createWriteStream(logFile);
      for (const [stream, out] of /** @type {const} */ ([
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ])) {
        createInterface({ input: stream }).on('line', (line) => {
          log.write(`${line}\n`);
          if (!REQUEST_NOISE.some((noise) => noise.test(line))) out.write(`${line}\n`);
        });
      }
    }
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

export function emulatorsStart(projectId) {
  return spawn(firebaseBin, ['emulators:start', ...emulatorConfigArgs(), '--only', EMULATORS, '--project', projectId], {
    cwd: root,
    env: emulatorEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
