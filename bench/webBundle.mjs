// @ts-check
// `npm run bench:web`: builds the web app and reports the gzip size of the JavaScript
// a taker's browser loads (the entry chunk and what it imports statically) and of
// what a question type's taker input adds when an attempt holds the type, and of what only an
// admin's loads (the chunks behind the admin pages' dynamic import),
// against the taker's budget. test/web/bundle.test.ts enforces the same budget.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleSizes, TAKER_BUDGET_BYTES } from './lib/webBundleSizes.mjs';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const build = spawnSync('npm', ['--workspace', 'web', 'run', 'build', '--silent'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (build.status !== 0) process.exit(build.status ?? 1);
const sizes = bundleSizes(join(root, 'web', 'dist'));
/** @param {number} bytes */
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log('| loaded by | files | gzip | budget |');
console.log('|---|---|---:|---:|');
console.log(
  `| a taker (first load) | ${sizes.taker.files.join(', ')} | ${kb(sizes.taker.gzipBytes)} | ${kb(TAKER_BUDGET_BYTES)} |`,
);
console.log(
  `| a taker, its service worker (after the first load) | ${sizes.serviceWorker.files.join(', ')} | ${kb(sizes.serviceWorker.gzipBytes)} | |`,
);
for (const [type, bytes] of Object.entries(sizes.takerTypes.byType))
  console.log(`| a taker, with an attempt holding a ${type} question | its taker input | ${kb(bytes)} | |`);
console.log(`| an admin, in addition | ${sizes.admin.files.join(', ')} | ${kb(sizes.admin.gzipBytes)} | |`);
process.exit(sizes.taker.gzipBytes <= TAKER_BUDGET_BYTES ? 0 : 1);
