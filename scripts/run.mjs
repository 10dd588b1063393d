// One child process of the test scripts, run to its end: its exit code and wall time, and with
// `held` its output kept (printed by the caller, whole, so two runs side by side never interleave).
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

/**
 * @param {string} command
 * @param {string[]} args
 * @param {{ held?: boolean, env?: Record<string, string> }} [options] `env`: added to this process's environment
 * @returns {Promise<{ code: number, ms: number, output: string }>}
 */
export function run(command, args, { held = false, env = {} } = {}) {
  const startedAt = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', held ? 'pipe' : 'inherit', held ? 'pipe' : 'inherit'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code: code ?? 1, ms: Date.now() - startedAt, output }));
  });
}
