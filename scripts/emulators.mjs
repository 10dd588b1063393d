// Shared by start, test and bench: build the functions and run a command under
// the Emulator Suite with an offline Firestore emulator.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firestoreEmulatorEnv } from './firestore-emulator.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const EMULATORS = 'auth,firestore,functions,hosting';
const firebaseBin = join(root, 'node_modules', '.bin', 'firebase');
// FIREBASE_JSON points at another config (scripts/isolated-config.mjs) to run beside someone else.
const configArgs = process.env.FIREBASE_JSON ? ['--config', process.env.FIREBASE_JSON] : [];

export function buildFunctions() {
  const result = spawnSync('npm', ['--prefix', 'functions', 'run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

export function emulatorEnv() {
  try {
    return { ...process.env, ...firestoreEmulatorEnv() };
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}

/** Runs `command` once the emulators are up; resolves with its exit code. */
export function emulatorsExec(projectId, command) {
  return new Promise((resolve) => {
    const child = spawn(
      firebaseBin,
      ['emulators:exec', ...configArgs, '--only', EMULATORS, '--project', projectId, command],
      { cwd: root, env: emulatorEnv(), stdio: ['ignore', 'inherit', 'inherit'] },
    );
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

export function emulatorsStart(projectId) {
  return spawn(firebaseBin, ['emulators:start', ...configArgs, '--only', EMULATORS, '--project', projectId], {
    cwd: root,
    env: emulatorEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
