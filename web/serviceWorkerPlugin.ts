import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build, type Plugin } from 'vite';

/**
 * Builds the service worker (src/serviceWorker/sw.ts, Workbox's runtime) after the app, with the
 * list of what it precaches: index.html and the app's own chunks and styles in assets/, less
 * those only an admin loads (`adminOnly`), so a taker's browser never downloads them. Hashed file
 * names need no revision; index.html gets the digest of its content. `registerSW.js` registers it,
 * deferred, from every page. (Workbox's build tool would do the same listing and pulls in some 400
 * packages to do it.)
 */
export function serviceWorker({ adminOnly }: { adminOnly: RegExp[] }): Plugin {
  let outDir = '';
  let root = '';
  let manifest: Array<{ url: string; revision: string | null }> = [];
  return {
    name: 'service-worker',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    transformIndexHtml: () => [{ tag: 'script', attrs: { src: '/registerSW.js', defer: true }, injectTo: 'head' }],
    // Once written: index.html is emitted late in generateBundle, after the chunks.
    writeBundle(_options, bundle) {
      manifest = Object.values(bundle)
        .filter((file) => file.fileName === 'index.html' || /^assets\/[^/]+\.(js|css)$/.test(file.fileName))
        .filter((file) => !adminOnly.some((pattern) => pattern.test(file.fileName)))
        .map((file) => ({
          url: file.fileName,
          revision:
            file.fileName === 'index.html'
              ? createHash('md5')
                  .update(file.type === 'asset' ? file.source : file.code)
                  .digest('hex')
              : null,
        }));
    },
    async closeBundle() {
      writeFileSync(
        resolve(outDir, 'registerSW.js'),
        "if('serviceWorker' in navigator){window.addEventListener('load',()=>{navigator.serviceWorker.register('/sw.js',{scope:'/'})})}",
      );
      await build({
        configFile: false,
        root,
        logLevel: 'warn',
        define: {
          'self.__WB_MANIFEST': JSON.stringify(manifest),
          'process.env.NODE_ENV': JSON.stringify('production'),
        },
        build: {
          outDir,
          emptyOutDir: false,
          reportCompressedSize: false,
          lib: {
            entry: resolve(root, 'src/serviceWorker/sw.ts'),
            formats: ['iife'],
            name: 'serviceWorker',
            fileName: () => 'sw.js',
          },
        },
      });
    },
  };
}
