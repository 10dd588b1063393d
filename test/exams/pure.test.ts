import assert from 'node:assert/strict';
import { applyMove, publishProblems } from '../../functions/src/exams/lifecycle';
import { MAX_SEAT_SHARDS, seatShardCapacities } from '../../functions/src/exams/seats';
import { canonicalShareCode, generateShareCode, SHARE_CODE_ALPHABET, SHARE_CODE_BITS, SHARE_CODE_LENGTH } from '../../functions/src/exams/shareCodeText';
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
    assert.deepEqual(problems.map((p) => p.path), ['question_ids', 'timer']);
    const missing = publishProblems({ timer: 5, question_ids: ['a', 'b', 'c'] }, new Set(['b']));
    assert.deepEqual(missing, [{ path: 'question_ids', message: 'These questions no longer exist in this organization: a, c', question_ids: ['a', 'c'] }]);
  });
});

describe('seatShardCapacities', () => {
  it('splits max_uses so the capacities add up to it exactly, differing by at most one', () => {
    for (const maxUses of [1, 2, 5, 31, 32, 33, 100, 500, 999, 100_000]) {
      const capacities = seatShardCapacities(maxUses) as number[];
      assert.equal(capacities.reduce((a, b) => a + b, 0), maxUses, String(maxUses));
      assert.ok(capacities.length <= MAX_SEAT_SHARDS && capacities.length <= maxUses);
      assert.ok(Math.max(...capacities) - Math.min(...capacities) <= 1);
      assert.ok(capacities.every((c) => c >= 1), 'no shard is empty from the start');
    }
  });

  it('spreads a class of 500 over the most shards, and an unlimited code over as many with no capacity', () => {
    assert.equal(seatShardCapacities(500).length, MAX_SEAT_SHARDS);
    assert.deepEqual(seatShardCapacities(null), Array.from({ length: MAX_SEAT_SHARDS }, () => null));
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
