import type { OverrideValues } from './deadline';

// Pure: what a student's own override and its classes' overrides on a test come to.
// Per field, the student's own override wins; else the most generous of its classes'
// that set the field: the earliest opens_at, the latest closes_at, the longest timer,
// the most attempts, null (no limit) being the most generous of all.

const has = <K extends keyof OverrideValues>(values: OverrideValues | undefined, key: K): boolean =>
  values !== undefined && Object.prototype.hasOwnProperty.call(values, key) && values[key] !== undefined;

/** The more generous of two instants bounding a window on one side; null (no bound) beats any. */
const generousInstant = (a: string | null, b: string | null, prefer: 'earlier' | 'later'): string | null => {
  if (a === null || b === null) return null;
  const earlier = Date.parse(a) <= Date.parse(b) ? a : b;
  const later = earlier === a ? b : a;
  return prefer === 'earlier' ? earlier : later;
};

const generousCount = (a: number | null, b: number | null): number | null =>
  a === null || b === null ? null : Math.max(a, b);

/** The most generous of several classes' overrides, field by field (a field none sets stays absent). */
export function mostGenerous(overrides: readonly OverrideValues[]): OverrideValues {
  const result: OverrideValues = {};
  for (const override of overrides) {
    if (has(override, 'opens_at'))
      result.opens_at = has(result, 'opens_at')
        ? generousInstant(result.opens_at!, override.opens_at!, 'earlier')
        : override.opens_at;
    if (has(override, 'closes_at'))
      result.closes_at = has(result, 'closes_at')
        ? generousInstant(result.closes_at!, override.closes_at!, 'later')
        : override.closes_at;
    if (has(override, 'timer'))
      result.timer = has(result, 'timer') ? Math.max(result.timer!, override.timer!) : override.timer;
    if (has(override, 'max_attempts'))
      result.max_attempts = has(result, 'max_attempts')
        ? generousCount(result.max_attempts!, override.max_attempts!)
        : override.max_attempts;
  }
  return result;
}

const FIELDS = ['opens_at', 'closes_at', 'timer', 'max_attempts'] as const;

/**
 * The one override handed to the deadline, window and max_attempts rules: the
 * student's own fields, and the classes' most generous for the fields it leaves.
 * Undefined when neither sets anything (the test's own settings).
 */
export function effectiveOverride(
  own: OverrideValues | undefined,
  classOverrides: readonly OverrideValues[],
): OverrideValues | undefined {
  const classes = mostGenerous(classOverrides);
  const result: OverrideValues = {};
  for (const key of FIELDS) {
    const source = has(own, key) ? own : has(classes, key) ? classes : undefined;
    if (source) (result as Record<string, unknown>)[key] = source[key];
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

/** The overrides of a test's classes that concern a student of these classes (in the order of its classes). */
export const classOverridesFor = (
  byClass: Readonly<Record<string, OverrideValues>> | undefined,
  classIds: readonly string[] | undefined,
): OverrideValues[] =>
  byClass ? (classIds ?? []).filter((id) => Object.hasOwn(byClass, id)).map((id) => byClass[id]) : [];
