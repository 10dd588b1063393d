// `npm run bench`: builds the functions, starts the Emulator Suite for project
// demo-exam-bench (functions/.env.demo-exam-bench: limits raised, X-Debug-Cost on)
// and runs bench/run.mjs against it. Exits with the benchmark's code.
// Run beside someone else: FIREBASE_JSON=firebase.<name>.json API_BASE_URL=http://127.0.0.1:<port>
// (see scripts/isolated-config.mjs); without them the default ports (Hosting on 5000) are used.
import { buildFunctions, emulatorsExec } from './emulators.mjs';

buildFunctions();
const code = await emulatorsExec('demo-exam-bench', 'node bench/run.mjs');
process.exit(code);
