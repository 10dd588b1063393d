import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleSizes, TAKER_BUDGET_BYTES } from '../../bench/lib/webBundleSizes.mjs';

// The build npm test made: the folder this run's Hosting serves.
const root = join(__dirname, '..', '..');
const config = JSON.parse(readFileSync(join(root, process.env.FIREBASE_JSON || 'firebase.json'), 'utf8'));
const dist = join(root, config.hosting.public);

describe('web app bundle', () => {
  const sizes = bundleSizes(dist);

  it(`keeps a taker's first load within ${TAKER_BUDGET_BYTES / 1024} KB of gzipped JavaScript and CSS`, () => {
    assert.ok(sizes.taker.gzipBytes > 0);
    assert.ok(sizes.taker.gzipBytes <= TAKER_BUDGET_BYTES, `${sizes.taker.gzipBytes} bytes`);
  });

  it('precaches the app shell: index.html and every file a taker loads, each type’s input included', () => {
    const worker = readFileSync(join(dist, 'sw.js'), 'utf8');
    assert.match(worker, /index\.html/);
    for (const file of [...sizes.taker.files, ...sizes.takerTypes.files])
      assert.ok(worker.includes(file), `sw.js does not precache ${file}`);
    assert.match(readFileSync(join(dist, 'index.html'), 'utf8'), /<script src="\/registerSW\.js" defer><\/script>/);
  });

  it('keeps the admin pages out of what a taker loads, and out of what its service worker precaches', () => {
    assert.ok(
      sizes.admin.files.some((file) => /AdminApp-/.test(file)),
      JSON.stringify(sizes.admin.files),
    );
    for (const file of sizes.admin.files) {
      assert.ok(!sizes.taker.files.includes(file), file);
      assert.ok(!readFileSync(join(dist, 'sw.js'), 'utf8').includes(file), `sw.js precaches ${file}`);
    }
  });

  it("keeps the API reference (Swagger UI and its sign-in) out of the app's files and out of what its service worker precaches", () => {
    const reference = readdirSync(join(dist, 'docs', 'assets'));
    assert.ok(
      reference.some((file) => file.endsWith('.js')),
      JSON.stringify(reference),
    );
    const worker = readFileSync(join(dist, 'sw.js'), 'utf8');
    for (const file of reference) assert.ok(!worker.includes(file), `sw.js precaches docs/assets/${file}`);
    for (const file of [...sizes.taker.files, ...sizes.admin.files]) {
      assert.ok(!file.startsWith('docs/'), file);
      // A class name of Swagger UI's operation list: its code in an app chunk would carry it.
      assert.ok(
        !readFileSync(join(dist, file), 'utf8').includes('opblock-summary-control'),
        `${file} holds Swagger UI`,
      );
    }
  });
});
