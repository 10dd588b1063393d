import assert from 'node:assert/strict';
import { extensionReach, type ExtensionCase } from '../../functions/src/sittings/extensionReach';

// Whether a sitting-wide extension (a test's, or one class's) reaches one attempt, pure: a table of cases.

const base: ExtensionCase = {
  attemptCreatedMs: 1_000,
  sweepCreatedMs: 2_000,
  classId: null,
  attemptClassIds: undefined,
  holdsIt: false,
  held: 0,
  max: 10,
};

const cases: Array<[string, Partial<ExtensionCase>, ReturnType<typeof extensionReach>]> = [
  ['every attempt of the test, started before the press', {}, 'extend'],
  ['a Guest’s attempt (no classes) without a class', { attemptClassIds: undefined }, 'extend'],
  ['started after the press', { attemptCreatedMs: 3_000 }, 'started_after'],
  [
    'started after the press, in the class',
    { attemptCreatedMs: 3_000, classId: 'c1', attemptClassIds: ['c1'] },
    'started_after',
  ],
  ['in the class', { classId: 'c1', attemptClassIds: ['c2', 'c1'] }, 'extend'],
  ['in another class', { classId: 'c1', attemptClassIds: ['c2'] }, 'other_class'],
  ['no classes at its start (a Guest) with a class', { classId: 'c1', attemptClassIds: undefined }, 'other_class'],
  ['no classes at its start (empty) with a class', { classId: 'c1', attemptClassIds: [] }, 'other_class'],
  ['at its bound of extensions', { held: 10 }, 'at_bound'],
  ['at its bound, holding this one already (a resumed sweep)', { held: 10, holdsIt: true }, 'extend'],
  [
    'at its bound in another class: the class decides first',
    { held: 10, classId: 'c1', attemptClassIds: ['c2'] },
    'other_class',
  ],
];

describe('extensionReach', () => {
  for (const [name, change, expected] of cases) {
    it(`${name} → ${expected}`, () => assert.equal(extensionReach({ ...base, ...change }), expected));
  }
});
