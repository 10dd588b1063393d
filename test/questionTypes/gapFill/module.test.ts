import assert from 'node:assert/strict';
import { gapFill } from '../../../functions/src/questionTypes/gapFill/module';
import type { StoredGap } from '../../../functions/src/questionTypes';
import { assertMarking } from '../cases';
import { assertRefusals } from '../refusals';

// Pure: a gap fill question: Σ weightᵢ × creditᵢ ÷ Σ weights (Moodle's cloze), and its schema's refusals.

const gaps: StoredGap[] = [
  {
    kind: 'text',
    answers: [
      { answer: 'Whisky', credit: 100 },
      { answer: 'Wiskey', credit: 50 },
    ],
    weight: 1,
  },
  {
    kind: 'numeric',
    answers: [
      { answer: '1701', credit: 100 },
      { answer: '1701', credit: 50, tolerance: 20 },
    ],
    weight: 2,
  },
  { kind: 'select', options: ['Marge', 'Lisa', 'Bart'], answers: [{ answer: 'Lisa', credit: 100 }], weight: 1 },
];
const key = { gaps, correct_answer: '["Whisky","1701","Lisa"]' };

describe('questionTypes/gapFill mark: per gap, by weight', () => {
  assertMarking(gapFill, key, [
    ['every gap right earns the marks', {}, '["whisky","1701","lisa"]', 1],
    ['a numeric gap within its tolerance, with a decimal comma', {}, '["Whisky","1701,0","Lisa"]', 1],
    ['an alternative earns its credit', {}, '["Wiskey","1701","Lisa"]', 0.875],
    ['a numeric alternative within its own tolerance', {}, '["Whisky","1690","Lisa"]', 0.75],
    ['a weighted gap blank', {}, '["Whisky","","Lisa"]', 0.5],
    ['a wrong gap is a wrong part, by its weight', {}, '["Whisky","2000","Lisa"]', { share: 0.5, wrong: 0.5 }],
    ['a choice not among the options is wrong', {}, '["Whisky","1701","Homer"]', { share: 0.75, wrong: 0.25 }],
    ['all blank earns nothing', {}, '["","",""]', 0],
    ['an answer of another length cannot be read', {}, '["Whisky","1701"]', 0],
    [
      'case counts on a case-sensitive text gap',
      { gaps: [{ ...gaps[0], case_sensitive: true }, gaps[1], gaps[2]] },
      '["whisky","1701","Lisa"]',
      { share: 0.75, wrong: 0.25 },
    ],
  ]);
});

const valid = {
  question_type: 'gap_fill',
  question_text: 'The [[1]] of France is [[2]]; it has [[3]] million people.',
  marks: 3,
  difficulty: 'medium',
  gaps: [
    { kind: 'drag', answers: [{ answer: 'capital', credit: 100 }] },
    { kind: 'select', options: ['Paris', 'Lyon'], answers: [{ answer: 'paris', credit: 100 }] },
    { kind: 'numeric', answers: [{ answer: '2.1', credit: 100, tolerance: 0.2 }], weight: 2 },
  ],
  drag_options: ['capital', 'port'],
};

