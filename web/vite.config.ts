import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const require = createRequire(import.meta.url);

/**
 * The API reference at /docs: Swagger UI's own prebuilt bundle, copied from the
 * swagger-ui-dist package into the build (never loaded from a CDN), reading the
 * document the service serves at /api/openapi.json.
 */
function apiReference(): Plugin {
  const dist = dirname(require.resolve('swagger-ui-dist/package.json'));
  return {
    name: 'api-reference',
    apply: 'build',
    generateBundle() {
      for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
        this.emitFile({ type: 'asset', fileName: `docs/${file}`, source: readFileSync(join(dist, file)) });
      }
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    apiReference(),
    // A service worker keeps the taker's app shell, so a reload while the network is down still
    // opens the attempt (its questions and queued answers live in IndexedDB). Admin chunks
    // are not precached: a taker's browser never downloads them.
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: 'script-defer',
      manifest: false,
      workbox: {
        clientsClaim: true,
        skipWaiting: true,
        globPatterns: ['index.html', 'assets/*.{js,css}'],
        globIgnores: ['**/AdminApp-*'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/docs/, /^\/__\//],
      },
    }),
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
