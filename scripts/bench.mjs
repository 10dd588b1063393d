// `npm run bench`: builds the functions, starts the Emulator Suite for project
// demo-exam-bench (functions/.env.demo-exam-bench: limits raised, X-Debug-Cost on)
// and runs bench/run.mjs against it (or the bench file named as the argument:
// `npm run bench:sittings` runs bench/sittings.mjs). Exits with the benchmark's code.
// Run beside someone else: FIREBASE_JSON=firebase.<name>.json API_BASE_URL=http://127.0.0.1:<port>
// (see scripts/isolated-config.mjs); without them the default ports (Hosting on 5000) are used.
import { join } from 'node:path';
import { buildFunctions, emulatorsExec, root } from './emulators.mjs';

const script = process.argv[2] ?? 'bench/run.mjs';
if (!/^bench\/[\w-]+\.mjs$/.test(script)) {
  console.error(`usage: node scripts/bench.mjs [bench/<file>.mjs], not ${script}`);
  process.exit(2);
}
buildFunctions();
// The emulators' request log goes to a file; the terminal shows the benchmark's progress and tables.
const logFile = join(root, '.emulators', 'bench-emulators.log');
const code = await emulatorsExec('demo-exam-bench', `node ${script}`, { quiet: true, logFile });
if (code !== 0) console.error(`Emulator log: ${logFile}`);
process.exit(code);
