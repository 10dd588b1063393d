/** Seconds left until `expiresAt` at server time `now` (never below 0). */
export function secondsLeft(expiresAt: string, now: number): number {
  return Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 1000));
}

export function formatClock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = String(m).padStart(h > 0 ? 2 : 1, '0');
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** The marks at which the time left is announced to screen readers (not every second). */
export const ANNOUNCED_MARKS = [30 * 60, 15 * 60, 10 * 60, 5 * 60, 2 * 60, 60, 30, 10, 0];

/** The mark crossed going from `before` to `now` seconds left, if any. */
export function markCrossed(before: number, now: number): number | undefined {
  return ANNOUNCED_MARKS.find((mark) => before > mark && now <= mark);
}

export function describeLeft(seconds: number): string {
  if (seconds <= 0) return 'Time is up.';
  if (seconds >= 60) {
    const minutes = Math.round(seconds / 60);
    return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'} left.`;
  }
  return `${seconds} seconds left.`;
}
