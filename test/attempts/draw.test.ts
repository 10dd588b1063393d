import assert from 'node:assert/strict';
import fc from 'fast-check';
import { drawFromPools, MAX_SEEN, type DrawPool, type RandomBelow } from '../../functions/src/attempts/draw';

// Pure: the random draw of an attempt's pool questions, no emulator needed.
// The randomness is injected: a seeded generator makes every case repeatable.

/** A seeded RandomBelow (mulberry32): the same seed, the same draws. */
function seeded(seed: number): RandomBelow {
  let state = seed >>> 0;
  return (bound: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const unit = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return Math.floor(unit * bound);
  };
}

/** `count` ids `<prefix>0` … */
const ids = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
const pool = (prefix: string, size: number, draw: number): DrawPool => ({ question_ids: ids(prefix, size), draw });
const distinct = (list: readonly string[]): boolean => new Set(list).size === list.length;

/** Attempt after attempt of one student, each starting from the seen the last one left. */
function attempts(pools: DrawPool[], count: number, below: RandomBelow, seen: string[] = []): string[][] {
  const drawn: string[][] = [];
  for (let i = 0; i < count; i++) {
    const result = drawFromPools(pools, seen, below);
    drawn.push(result.drawn);
    seen = result.seen;
  }
  return drawn;
}

describe('attempts/draw drawFromPools: the size of a draw', () => {
  it('draws exactly `draw` questions from each pool, pool after pool, in the version’s order of pools', () => {
    const pools = [pool('a', 10, 3), pool('b', 5, 2), pool('c', 4, 4)];
    const { drawn } = drawFromPools(pools, [], seeded(1));
    assert.equal(drawn.length, 9);
    assert.ok(drawn.slice(0, 3).every((id) => id.startsWith('a')));
    assert.ok(drawn.slice(3, 5).every((id) => id.startsWith('b')));
    assert.deepEqual([...drawn.slice(5)].sort(), ids('c', 4));
  });

  it('draws nothing, and keeps the seen as they were, when the version has no pools', () => {
    assert.deepEqual(drawFromPools([], ['x', 'y'], seeded(2)), { drawn: [], seen: ['x', 'y'] });
  });

  it('draws a whole pool when its draw is its size', () => {
    const { drawn } = drawFromPools([pool('a', 6, 6)], [], seeded(3));
    assert.deepEqual([...drawn].sort(), ids('a', 6));
  });
});

describe('attempts/draw drawFromPools: never repeats a question within an attempt', () => {
  it('draws no question twice, over 500 seeds of three pools', () => {
    const pools = [pool('a', 7, 5), pool('b', 3, 2), pool('c', 9, 9)];
    for (let s = 0; s < 500; s++) {
      const { drawn } = drawFromPools(pools, [], seeded(s));
      assert.ok(distinct(drawn), `seed ${s}: ${drawn.join(',')}`);
    }
  });

  it('draws no question twice in the attempt that starts a new cycle (the unseen and the seen drawn again never meet)', () => {
    const pools = [pool('a', 10, 4)];
    for (let s = 0; s < 200; s++) {
      // 8 seen, 2 unseen: the draw takes both unseen and 2 of the seen.
      const { drawn } = drawFromPools(pools, ids('a', 8), seeded(s));
      assert.ok(distinct(drawn), `seed ${s}: ${drawn.join(',')}`);
      assert.equal(drawn.length, 4);
    }
  });
});

describe('attempts/draw drawFromPools: the unseen are drawn first', () => {
  it('draws only questions the student has not seen while enough are left unseen', () => {
    const seen = ['a0', 'a2', 'a4', 'a6'];
    for (let s = 0; s < 100; s++) {
      const { drawn } = drawFromPools([pool('a', 10, 6)], seen, seeded(s));
      assert.deepEqual([...drawn].sort(), ['a1', 'a3', 'a5', 'a7', 'a8', 'a9']);
    }
  });

  it('adds what it drew to the seen, and keeps the seen of other tests’ pools and of other pools', () => {
    const { drawn, seen } = drawFromPools([pool('a', 10, 3), pool('b', 4, 1)], ['elsewhere', 'b0'], seeded(4));
    assert.deepEqual([...seen].sort(), ['b0', 'elsewhere', ...drawn].sort());
  });

  it('goes through a pool before showing any of its questions again: 10 questions, 3 a time, 4 attempts', () => {
    for (let s = 0; s < 50; s++) {
      const [first, second, third, fourth] = attempts([pool('a', 10, 3)], 4, seeded(s));
      const firstCycle = [...first, ...second, ...third];
      assert.ok(distinct(firstCycle), `seed ${s}: the first three attempts draw 9 different questions`);
      const lastUnseen = ids('a', 10).filter((id) => !firstCycle.includes(id));
      assert.equal(lastUnseen.length, 1);
      assert.ok(fourth.includes(lastUnseen[0]), `seed ${s}: the fourth attempt takes the one question left unseen`);
    }
  });
});

