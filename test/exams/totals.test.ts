import assert from 'node:assert/strict';
import { poolMarksRange, rangeText, totalMarksRange, versionPoolMarks } from '../../functions/src/exams/totals';

// The totals a version's attempts can have, without Firestore: the fixed marks plus, per pool, the
// sum of its draw's smallest and of its largest marks.

describe('totalMarksRange', () => {
  const cases: Array<{
    name: string;
    fixed: number;
    pools: Array<{ draw: number; marks: number[] }>;
    min: number;
    max: number;
    text: string;
  }> = [
    { name: 'no pools: the fixed marks', fixed: 5, pools: [], min: 5, max: 5, text: '5' },
    {
      name: 'a pool of equal marks: one number',
      fixed: 5,
      pools: [{ draw: 2, marks: [1, 1, 1] }],
      min: 7,
      max: 7,
      text: '7',
    },
    {
      name: 'a pool of mixed marks (the issue: 8 or 9)',
      fixed: 5,
      pools: [{ draw: 2, marks: [2, 2, 1, 3] }],
      min: 8,
      max: 10,
      text: '8–10',
    },
    { name: 'drawing 1 of 1 and 2 marks', fixed: 7, pools: [{ draw: 1, marks: [1, 2] }], min: 8, max: 9, text: '8–9' },
    {
      name: 'two pools add their ranges',
      fixed: 0,
      pools: [
        { draw: 1, marks: [1, 3] },
        { draw: 2, marks: [0.5, 0.5, 2] },
      ],
      min: 2,
      max: 5.5,
      text: '2–5.5',
    },
    {
      name: 'a draw of the whole pool: one number',
      fixed: 1,
      pools: [{ draw: 3, marks: [1, 2, 3] }],
      min: 7,
      max: 7,
      text: '7',
    },
    {
      name: 'a draw above the pool takes it whole',
      fixed: 0,
      pools: [{ draw: 9, marks: [1, 2] }],
      min: 3,
      max: 3,
      text: '3',
    },
    {
      name: 'decimals rounded as scores are',
      fixed: 0.1,
      pools: [{ draw: 2, marks: [0.2, 0.1, 0.7] }],
      min: 0.4,
      max: 1,
      text: '0.4–1',
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const range = totalMarksRange(c.fixed, c.pools);
      assert.deepEqual(range, { min: c.min, max: c.max });
      assert.equal(rangeText(range), c.text);
    });

  it('a pool on its own: the least and the most its draw gives', () => {
    assert.deepEqual(poolMarksRange({ draw: 2, marks: [3, 1, 2] }), { min: 3, max: 5 });
    assert.deepEqual(poolMarksRange({ draw: 0, marks: [3] }), { min: 0, max: 0 });
  });
});

describe('versionPoolMarks', () => {
  it('reads the marks a version keeps beside its pools’ ids, or says none when one pool was frozen without them', () => {
    assert.deepEqual(versionPoolMarks([{ draw: 1, question_ids: ['a', 'b'], question_marks: [1, 2] }]), [
      { draw: 1, marks: [1, 2] },
    ]);
    assert.deepEqual(versionPoolMarks([]), []);
    assert.equal(versionPoolMarks([{ draw: 1, question_ids: ['a', 'b'] }]), undefined);
    assert.equal(versionPoolMarks([{ draw: 1, question_ids: ['a', 'b'], question_marks: [1] }]), undefined);
  });
});
