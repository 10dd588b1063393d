import { currentWindow } from '../../functions/src/rateLimit/window';

/**
 * Rate limits count in fixed one-minute windows: a test that counts up to a
 * limit starts well inside one, so its burst cannot straddle two.
 */
export async function awayFromWindowEdge(marginMs = 8000): Promise<void> {
  const left = currentWindow(Date.now()).resetAtMs - Date.now();
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 200));
}
