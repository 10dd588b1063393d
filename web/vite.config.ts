import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin } from 'vite';
import { serviceWorker } from './serviceWorkerPlugin';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * The API reference at /docs (docs/index.html, src/docs/): Swagger UI from the swagger-ui-dist
 * package with the page's sign-in, bundled (nothing is loaded from another host). A build of its
 * own into the app's output folder, after the app's, so it stays out of the app's manifest (what
 * a taker loads, bench/lib/webBundleSizes.mjs) and out of what its service worker precaches
 * (docs/assets/ is not assets/).
 */
function apiReference(): Plugin {
  let outDir = '';
  return {
    name: 'api-reference',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await build({
        configFile: false,
        root: webRoot,
        logLevel: 'warn',
        build: {
          outDir,
          emptyOutDir: false,
          assetsDir: 'docs/assets',
          rollupOptions: { input: resolve(webRoot, 'docs/index.html') },
          // Swagger UI is one large chunk; only this page loads it.
          chunkSizeWarningLimit: 2048,
          reportCompressedSize: false,
        },
      });
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    apiReference(),
    // A service worker keeps the taker's app shell, so a reload while the network is down still
    // opens the attempt (its questions and queued answers live in IndexedDB). Admin chunks
    // are not precached: a taker's browser never downloads them. The hotspot's drawing tool is
    // the question form's, loaded from the registry as a chunk of its own. Signing in with a
    // school's account needs the network (the provider's popup): its chunk is not precached either.
    serviceWorker({ adminOnly: [/\/AdminApp-/, /\/areaDrawing-/, /\/schoolSignIn-/] }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Which chunks a taker loads and which only an admin does: bench/webBundle.mjs reads it.
    manifest: true,
    // Sizes are reported (and budgeted) gzipped by bench/web-bundle.mjs and its test.
    reportCompressedSize: false,
  },
});
