// Where the emulators listen during `npm test` (firebase.json), and the project they serve.
export const PROJECT_ID = process.env.GCLOUD_PROJECT ?? 'demo-exam-test';
export const BASE_URL = process.env.API_BASE_URL ?? 'http://127.0.0.1:5000';
export const AUTH_HOST = process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099';
export const FIRESTORE_HOST = process.env.FIRESTORE_EMULATOR_HOST ?? '127.0.0.1:8080';

process.env.FIREBASE_AUTH_EMULATOR_HOST = AUTH_HOST;
process.env.FIRESTORE_EMULATOR_HOST = FIRESTORE_HOST;
// The service's code run in this process reads its params as the functions' .env.demo-exam-test sets
// them: the emulators' receivers and platforms listen on loopback. A test file run alone (or in a
// worker of its own) gets it too, not only after another file set it.
process.env.ALLOW_LOOPBACK_URLS ??= 'true';
export const HUB_HOST = process.env.FIREBASE_EMULATOR_HUB ?? '127.0.0.1:4400';