describe('questionTypes/gapFill schema', () => {
  assertRefusals(valid, [
    [
      'a gap not in the text',
      { question_text: 'The [[1]] of France is [[2]].' },
      'question_text',
      /Gap 3 is not in the text/,
    ],
    [
      'a gap written twice',
      { question_text: '[[1]] [[2]] [[3]] [[1]]' },
      'question_text',
      /\[\[1\]\] is written more than once/,
    ],
    ['a mark naming no gap', { question_text: '[[1]] [[2]] [[3]] [[4]]' }, 'question_text', /\[\[4\]\] names no gap/],
    [
      'a gap with no full-credit answer',
      { gaps: [valid.gaps[0], valid.gaps[1], { kind: 'numeric', answers: [{ answer: '2', credit: 50 }] }] },
      'gaps.2.answers',
      /credit 100/,
    ],
    [
      'a gap with no answer',
      { gaps: [valid.gaps[0], valid.gaps[1], { kind: 'text', answers: [] }] },
      'gaps.2.answers',
      /at least 1|>=1/i,
    ],
    [
      'a numeric answer that is not a number',
      { gaps: [valid.gaps[0], valid.gaps[1], { kind: 'numeric', answers: [{ answer: 'two', credit: 100 }] }] },
      'gaps.2.answers.0.answer',
      /finite number/,
    ],
    [
      'a select answer not among its options',
      {
        gaps: [
          valid.gaps[0],
          { kind: 'select', options: ['Paris', 'Lyon'], answers: [{ answer: 'Nice', credit: 100 }] },
          valid.gaps[2],
        ],
      },
      'gaps.1.answers.0.answer',
      /not one of the gap’s options/,
    ],
    [
      'a select gap without options',
      { gaps: [valid.gaps[0], { kind: 'select', answers: [{ answer: 'Paris', credit: 100 }] }, valid.gaps[2]] },
      'gaps.1.options',
      /Required for a select gap/,
    ],
    [
      'a drag answer not among drag_options',
      { drag_options: ['port', 'city'] },
      'gaps.0.answers.0.answer',
      /not one of the drag_options/,
    ],
    [
      'drag gaps without drag_options',
      { drag_options: undefined },
      'drag_options',
      /Required when a gap is a drag gap/,
    ],
    [
      'a tolerance on a text gap',
      {
        gaps: [
          { kind: 'text', answers: [{ answer: 'capital', credit: 100, tolerance: 1 }] },
          valid.gaps[1],
          valid.gaps[2],
        ],
        drag_options: undefined,
      },
      'gaps.0.answers.0.tolerance',
      /numeric gap/,
    ],
    [
      'an unknown kind',
      { gaps: [{ kind: 'slider', answers: [{ answer: '1', credit: 100 }] }, valid.gaps[1], valid.gaps[2]] },
      'gaps.0.kind',
      /text|select/,
    ],
  ]);

  it('stores each gap with only its kind’s fields, its weight, and the key as each first full-credit answer', () => {
    const input = gapFill.input.parse(valid);
    assert.equal(gapFill.normalize(input).correct_answer, '["capital","Paris","2.1"]');
    assert.deepEqual(gapFill.normalizeExtras(input), {
      gaps: [
        { kind: 'drag', answers: [{ answer: 'capital', credit: 100 }], weight: 1 },
        { kind: 'select', options: ['Paris', 'Lyon'], answers: [{ answer: 'Paris', credit: 100 }], weight: 1 },
        { kind: 'numeric', answers: [{ answer: '2.1', credit: 100, tolerance: 0.2 }], weight: 2 },
      ],
      drag_options: ['capital', 'port'],
    });
  });

  it('shows a taker each gap’s kind and a select’s choices, never its answers', () => {
    const stored = gapFill.normalizeExtras(gapFill.input.parse(valid));
    const view = gapFill.takerView({ id: 'q', question_text: 'x', options: [], tolerance: null, ...stored }, 'seed');
    assert.deepEqual(view, {
      options: [],
      gaps: [{ kind: 'drag' }, { kind: 'select', options: ['Paris', 'Lyon'] }, { kind: 'numeric' }],
      drag_options: ['capital', 'port'],
      drag_reusable: false,
    });
  });

  it('takes a corrected key into each gap’s first full-credit answer, keeping the others', () => {
    const input = gapFill.inputWithKey({ ...valid, gaps: gaps }, '["Whiskey","","Bart"]') as { gaps: StoredGap[] };
    assert.deepEqual(input.gaps[0].answers, [
      { answer: 'Whiskey', credit: 100 },
      { answer: 'Wiskey', credit: 50 },
    ]);
    assert.deepEqual(input.gaps[1], gaps[1]);
    assert.deepEqual(input.gaps[2].answers, [{ answer: 'Bart', credit: 100 }]);
    assert.deepEqual(gapFill.inputWithKey({ ...valid, gaps }, 'not json'), {
      ...valid,
      gaps,
      correct_answer: 'not json',
    });
  });
});
