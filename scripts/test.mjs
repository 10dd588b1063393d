// `npm test`: builds, starts the emulators (project demo-exam-test, so test
// data never mixes with the `npm start` demo) and runs every mocha test.
import { buildFunctions, emulatorsExec } from './emulators.mjs';

buildFunctions();
const extra = process.argv.slice(2).map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
const code = await emulatorsExec('demo-exam-test', `npx mocha ${extra}`);
process.exit(code);