describe('attempts/draw drawFromPools: a new cycle when fewer are unseen than drawn', () => {
  it('takes every unseen question, then the rest at random from those seen', () => {
    const seenBefore = ids('a', 8); // a8 and a9 unseen
    for (let s = 0; s < 100; s++) {
      const { drawn } = drawFromPools([pool('a', 10, 5)], seenBefore, seeded(s));
      assert.equal(drawn.length, 5);
      assert.ok(drawn.includes('a8') && drawn.includes('a9'), `seed ${s}: ${drawn.join(',')}`);
      assert.equal(drawn.filter((id) => seenBefore.includes(id)).length, 3);
    }
  });

  it('starts the pool’s new cycle with only the seen questions drawn again counted as seen', () => {
    const { drawn, seen } = drawFromPools([pool('a', 10, 5)], [...ids('a', 8), 'elsewhere'], seeded(5));
    const again = drawn.filter((id) => id !== 'a8' && id !== 'a9');
    assert.deepEqual([...seen].sort(), ['elsewhere', ...again].sort());
  });

  it('after a new cycle, prefers the questions the new cycle has not shown', () => {
    const below = seeded(6);
    const cycle = drawFromPools([pool('a', 10, 5)], ids('a', 8), below);
    const next = drawFromPools([pool('a', 10, 5)], cycle.seen, below);
    const seenInCycle = cycle.seen.filter((id) => id.startsWith('a'));
    assert.equal(seenInCycle.length, 3);
    assert.ok(
      next.drawn.every((id) => !seenInCycle.includes(id)),
      `${next.drawn.join(',')} repeats one of ${seenInCycle.join(',')}`,
    );
  });

  it('starts a new cycle when every question of the pool has been seen', () => {
    const { drawn, seen } = drawFromPools([pool('a', 4, 2)], ids('a', 4), seeded(7));
    assert.equal(drawn.length, 2);
    assert.ok(distinct(drawn));
    assert.deepEqual([...seen].sort(), [...drawn].sort());
  });
});

describe('attempts/draw drawFromPools: pools are disjoint', () => {
  it('draws from each pool only its own questions, never one of another pool', () => {
    const pools = [pool('a', 5, 2), pool('b', 5, 2), pool('c', 5, 2)];
    for (let s = 0; s < 100; s++) {
      const { drawn } = drawFromPools(pools, [], seeded(s));
      pools.forEach((p, i) => {
        const part = drawn.slice(i * 2, i * 2 + 2);
        assert.ok(
          part.every((id) => p.question_ids.includes(id)),
          `seed ${s}, pool ${i}: ${part.join(',')}`,
        );
      });
    }
  });

  it('starts a new cycle in one pool without touching what is seen in another', () => {
    const { seen } = drawFromPools([pool('a', 3, 2), pool('b', 10, 1)], [...ids('a', 3), 'b0', 'b1'], seeded(8));
    assert.ok(seen.includes('b0') && seen.includes('b1'), seen.join(','));
    assert.equal(seen.filter((id) => id.startsWith('a')).length, 2);
  });
});

describe('attempts/draw drawFromPools: the seen are bounded', () => {
  it('keeps at most MAX_SEEN seen questions, dropping the oldest and keeping those just drawn', () => {
    const old = ids('old', MAX_SEEN + 100);
    const { drawn, seen } = drawFromPools([pool('a', 20, 10)], old, seeded(9));
    assert.equal(seen.length, MAX_SEEN);
    for (const id of drawn) assert.ok(seen.includes(id), id);
    assert.ok(!seen.includes('old0') && !seen.includes('old109'), 'the oldest go first');
    assert.ok(seen.includes(`old${MAX_SEEN + 99}`), 'the newest of the old stay');
  });

  it('keeps a seen list under the bound as it is', () => {
    const { seen } = drawFromPools([], ids('old', MAX_SEEN), seeded(10));
    assert.equal(seen.length, MAX_SEEN);
  });
});

