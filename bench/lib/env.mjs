// @ts-check
// Where the benchmark sends its traffic. Only loopback addresses are accepted:
// the benchmark refuses to start if any target is elsewhere.

const isLoopbackHost = (hostname) =>
  hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127(\.\d{1,3}){3}$/.test(hostname);

function loopbackUrl(value, what) {
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${what} is not a URL: ${value}`);
  }
  if (url.protocol !== 'http:' || !isLoopbackHost(url.hostname)) {
    throw new Error(`${what} must be an http:// loopback address, got ${value}`);
  }
  return url;
}

function loopbackHostPort(name) {
  const value = process.env[name];
  if (!value)
    throw new Error(
      `${name} is not set: run the benchmark through \`npm run bench\` or \`npm run bench:<name>\` (scripts/bench.mjs starts the emulators)`,
    );
  loopbackUrl(`http://${value}`, name);
  return value;
}

export const BASE_URL = loopbackUrl(process.env.API_BASE_URL ?? 'http://127.0.0.1:5000', 'API_BASE_URL').origin;
export const AUTH_HOST = loopbackHostPort('FIREBASE_AUTH_EMULATOR_HOST');
export const FIRESTORE_HOST = loopbackHostPort('FIRESTORE_EMULATOR_HOST');
/** The Storage emulator's host:port, for a bench that starts it ('storage' among its emulators). */
export const storageHost = () => loopbackHostPort('FIREBASE_STORAGE_EMULATOR_HOST');
export const PROJECT_ID = process.env.GCLOUD_PROJECT || 'demo-exam-bench';
// demo-* projects never reach a real Firebase project, whatever else is configured.
if (!PROJECT_ID.startsWith('demo-')) throw new Error(`Refusing to benchmark non-demo project ${PROJECT_ID}`);
