import { deferFrameworkBodyErrors } from './platform/frameworkBodyParser';
deferFrameworkBodyErrors();

import { onRequest } from 'firebase-functions/v2/https';
import type { Express } from 'express';
import { createApp } from './app';
import { readConfig } from './config';

let app: Express | undefined;

/** The whole API: Hosting rewrites /api/** here. */
// cors: false because the app applies its own allowlist; firebase-functions would
// otherwise answer every origin in the emulator.
export const api = onRequest({ region: 'us-central1', memory: '512MiB', concurrency: 80, cors: false }, (req, res) => {
  app ??= createApp(readConfig());
  return app(req, res);
});
