import { initializeApp } from 'firebase/app';
import { browserSessionPersistence, connectAuthEmulator, getAuth, initializeAuth, type Auth } from 'firebase/auth';

/**
 * Firebase Hosting serves the project's web config at /__/firebase/init.json, in
 * production and in the emulator alike, so one build runs against any project.
 * A demo- project exists only on the emulators: there the Auth emulator's address
 * comes from the Hosting emulator's own init script (?useEmulator=true), which
 * names the emulators of the running suite, whatever ports it was given.
 * `separate`: a Firebase app of its own whose session lives in its tab only (the API
 * reference's), so signing in or out there never touches the web app's session and data.
 */
export async function startFirebase({ separate = false } = {}): Promise<Auth> {
  const config = await fetchJson('/__/firebase/init.json');
  const demo = typeof config.projectId === 'string' && config.projectId.startsWith('demo-');
  // Known before Auth starts: it restores the signed-in user at once, and must not reach the real service first.
  const emulator = demo ? await authEmulatorUrl() : null;
  const auth = separate
    ? initializeAuth(initializeApp(config, 'api-reference'), { persistence: browserSessionPersistence })
    : getAuth(initializeApp(config));
  if (emulator) connectAuthEmulator(auth, emulator, { disableWarnings: true });
  return auth;
}

/** What was last read, kept so that a reload while offline (served by the service worker) still starts. */
async function remembered<T>(key: string, read: () => Promise<T>): Promise<T> {
  try {
    const value = await read();
    localStorage.setItem(key, JSON.stringify(value));
    return value;
  } catch (err) {
    const known = localStorage.getItem(key);
    if (known) return JSON.parse(known) as T;
    throw err;
  }
}

const fetchJson = (url: string) =>
  remembered<Record<string, unknown>>(`firebase:${url}`, async () => {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    return res.json();
  });

const authEmulatorUrl = () =>
  remembered('firebase:auth-emulator', async () => {
    const script = await (await fetch('/__/firebase/init.js?useEmulator=true')).text();
    const found = /var firebaseEmulators = ([\s\S]*?);\s*if \(firebaseEmulators\)/.exec(script);
    const hostAndPort = found && JSON.parse(found[1])?.auth?.hostAndPort;
    if (typeof hostAndPort !== 'string') throw new Error('The Auth emulator is not running beside this demo project');
    return `http://${hostAndPort}`;
  });
