import assert from 'node:assert/strict';
import { orderForAttempt } from '../../functions/src/attempts/shuffle';

// Pure: the per-attempt order of questions and options, no emulator needed.

type Q = { id: string; options: string[]; marks: number };
const makeQuestions = (count: number, optionCount = 4): Q[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `q${i}`,
    options: Array.from({ length: optionCount }, (_, k) => `q${i}-o${k}`),
    marks: i + 1,
  }));
const ids = (qs: Q[]) => qs.map((q) => q.id).join(',');

describe('attempts/shuffle orderForAttempt', () => {
  it('gives the same questions and options order every time for the same seed', () => {
    const questions = makeQuestions(16);
    const first = orderForAttempt('attempt-1', questions);
    for (let i = 0; i < 5; i++) assert.deepEqual(orderForAttempt('attempt-1', makeQuestions(16)), first);
  });

  it('returns a permutation: every question once, each with all its options once, other fields kept', () => {
    const questions = makeQuestions(30, 6);
    const ordered = orderForAttempt('perm', questions);
    assert.deepEqual(ordered.map((q) => q.id).sort(), questions.map((q) => q.id).sort());
    for (const q of ordered) {
      const original = questions.find((o) => o.id === q.id)!;
      assert.deepEqual([...q.options].sort(), [...original.options].sort());
      assert.equal(q.marks, original.marks);
    }
  });

  it('leaves its input untouched and returns copies (new question objects and option arrays)', () => {
    const questions = makeQuestions(10);
    const snapshot = structuredClone(questions);
    const ordered = orderForAttempt('copy', questions);
    assert.deepEqual(questions, snapshot);
    for (const q of ordered) {
      const original = questions.find((o) => o.id === q.id)!;
      assert.notEqual(q, original);
      assert.notEqual(q.options, original.options);
    }
  });

  it('gives different orders for different seeds (20 seeds, at least 15 distinct question orders)', () => {
    const questions = makeQuestions(16);
    const orders = new Set(Array.from({ length: 20 }, (_, i) => ids(orderForAttempt(`seed-${i}`, questions))));
    assert.ok(orders.size >= 15, `only ${orders.size} distinct orders`);
  });

  it('shuffles options too, per question (not every question shares one option order)', () => {
    const ordered = orderForAttempt('options', makeQuestions(16));
    const patterns = new Set(ordered.map((q) => q.options.map((o) => o.split('-o')[1]).join('')));
    assert.ok(patterns.size > 1);
  });

  it('puts each question first about equally often over many seeds (chi-square, 8 questions, 4000 seeds)', () => {
    const questions = makeQuestions(8);
    const seeds = 4000;
    const counts = new Map<string, number>(questions.map((q) => [q.id, 0]));
    for (let s = 0; s < seeds; s++) {
      const first = orderForAttempt(`uniform-${s}`, questions)[0].id;
      counts.set(first, counts.get(first)! + 1);
    }
    const expected = seeds / questions.length;
    const chiSquare = [...counts.values()].reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    // 7 degrees of freedom: p = 0.001 at 24.3. Deterministic seeds, so this cannot flake.
    assert.ok(chiSquare < 24.3, `chi-square ${chiSquare.toFixed(1)} for ${JSON.stringify([...counts])}`);
  });

  it('handles no questions, one question and a question with no options', () => {
    assert.deepEqual(orderForAttempt('empty', []), []);
    assert.deepEqual(orderForAttempt('one', [{ id: 'x', options: [] }]), [{ id: 'x', options: [] }]);
  });
});
