import type { Schemas } from '../../api';
import { fromLocalInput } from './time';

/** An override's four values as typed in its form; an empty one keeps the test's own. */
export type OverrideInputs = { opensAt: string; closesAt: string; timer: string; maxAttempts: string };

export const EMPTY_OVERRIDE: OverrideInputs = { opensAt: '', closesAt: '', timer: '', maxAttempts: '' };

/** The request body of the fields filled in: an empty field is left out, so the test's own value holds. */
export function overrideBody(inputs: OverrideInputs): Schemas['PutOverride'] {
  const body: Schemas['PutOverride'] = {};
  if (inputs.opensAt) body.opens_at = fromLocalInput(inputs.opensAt);
  if (inputs.closesAt) body.closes_at = fromLocalInput(inputs.closesAt);
  if (inputs.timer) body.timer = Number(inputs.timer);
  if (inputs.maxAttempts) body.max_attempts = Number(inputs.maxAttempts);
  return body;
}

/** What a student's or a class's override sets (a value it does not set is absent). */
type SetValues = Pick<Schemas['Override'], 'opens_at' | 'closes_at' | 'timer' | 'max_attempts'>;

const TESTS_OWN = 'test’s';

/** The table's opens, closes, timer and attempts of a set override: "test’s" where it sets nothing. */
export function overrideCells(o: SetValues, time: (iso: string | null | undefined) => string): string[] {
  return [
    o.opens_at === undefined ? TESTS_OWN : time(o.opens_at),
    o.closes_at === undefined ? TESTS_OWN : time(o.closes_at),
    o.timer === undefined ? TESTS_OWN : `${o.timer} min`,
    o.max_attempts === undefined ? TESTS_OWN : String(o.max_attempts ?? 'unlimited'),
  ];
}