describe('attempts/draw drawFromPools: the randomness', () => {
  it('gives the same draw for the same RandomBelow, and only asks it for bounds it can answer', () => {
    const asked: number[] = [];
    const below = seeded(11);
    const watched: RandomBelow = (bound) => {
      asked.push(bound);
      return below(bound);
    };
    const pools = [pool('a', 30, 10), pool('b', 8, 8)];
    assert.deepEqual(drawFromPools(pools, ['a1'], watched), drawFromPools(pools, ['a1'], seeded(11)));
    assert.ok(asked.length > 0 && asked.every((bound) => Number.isInteger(bound) && bound >= 1), asked.join(','));
  });

  it('draws with crypto’s randomness when none is given', () => {
    const { drawn } = drawFromPools([pool('a', 50, 20)], []);
    assert.equal(drawn.length, 20);
    assert.ok(distinct(drawn));
  });

  it('draws each question of a pool about equally often (chi-square, 8 questions, 1 drawn, 4000 seeds)', () => {
    const counts = new Map(ids('a', 8).map((id) => [id, 0]));
    const seeds = 4000;
    for (let s = 0; s < seeds; s++) {
      const [id] = drawFromPools([pool('a', 8, 1)], [], seeded(s)).drawn;
      counts.set(id, counts.get(id)! + 1);
    }
    const expected = seeds / 8;
    const chiSquare = [...counts.values()].reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    // 7 degrees of freedom: p = 0.001 at 24.3. Deterministic seeds, so this cannot flake.
    assert.ok(chiSquare < 24.3, `chi-square ${chiSquare.toFixed(1)} for ${JSON.stringify([...counts])}`);
  });
});

// ---------------------------------------------------------------- properties

/** Disjoint pools (as publishing freezes them) with a draw each within its size, and some seen ids among theirs and others. */
const poolsAndSeen = fc
  .array(fc.record({ size: fc.integer({ min: 1, max: 30 }), drawShare: fc.double({ min: 0, max: 1, noNaN: true }) }), {
    minLength: 0,
    maxLength: 6,
  })
  .chain((shapes) => {
    const pools: DrawPool[] = shapes.map(({ size, drawShare }, i) => ({
      question_ids: ids(`p${i}-`, size),
      draw: Math.max(1, Math.ceil(size * drawShare)),
    }));
    const every = pools.flatMap((p) => p.question_ids);
    return fc.record({
      pools: fc.constant(pools),
      seen: fc.uniqueArray(
        fc.oneof(fc.constantFrom(...(every.length > 0 ? every : ['none'])), fc.constantFrom('x1', 'x2', 'x3')),
        { maxLength: 60 },
      ),
      seed: fc.integer(),
      attempts: fc.integer({ min: 1, max: 6 }),
    });
  });

describe('attempts/draw drawFromPools: properties (fast-check)', () => {
  it('every draw, attempt after attempt, has the right size, no duplicate, each pool’s part from that pool, and the unseen first', () => {
    fc.assert(
      fc.property(poolsAndSeen, ({ pools, seen: seenBefore, seed, attempts: count }) => {
        const below = seeded(seed);
        let seen = seenBefore;
        for (let a = 0; a < count; a++) {
          const { drawn, seen: after } = drawFromPools(pools, seen, below);
          assert.equal(
            drawn.length,
            pools.reduce((sum, p) => sum + p.draw, 0),
          );
          assert.ok(distinct(drawn), drawn.join(','));
          let at = 0;
          for (const p of pools) {
            const part = drawn.slice(at, at + p.draw);
            at += p.draw;
            assert.ok(
              part.every((id) => p.question_ids.includes(id)),
              `${part.join(',')} not all of its pool`,
            );
            const unseen = p.question_ids.filter((id) => !seen.includes(id));
            // As many of the part as there are unseen (up to the draw) were unseen.
            assert.equal(part.filter((id) => unseen.includes(id)).length, Math.min(p.draw, unseen.length));
          }
          assert.ok(after.length <= MAX_SEEN);
          assert.ok(distinct(after));
          seen = after;
        }
      }),
      { numRuns: 300 },
    );
  });
});
