/** Runs `fn` as outside the emulators (no loopback allowed), whatever this process's environment says. */
export async function withoutEmulators<T>(fn: () => Promise<T>): Promise<T> {
  const saved = { f: process.env.FIRESTORE_EMULATOR_HOST, e: process.env.FUNCTIONS_EMULATOR };
  delete process.env.FIRESTORE_EMULATOR_HOST;
  delete process.env.FUNCTIONS_EMULATOR;
  try {
    return await fn();
  } finally {
    if (saved.f !== undefined) process.env.FIRESTORE_EMULATOR_HOST = saved.f;
    if (saved.e !== undefined) process.env.FUNCTIONS_EMULATOR = saved.e;
  }
}
