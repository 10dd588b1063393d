import assert from 'node:assert/strict';
import {
  EMPTY_OVERRIDE,
  overrideBody,
  overrideCells,
  type OverrideInputs,
} from '../../web/src/admin/shared/overrideValues';

const typed = (inputs: Partial<OverrideInputs>): OverrideInputs => ({ ...EMPTY_OVERRIDE, ...inputs });
const local = '2030-05-01T09:30';
const utc = new Date(local).toISOString();

describe('web overrideValues: an override form’s body and a set override’s cells', () => {
  const bodies: [string, Partial<OverrideInputs>, object][] = [
    ['nothing typed sends an empty body', {}, {}],
    ['an opening time is sent as UTC', { opensAt: local }, { opens_at: utc }],
    ['a closing time is sent as UTC', { closesAt: local }, { closes_at: utc }],
    ['a timer is sent as a number', { timer: '45' }, { timer: 45 }],
    ['attempts are sent as a number', { maxAttempts: '3' }, { max_attempts: 3 }],
    [
      'every field typed is sent',
      { opensAt: local, closesAt: local, timer: '10', maxAttempts: '1' },
      { opens_at: utc, closes_at: utc, timer: 10, max_attempts: 1 },
    ],
  ];
  for (const [name, inputs, body] of bodies)
    it(`body: ${name}`, () => assert.deepEqual(overrideBody(typed(inputs)), body));

  const time = (iso: string | null | undefined) => `at ${iso ?? 'none'}`;
  const cells: [string, Parameters<typeof overrideCells>[0], string[]][] = [
    ['nothing set is the test’s own everywhere', {}, ['test’s', 'test’s', 'test’s', 'test’s']],
    [
      'set values are shown',
      { opens_at: 'a', closes_at: 'b', timer: 30, max_attempts: 2 },
      ['at a', 'at b', '30 min', '2'],
    ],
    [
      'a cleared window and unlimited attempts',
      { opens_at: null, max_attempts: null },
      ['at none', 'test’s', 'test’s', 'unlimited'],
    ],
  ];
  for (const [name, override, shown] of cells)
    it(`cells: ${name}`, () => assert.deepEqual(overrideCells(override, time), shown));
});
