import assert from 'node:assert/strict';
import { applyMove, freezePools, publishProblems } from '../../functions/src/exams/lifecycle';
import { MAX_SEAT_SHARDS, seatShardCapacities } from '../../functions/src/exams/seats';
import {
  canonicalShareCode,
  generateShareCode,
  SHARE_CODE_ALPHABET,
  SHARE_CODE_BITS,
  SHARE_CODE_LENGTH,
} from '../../functions/src/exams/shareCodeText';
import { documentSize, valueSize } from '../../functions/src/exams/versionSize';

describe('applyMove', () => {
  it('allows exactly draft → published, draft/published → archived, archived → draft', () => {
    const table = (['publish', 'archive', 'restore'] as const).flatMap((move) =>
      (['draft', 'published', 'archived'] as const).map((from) => {
        const outcome = applyMove(move, from);
        return `${move} ${from}: ${outcome.ok ? outcome.next : 'refused'}`;
      }),
    );
    assert.deepEqual(table, [
      'publish draft: published',
      'publish published: refused',
      'publish archived: refused',
      'archive draft: archived',
      'archive published: archived',
      'archive archived: refused',
      'restore draft: refused',
      'restore published: refused',
      'restore archived: draft',
    ]);
  });
});

describe('publishProblems', () => {
  it('names no questions, missing questions and no timer; nothing for a complete draft', () => {
    assert.deepEqual(publishProblems({ timer: 10, question_ids: ['a'] }, new Set(['a'])), []);
    const problems = publishProblems({ timer: null, question_ids: [] }, new Set());
    assert.deepEqual(
      problems.map((p) => p.path),
      ['question_ids', 'timer'],
    );
    const missing = publishProblems({ timer: 5, question_ids: ['a', 'b', 'c'] }, new Set(['b']));
    assert.deepEqual(missing, [
      {
        path: 'question_ids',
        message: 'These questions no longer exist in this organization: a, c',
        question_ids: ['a', 'c'],
      },
    ]);
  });

  it('takes a draft whose questions all come from pools (no fixed question_ids)', () => {
    assert.deepEqual(
      publishProblems({ timer: 10, question_ids: [], pools: [{ folder_id: 'f', draw: 2 }] }, new Set()),
      [],
    );
    assert.deepEqual(
      publishProblems({ timer: 10, question_ids: [], pools: [] }, new Set()).map((p) => p.path),
      ['question_ids'],
    );
  });
});

describe('freezePools', () => {
  const pool = (draw: number, folder_id = 'f') => ({ folder_id, difficulty: null, draw });

  it('freezes each pool’s candidates, sorted and without repeats, keeping the pool’s own fields', () => {
    const { pools, problems } = freezePools([pool(2, 'f1')], [['c', 'a', 'b', 'a']], [], 5_000);
    assert.deepEqual(pools, [{ folder_id: 'f1', difficulty: null, draw: 2, question_ids: ['a', 'b', 'c'] }]);
    assert.deepEqual(problems, []);
  });

  it('leaves a question that is also fixed to the fixed list only', () => {
    const { pools } = freezePools([pool(1)], [['a', 'fixed', 'b']], ['fixed'], 5_000);
    assert.deepEqual(pools[0].question_ids, ['a', 'b']);
  });

  it('leaves a question in two pools to the earlier one only, so pools never overlap', () => {
    const { pools } = freezePools(
      [pool(1), pool(1), pool(1)],
      [
        ['a', 'b'],
        ['b', 'c'],
        ['a', 'c', 'd'],
      ],
      [],
      5_000,
    );
    assert.deepEqual(
      pools.map((p) => p.question_ids),
      [['a', 'b'], ['c'], ['d']],
    );
    const all = pools.flatMap((p) => p.question_ids);
    assert.equal(new Set(all).size, all.length);
  });

  it('names the pool whose draw is larger than what it holds once overlaps are taken out (pools.<i>)', () => {
    const { problems } = freezePools(
      [pool(2), pool(2)],
      [
        ['a', 'b'],
        ['a', 'b', 'c'],
      ],
      ['c'],
      5_000,
    );
    assert.deepEqual(
      problems.map((p) => p.path),
      ['pools.1'],
    );
    assert.match(problems[0].message, /Pool 2 draws 2 questions but holds 0/);
  });

  it('takes a draw equal to the pool’s size, and refuses one more', () => {
    assert.deepEqual(freezePools([pool(3)], [['a', 'b', 'c']], [], 5_000).problems, []);
    assert.deepEqual(
      freezePools([pool(4)], [['a', 'b', 'c']], [], 5_000).problems.map((p) => p.path),
      ['pools.0'],
    );
  });

  it('names an empty folder’s pool (no candidates at all)', () => {
    assert.deepEqual(
      freezePools([pool(1)], [[]], [], 5_000).problems.map((p) => p.path),
      ['pools.0'],
    );
  });

  it('refuses pools holding more than maxTotal questions together, and takes exactly maxTotal', () => {
    const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    assert.deepEqual(freezePools([pool(1), pool(1)], [ids('a', 3), ids('b', 2)], [], 5).problems, []);
    const over = freezePools([pool(1), pool(1)], [ids('a', 3), ids('b', 3)], [], 5).problems;
    assert.deepEqual(
      over.map((p) => p.path),
      ['pools'],
    );
    assert.match(over[0].message, /6 questions together; at most 5/);
  });

  it('counts toward maxTotal what is frozen, not the candidates before overlaps are taken out', () => {
    const { pools, problems } = freezePools(
      [pool(1), pool(1)],
      [
        ['a', 'b', 'c'],
        ['a', 'b', 'c', 'd'],
      ],
      ['a'],
      3,
    );
    assert.deepEqual(
      pools.map((p) => p.question_ids),
      [['b', 'c'], ['d']],
    );
    assert.deepEqual(problems, []);
  });

  it('freezes nothing and finds nothing wrong without pools', () => {
    assert.deepEqual(freezePools([], [], ['a'], 5_000), { pools: [], problems: [] });
  });
});

