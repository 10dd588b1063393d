import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { adminDb } from './admin';
import { BASE_URL, PROJECT_ID } from './env';

const run = promisify(execFile);

/** Runs the seed `npm start` runs, against the test emulators (a demo- project too); its stdout is the seeded tests as JSON. */
export const seedDemo = () =>
  run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
    const { seedDemo } = await import(${JSON.stringify(join(__dirname, '..', '..', 'scripts', 'seed.mjs'))});
    const result = await seedDemo({ projectId: ${JSON.stringify(PROJECT_ID)}, baseUrl: ${JSON.stringify(BASE_URL)} });
    console.log(JSON.stringify(result.tests));
  `,
    ],
    { env: process.env },
  );

/**
 * Removes Demo Academy's data (its document and everything under it), as on the empty emulators
 * `npm start` seeds: the walkthroughs' test adds tests and attempts to it.
 */
export const forgetDemoAcademy = () => adminDb.recursiveDelete(adminDb.collection('clients').doc('demo-academy'));
