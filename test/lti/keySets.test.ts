import assert from 'node:assert/strict';
import { keySetMove } from '../../functions/src/lti/keySets';

// When a platform's key set is read again: every 10 minutes, and for a kid it does not hold at most once per 30 s.

describe('keySetMove', () => {
  const now = 1_000_000_000;
  const held = (fetchedAgoMs: number, kidReadAgoMs: number | null) => ({
    fetchedAtMs: now - fetchedAgoMs,
    kidReadAtMs: kidReadAgoMs === null ? null : now - kidReadAgoMs,
  });
  const cases: Array<[string, Parameters<typeof keySetMove>[0], boolean, 'use' | 'read']> = [
    ['nothing held', undefined, false, 'read'],
    ['a set read a minute ago', held(60_000, null), false, 'use'],
    ['a set read 10 minutes ago', held(600_000, null), false, 'read'],
    ['a set read 10 minutes ago, for an unknown kid', held(600_000, 1000), true, 'read'],
    ['an unknown kid, never read for one', held(1000, null), true, 'read'],
    ['an unknown kid, read for one 10 s ago', held(10_000, 10_000), true, 'use'],
    ['an unknown kid, read for one 30 s ago', held(30_000, 30_000), true, 'read'],
  ];
  for (const [what, h, unknownKid, move] of cases)
    it(`${move}s: ${what}`, () => assert.equal(keySetMove(h, now, unknownKid), move));
});
