/** Runs `fn` as in production (ALLOW_LOOPBACK_URLS false: no loopback allowed), whatever this process's environment says. */
export async function withoutLoopback<T>(fn: () => Promise<T>): Promise<T> {
  const saved = process.env.ALLOW_LOOPBACK_URLS;
  process.env.ALLOW_LOOPBACK_URLS = 'false';
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.ALLOW_LOOPBACK_URLS;
    else process.env.ALLOW_LOOPBACK_URLS = saved;
  }
}
