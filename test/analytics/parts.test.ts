import assert from 'node:assert/strict';
import {
  addSums,
  emptySums,
  negatedSums,
  sameSums,
  submissionContribution,
  versionStatistics,
  type StatQuestion,
} from '../../functions/src/analytics/statistics';

// Pure: the figures of each part of a type with parts, kept in the running sums as every other
// figure is (added per submit, taken back exactly, the same whatever the order).

const matching: StatQuestion = {
  id: 'm',
  question_text: 'Capitals',
  question_type: 'matching',
  options: ['Paris', 'Rome', 'Oslo'],
  stems: ['France', 'Italy'],
  correct_answer: '["Paris","Rome"]',
  marks: 2,
  difficulty: 'easy',
};
const gapFill: StatQuestion = {
  id: 'g',
  question_text: 'The [[1]] is [[2]].',
  question_type: 'gap_fill',
  options: [],
  gaps: [
    { kind: 'select', options: ['sky', 'sea'], answers: [{ answer: 'sky', credit: 100 }], weight: 1 },
    {
      kind: 'text',
      answers: [
        { answer: 'blue', credit: 100 },
        { answer: 'azure', credit: 50 },
      ],
      weight: 1,
    },
  ],
  correct_answer: '["sky","blue"]',
  marks: 2,
  difficulty: 'medium',
};
const questions = [matching, gapFill];

function submit(answers: Record<string, string>, awarded: [number, number]) {
  return submissionContribution(questions, {
    score: awarded[0] + awarded[1],
    total_marks: 4,
    automatic: false,
    results: [
      { question_id: 'm', answered: 'm' in answers, correct: awarded[0] === 2, marks_awarded: awarded[0] },
      { question_id: 'g', answered: 'g' in answers, correct: awarded[1] === 2, marks_awarded: awarded[1] },
    ],
    answers,
    seed: 'attempt',
  });
}

describe('analytics/statistics per part of a type with parts', () => {
  const attempts = [
    submit({ m: '["Paris","Rome"]', g: '["sky","azure"]' }, [2, 1.5]),
    submit({ m: '["Rome","Rome"]', g: '["sea",""]' }, [1, 0]),
    submit({ m: '["Paris","Madrid"]' }, [1, 0]),
  ];
  const sums = attempts.reduce((total, add) => addSums(total, add), emptySums());

  it('gives each stem its facility and the options chosen for it', () => {
    const [stats] = versionStatistics(sums, questions, 4, 0).questions;
    assert.deepEqual(stats.parts, [
      {
        label: 'France',
        times_answered: 3,
        facility_index: 0.6667,
        option_counts: [
          { option: 'Paris', count: 2 },
          { option: 'Rome', count: 1 },
          { option: 'Oslo', count: 0 },
        ],
        other_choices: 0,
      },
      {
        label: 'Italy',
        times_answered: 3,
        facility_index: 0.6667,
        option_counts: [
          { option: 'Paris', count: 0 },
          { option: 'Rome', count: 2 },
          { option: 'Oslo', count: 0 },
        ],
        other_choices: 1,
      },
    ]);
  });

  it('gives each gap its facility (partial credit as its share), a select gap its choices, a typed gap none', () => {
    const stats = versionStatistics(sums, questions, 4, 0).questions[1];
    assert.deepEqual(
      stats.parts?.map((p) => [
        p.label,
        p.times_answered,
        p.facility_index,
        p.option_counts?.map((o) => o.count) ?? null,
      ]),
      [
        ['Gap 1', 2, 0.3333, [1, 1]],
        ['Gap 2', 1, 0.1667, null],
      ],
    );
  });

  it('takes an attempt’s parts back exactly (a regrade, a repair), in any order', () => {
    const without = addSums(sums, negatedSums(attempts[1]));
    const again = [attempts[2], attempts[0]].reduce((total, add) => addSums(total, add), emptySums());
    assert.ok(sameSums(without, again));
  });

  it('leaves the types without parts as they were: no parts field', () => {
    const choice: StatQuestion = {
      id: 'c',
      question_text: 'Q',
      question_type: 'multiple_choice',
      options: ['a', 'b'],
      correct_answer: 'a',
      marks: 1,
      difficulty: 'easy',
    };
    const add = submissionContribution([choice], {
      score: 1,
      total_marks: 1,
      automatic: false,
      results: [{ question_id: 'c', answered: true, correct: true, marks_awarded: 1 }],
      answers: { c: 'a' },
    });
    assert.equal(add.q['0'].p, undefined);
    assert.equal(versionStatistics(add, [choice], 1, 0).questions[0].parts, undefined);
  });
});
