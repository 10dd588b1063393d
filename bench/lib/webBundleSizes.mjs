// @ts-check
// What a taker's and an admin's browser download, read from the web build's manifest:
// shared by `npm run bench:web` (bench/webBundle.mjs) and test/web/bundle.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** A question type's taker input, as the manifest names its source. */
const TYPE_INPUT = /questionTypes\/([A-Za-z]+)\/takerInput\.tsx$/;

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
  /**
   * @param {string[]} keys
   * @param {(chunk: any) => string[]} follow
   */
  const reach = (keys, follow) => {
    const seen = new Set();
    /** @param {string} key */
    const visit = (key) => {
      if (seen.has(key)) return;
      seen.add(key);
      for (const next of follow(manifest[key])) visit(next);
    };
    keys.forEach(visit);
    return seen;
  };
  const taker = reach([String(entry)], (chunk) => chunk.imports ?? []);
  const dynamic = [...taker].flatMap((key) => manifest[key].dynamicImports ?? []);
  // A question type's taker input (web/src/questionTypes/<type>/takerInput.tsx) loads with an attempt
  // that holds the type: a taker's code, fetched only when a test needs it, never an admin's.
  const typeInputs = dynamic.filter((key) => TYPE_INPUT.test(key));
  const takerTypes = [...reach(typeInputs, (chunk) => chunk.imports ?? [])].filter((key) => !taker.has(key));
  const admin = [
    ...reach(
      dynamic.filter((key) => !TYPE_INPUT.test(key)),
      (chunk) => [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])],
    ),
  ].filter((key) => !taker.has(key) && !takerTypes.includes(key));
  /** @param {Iterable<string>} keys */
  const files = (keys) => [...new Set([...keys].flatMap((key) => [manifest[key].file, ...(manifest[key].css ?? [])]))];
  /** @param {string[]} list */
  const gzipped = (list) =>
    list.reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file)), { level: 9 }).length, 0);
  const takerFiles = files(taker);
  const typeFiles = files(takerTypes).filter((file) => !takerFiles.includes(file));
  const adminFiles = files(admin).filter((file) => !takerFiles.includes(file) && !typeFiles.includes(file));
  // Also fetched on a taker's first visit: the worker that keeps the shell for offline reloads.
  const workerFiles = readdirSync(dist).filter(
    (file) => file === 'sw.js' || file === 'registerSW.js' || /^workbox-.*\.js$/.test(file),
  );
  return {
    taker: { files: takerFiles, gzipBytes: gzipped(takerFiles) },
    /** Each type's taker input, loaded with an attempt that holds the type (by the type's folder). */
    takerTypes: {
      files: typeFiles,
      gzipBytes: gzipped(typeFiles),
      byType: Object.fromEntries(
        typeInputs.map((key) => [
          TYPE_INPUT.exec(key)?.[1] ?? key,
          gzipped(files(reach([key], (chunk) => chunk.imports ?? [])).filter((file) => !takerFiles.includes(file))),
        ]),
      ),
    },
    serviceWorker: { files: workerFiles, gzipBytes: gzipped(workerFiles) },
    admin: { files: adminFiles, gzipBytes: gzipped(adminFiles) },
  };
}
