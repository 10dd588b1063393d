// @ts-check
// `npm run bench:web`: builds the web app and reports the gzip size of the JavaScript
// a taker's browser loads (the entry chunk and what it imports statically) and of
// what only an admin's loads (the chunks behind the admin pages' dynamic import),
// against the taker's budget. test/web/bundle.test.ts enforces the same budget.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The most a taker's first load may download, gzipped (JavaScript and CSS). */
export const TAKER_BUDGET_BYTES = 250 * 1024;

/**
 * Which files a taker loads and which only an admin does, from the build's manifest:
 * the taker's are the entry and its static imports; the admin's are everything
 * reached through a dynamic import and not already the taker's.
 * @param {string} dist the build folder (holding .vite/manifest.json)
 */
export function bundleSizes(dist) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  const reach = (keys, follow) => {
    const seen = new Set();
    const visit = (key) => {
      if (seen.has(key)) return;
      seen.add(key);
      for (const next of follow(manifest[key])) visit(next);
    };
    keys.forEach(visit);
    return seen;
  };
  const taker = reach([entry], (chunk) => chunk.imports ?? []);
  const dynamic = [...taker].flatMap((key) => manifest[key].dynamicImports ?? []);
  const admin = [...reach(dynamic, (chunk) => [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])])].filter((key) => !taker.has(key));
  const files = (keys) => [...new Set([...keys].flatMap((key) => [manifest[key].file, ...(manifest[key].css ?? [])]))];
  const gzipped = (list) => list.reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file)), { level: 9 }).length, 0);
  const takerFiles = files(taker);
  const adminFiles = files(admin).filter((file) => !takerFiles.includes(file));
  // Also fetched on a taker's first visit: the worker that keeps the shell for offline reloads.
  const workerFiles = readdirSync(dist).filter((file) => file === 'sw.js' || file === 'registerSW.js' || /^workbox-.*\.js$/.test(file));
  return {
    taker: { files: takerFiles, gzipBytes: gzipped(takerFiles) },
    serviceWorker: { files: workerFiles, gzipBytes: gzipped(workerFiles) },
    admin: { files: adminFiles, gzipBytes: gzipped(adminFiles) },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(fileURLToPath(import.meta.url), '..', '..');
  const build = spawnSync('npm', ['--workspace', 'web', 'run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const sizes = bundleSizes(join(root, 'web', 'dist'));
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log('| loaded by | files | gzip | budget |');
  console.log('|---|---|---:|---:|');
  console.log(`| a taker (first load) | ${sizes.taker.files.join(', ')} | ${kb(sizes.taker.gzipBytes)} | ${kb(TAKER_BUDGET_BYTES)} |`);
  console.log(`| a taker, its service worker (after the first load) | ${sizes.serviceWorker.files.join(', ')} | ${kb(sizes.serviceWorker.gzipBytes)} | |`);
  console.log(`| an admin, in addition | ${sizes.admin.files.join(', ')} | ${kb(sizes.admin.gzipBytes)} | |`);
  process.exit(sizes.taker.gzipBytes <= TAKER_BUDGET_BYTES ? 0 : 1);
}