describe('seatShardCapacities', () => {
  it('splits max_uses so the capacities add up to it exactly, differing by at most one', () => {
    for (const maxUses of [1, 2, 5, 31, 32, 33, 100, 500, 999, 100_000]) {
      const capacities = seatShardCapacities(maxUses) as number[];
      assert.equal(
        capacities.reduce((a, b) => a + b, 0),
        maxUses,
        String(maxUses),
      );
      assert.ok(capacities.length <= MAX_SEAT_SHARDS && capacities.length <= maxUses);
      assert.ok(Math.max(...capacities) - Math.min(...capacities) <= 1);
      assert.ok(
        capacities.every((c) => c >= 1),
        'no shard is empty from the start',
      );
    }
  });

  it('spreads a class of 500 over the most shards, and an unlimited code over as many with no capacity', () => {
    assert.equal(seatShardCapacities(500).length, MAX_SEAT_SHARDS);
    assert.deepEqual(
      seatShardCapacities(null),
      Array.from({ length: MAX_SEAT_SHARDS }, () => null),
    );
    assert.deepEqual(seatShardCapacities(3), [1, 1, 1]);
  });

  it('refuses a max_uses that is not a positive integer', () => {
    assert.throws(() => seatShardCapacities(0), RangeError);
    assert.throws(() => seatShardCapacities(2.5), RangeError);
  });
});

describe('share code text', () => {
  it('has 13 characters of a 32-letter alphabet without I, L, O and U: at least 60 bits', () => {
    assert.equal(SHARE_CODE_ALPHABET.length, 32);
    assert.equal(new Set(SHARE_CODE_ALPHABET).size, 32);
    assert.doesNotMatch(SHARE_CODE_ALPHABET, /[ILOU]/);
    assert.equal(SHARE_CODE_LENGTH, 13);
    assert.ok(SHARE_CODE_BITS >= 60);
  });

  it('draws codes that are distinct and use every character about equally often', () => {
    const codes = Array.from({ length: 4000 }, generateShareCode);
    assert.equal(new Set(codes).size, codes.length);
    const counts = new Map<string, number>();
    for (const code of codes) {
      assert.equal(code.length, SHARE_CODE_LENGTH);
      for (const ch of code) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
    assert.deepEqual([...counts.keys()].sort().join(''), [...SHARE_CODE_ALPHABET].sort().join(''));
    // 52,000 characters, 1,625 expected of each: a chi-square far beyond chance (31 d.o.f., p < 1e-6 at ~85) means a bias.
    const expected = (4000 * SHARE_CODE_LENGTH) / 32;
    const chiSquare = [...counts.values()].reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
    assert.ok(chiSquare < 85, `chi-square ${chiSquare.toFixed(1)}`);
  });

  it('reads a typed code: any case, hyphens and spaces dropped, I and L as 1, O as 0', () => {
    assert.equal(canonicalShareCode('abcd-efgh-jkmnp'), 'ABCDEFGHJKMNP');
    assert.equal(canonicalShareCode(' ABCD EFGH JKMNP '), 'ABCDEFGHJKMNP');
    assert.equal(canonicalShareCode('OIL0000000000'), '0110000000000');
    assert.equal(canonicalShareCode('ABCDEFGHJKMN'), undefined, 'too short');
    assert.equal(canonicalShareCode('ABCDEFGHJKMNPQ'), undefined, 'too long');
    assert.equal(canonicalShareCode('ABCDEFGHJKMNU'), undefined, 'U is not in the alphabet');
    assert.equal(canonicalShareCode('ABCDEFGHJKMN!'), undefined);
  });
});

describe('documentSize', () => {
  it('counts as Firestore does: strings bytes + 1, numbers 8, booleans and null 1, field names bytes + 1', () => {
    assert.equal(valueSize('abc'), 4);
    assert.equal(valueSize('é'), 3);
    assert.equal(valueSize(1.5), 8);
    assert.equal(valueSize(true), 1);
    assert.equal(valueSize(null), 1);
    assert.equal(valueSize(['a', 'b']), 4);
    assert.equal(valueSize({ ab: 'x', c: 1 }), 3 + 2 + 2 + 8);
    // Firestore's own example: the name users/jeff/tasks/my_task_id is 6 + 5 + 6 + 11 + 16 = 44 bytes; a document adds 32.
    assert.equal(documentSize('users/jeff/tasks/my_task_id', {}), 6 + 5 + 6 + 11 + 16 + 32);
  });
});
