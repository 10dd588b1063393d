// The service worker: it keeps the taker's app shell (index.html and the taker's chunks), so a
// reload while the network is down still opens the attempt; the attempt's questions and queued
// answers live in IndexedDB. Workbox's runtime does the caching; serviceWorkerPlugin.ts writes the
// list of files (`self.__WB_MANIFEST`) at build time.
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

// Typed as much as used here: the app's DOM typings and the worker's cannot share one program.
declare const self: { skipWaiting(): Promise<void>; __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

// A new build takes over at once: an open attempt page keeps working, and the next load is the new app.
void self.skipWaiting();
clientsClaim();
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// Any page address opens the app (its router decides); the API, the API reference and Firebase's own paths never do.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//, /^\/docs/, /^\/__\//] }),
);
