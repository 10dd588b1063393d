// Pure fixed-window arithmetic: the window id names the counter document, so
// every function instance counts into the same one.
export const WINDOW_MS = 60_000;

export interface Window {
  id: number;
  resetAtMs: number;
}

export function currentWindow(nowMs: number): Window {
  const id = Math.floor(nowMs / WINDOW_MS);
  return { id, resetAtMs: (id + 1) * WINDOW_MS };
}

/** Whole seconds until the window resets, never 0 while it is still open. */
export const secondsUntil = (resetAtMs: number, nowMs: number): number =>
  Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000));

export interface LimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
  exceeded: boolean;
}

export function limitState(count: number, limit: number, resetAtMs: number, nowMs: number): LimitState {
  return {
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: secondsUntil(resetAtMs, nowMs),
    exceeded: count > limit,
  };
}

// Doc ids may not contain '/'; IPv6 colons are fine.
export const counterKey = (kind: string, subject: string, window: Window): string =>
  `${kind}_${encodeURIComponent(subject)}_${window.id}`;
