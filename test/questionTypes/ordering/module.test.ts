import assert from 'node:assert/strict';
import { longestIncreasing, ordering } from '../../../functions/src/questionTypes/ordering/module';
import { assertMarking } from '../cases';
import { assertRefusals } from '../refusals';

// Pure: an ordering question: the whole order, or Moodle's longest ordered subset ÷ items.

const key = { options: ['A', 'B', 'C', 'D'], correct_answer: '["A","B","C","D"]' };

describe('questionTypes/ordering mark, all or nothing (the default)', () => {
  assertMarking(ordering, key, [
    ['the right order earns the marks', {}, '["A","B","C","D"]', 1],
    ['compared as options are', {}, '["a"," B","c","D "]', 1],
    ['any other order is wrong', {}, '["A","B","D","C"]', 'wrong'],
    ['an item missing is wrong', {}, '["A","B","C",""]', 'wrong'],
    ['all blank earns nothing, charges nothing', {}, '["","","",""]', 0],
    ['an answer that cannot be read', {}, '["A","B"]', 0],
  ]);
});

describe('questionTypes/ordering mark, partial (longest ordered subset)', () => {
  assertMarking(ordering, { ...key, ordering_score: 'partial' }, [
    ['the right order earns the marks', {}, '["A","B","C","D"]', 1],
    ['one item moved: 3 of 4 in order', {}, '["B","C","D","A"]', { share: 0.75, wrong: 0.25 }],
    ['not adjacent still counts: A C D in order', {}, '["A","C","B","D"]', { share: 0.75, wrong: 0.25 }],
    ['reversed: any one item is a subset of 1', {}, '["D","C","B","A"]', { share: 0.25, wrong: 0.75 }],
    ['an item twice counts once', {}, '["A","A","B","C"]', { share: 0.75, wrong: 0.25 }],
    ['an unknown item counts nothing', {}, '["A","Z","C","D"]', { share: 0.75, wrong: 0.25 }],
  ]);

  it('longestIncreasing is the longest strictly increasing subsequence', () => {
    for (const [values, length] of [
      [[], 0],
      [[3], 1],
      [[0, 1, 2, 3], 4],
      [[3, 2, 1, 0], 1],
      [[1, 0, 3, 2, 4], 3],
      [[2, 2, 2], 1],
    ] as Array<[number[], number]>)
      assert.equal(longestIncreasing(values), length, JSON.stringify(values));
  });
});

const valid = {
  question_type: 'ordering',
  question_text: 'Put the planets in order from the Sun',
  marks: 2,
  difficulty: 'easy',
  options: ['Mercury', 'Venus', 'Earth'],
};

describe('questionTypes/ordering schema and view', () => {
  assertRefusals(valid, [
    ['one item', { options: ['Mercury'] }, 'options', /at least 2|>=2/i],
    ['an item twice', { options: ['Mercury', 'Venus', 'mercury'] }, 'options.2', /Duplicates option 1/],
    ['an unknown scoring', { ordering_score: 'some' }, 'ordering_score', /all_or_nothing|partial/],
    ['a correct_answer (its key is the order)', { correct_answer: 'Mercury' }, '', /the order of its options/],
  ]);

  it('shows a taker the items shuffled the same way on every read, whatever the test’s shuffle', () => {
    const question = {
      id: 'q1',
      question_text: 'Order',
      options: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'],
      tolerance: null,
    };
    const first = ordering.takerView(question, 'attempt-1');
    assert.deepEqual(ordering.takerView(question, 'attempt-1'), first);
    assert.deepEqual([...first.options].sort(), question.options);
    const others = ['attempt-2', 'attempt-3', 'attempt-4'].map((seed) => ordering.takerView(question, seed).options);
    assert.ok(
      others.some((o) => o.join() !== question.options.join()),
      'shuffled for some attempt',
    );
  });
});
