// Pure: when an attempt's time runs out, from the settings in force. No Firebase import.

/** A student's standing extra time in its organization. */
export interface Accommodation {
  extra_time_percent: number;
  extra_minutes: number;
}

/** What a per-(test, student) override replaces; an absent key leaves the test's value, null lifts the limit. */
export interface OverrideValues {
  opens_at?: string | null;
  closes_at?: string | null;
  timer?: number;
  max_attempts?: number | null;
}

/** The settings an attempt's deadline is computed from. */
export interface DeadlineBasis {
  startedAtMs: number;
  /** The frozen version's timer, in minutes. */
  versionTimer: number;
  /** The test's current closing time (a delivery setting: not frozen). */
  testClosesAt: string | null;
  override: OverrideValues | undefined;
  accommodation: Accommodation | undefined;
  /** Minutes granted to this attempt by extensions (one attempt's, or a whole sitting's). */
  extensionMinutes: number;
}

/**
 * The timer in seconds after the accommodation: timer × (1 + percent/100) +
 * minutes, rounded up to whole seconds. Computed in integer hundredths of a
 * percent-minute so 45 × 1.1 is exactly 2,970 s, never 2,970.0000000000005.
 */
export function effectiveTimerSeconds(timerMinutes: number, accommodation: Accommodation | undefined): number {
  const percent = accommodation?.extra_time_percent ?? 0;
  const extra = accommodation?.extra_minutes ?? 0;
  // timer × 60 × (100 + percent) / 100, exactly: both factors are integers up to 1440 × 60 and 500.
  return Math.ceil((timerMinutes * 60 * (100 + percent)) / 100) + extra * 60;
}

/** The test's value, or the override's where it has one (null included: no limit for this student). */
export function effective<K extends keyof OverrideValues>(
  override: OverrideValues | undefined,
  key: K,
  testValue: OverrideValues[K],
): OverrideValues[K] {
  return override && Object.prototype.hasOwnProperty.call(override, key) && override[key] !== undefined
    ? override[key]
    : testValue;
}

/**
 * expires_at = the earlier of started_at + the effective timer and the
 * effective closes_at, plus the minutes of any extension: a proctor's
 * extension is extra time whatever cut the attempt short (a fire alarm moves
 * the end of the sitting, closing time included).
 */
export function expiresAtMs(basis: DeadlineBasis): number {
  const timer = effective(basis.override, 'timer', basis.versionTimer) ?? basis.versionTimer;
  const byTimer = basis.startedAtMs + effectiveTimerSeconds(timer, basis.accommodation) * 1000;
  const closesAt = effective(basis.override, 'closes_at', basis.testClosesAt);
  const byWindow = closesAt ? Date.parse(closesAt) : Infinity;
  return Math.min(byTimer, byWindow) + basis.extensionMinutes * 60_000;
}

/** Sum of an attempt's extensions (id → minutes). */
export const extensionMinutes = (extensions: Record<string, number> | undefined): number =>
  Object.values(extensions ?? {}).reduce((sum, minutes) => sum + minutes, 0);

// ---------------------------------------------------------------- starting

/** The window a student may start in, after its override. */
export interface StartWindow {
  opensAt: string | null;
  closesAt: string | null;
}

export const startWindow = (
  test: { opens_at?: string | null; closes_at?: string | null },
  override: OverrideValues | undefined,
): StartWindow => ({
  opensAt: effective(override, 'opens_at', test.opens_at ?? null) ?? null,
  closesAt: effective(override, 'closes_at', test.closes_at ?? null) ?? null,
});

/** Why a new attempt cannot start now (409's message), or null. The window is [opens_at, closes_at). */
export function windowRefusal(window: StartWindow, nowMs: number): string | null {
  if (window.opensAt !== null && nowMs < Date.parse(window.opensAt)) return `This test opens at ${window.opensAt}`;
  if (window.closesAt !== null && nowMs >= Date.parse(window.closesAt)) return `This test closed at ${window.closesAt}`;
  return null;
}

/** When the cooldown after the student's last submission ends (ISO), if it has not yet. */
export function cooldownEnds(
  lastSubmittedAt: string | null | undefined,
  cooldownMinutes: number,
  nowMs: number,
): string | null {
  if (!lastSubmittedAt || cooldownMinutes <= 0) return null;
  const ends = Date.parse(lastSubmittedAt) + cooldownMinutes * 60_000;
  return nowMs < ends ? new Date(ends).toISOString() : null;
}

/** Whether a taker may see its review now: from review_opens_at on (null: from submission). */
export const reviewReleased = (reviewOpensAt: string | null | undefined, nowMs: number): boolean =>
  !reviewOpensAt || nowMs >= Date.parse(reviewOpensAt);
