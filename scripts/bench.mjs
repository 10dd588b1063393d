// @ts-check
// Every benchmark starts here: `npm run bench` runs bench/run.mjs, `npm run bench:<name>` the
// file named as the argument. It builds what the bench measures, starts the emulators that bench
// needs (project demo-exam-bench: functions/.env.demo-exam-bench raises limits and turns
// X-Debug-Cost on) and exits with the bench's code.
// Run beside someone else: FIREBASE_JSON=firebase.<name>.json API_BASE_URL=http://127.0.0.1:<port>
// (see scripts/isolated-config.mjs); without them the default ports (Hosting on 5000) are used.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildFunctions, EMULATORS, emulatorsExec, root } from './emulators.mjs';

/**
 * What each bench runs against. The full suite serves the API through Hosting and the Functions
 * emulator; 'auth,firestore' benches start the function themselves under the Functions Framework
 * (the server production runs); the web bundle needs no emulator at all.
 * @type {Record<string, string | null>}
 */
const EMULATORS_OF = {
  'bench/run.mjs': EMULATORS,
  'bench/sittings.mjs': EMULATORS,
  'bench/hotpath.mjs': 'auth,firestore',
  'bench/hall.mjs': 'auth,firestore',
  'bench/coldstart.mjs': 'auth,firestore',
  'bench/pools.mjs': 'auth,firestore',
  'bench/regrade.mjs': 'auth,firestore',
  'bench/interchange.mjs': 'auth,firestore,storage',
  'bench/importScale.mjs': 'auth,firestore,storage',
  'bench/classes.mjs': 'auth,firestore',
  'bench/lti.mjs': 'auth,firestore',
  // The Firestore trigger runs in the Functions emulator, beside the API it delivers for.
  'bench/webhooks.mjs': EMULATORS,
  'bench/webBundle.mjs': null,
};

const script = process.argv[2] ?? 'bench/run.mjs';
if (!(script in EMULATORS_OF)) {
  console.error(`usage: node scripts/bench.mjs [${Object.keys(EMULATORS_OF).join(' | ')}], not ${script}`);
  process.exit(2);
}
const only = EMULATORS_OF[script];
if (only === null) {
  const result = spawnSync(process.execPath, [script], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
buildFunctions();
// The emulators' request log goes to a file; the terminal shows the benchmark's progress and tables.
const logFile = join(root, '.emulators', 'bench-emulators.log');
const code = await emulatorsExec('demo-exam-bench', `node ${script}`, { quiet: true, logFile, only });
if (code !== 0) console.error(`Emulator log: ${logFile}`);
process.exit(code);
