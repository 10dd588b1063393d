import assert from 'node:assert/strict';
import fc from 'fast-check';
import { universePositions } from '../../functions/src/attempts/rules';
import {
  addSums,
  bandOf,
  chosenOptions,
  emptySums,
  negatedSums,
  sameSums,
  submissionContribution,
  versionStatistics,
  type StatQuestion,
  type SubmittedAttemptFacts,
  type VersionSums,
} from '../../functions/src/analytics/statistics';

// Pure: the item and test statistics, no emulator needed. Every expected figure
// is computed here from the raw mark matrix by the textbook definitions below
// (two-pass means and deviations), never by the module's own helpers or copied
// from its output. The module rounds what it reports to 4 decimals.

const TOLERANCE = 1e-4;

// ---------------------------------------------------------------- textbook definitions

const sum = (xs: number[]): number => xs.reduce((s, x) => s + x, 0);
const mean = (xs: number[]): number => sum(xs) / xs.length;
/** Sample variance, two passes: Σ(x − mean)² / (n − 1). */
const variance = (xs: number[]): number => {
  const m = mean(xs);
  return sum(xs.map((x) => (x - m) ** 2)) / (xs.length - 1);
};
/** Pearson's r = Σ(x − x̄)(y − ȳ) / √(Σ(x − x̄)² · Σ(y − ȳ)²). */
const pearson = (xs: number[], ys: number[]): number => {
  const mx = mean(xs);
  const my = mean(ys);
  const cross = sum(xs.map((x, i) => (x - mx) * (ys[i] - my)));
  return cross / Math.sqrt(sum(xs.map((x) => (x - mx) ** 2)) * sum(ys.map((y) => (y - my) ** 2)));
};
/** Cronbach's alpha = k/(k − 1) · (1 − Σ Var(item) / Var(total)). */
const alpha = (items: number[][], totals: number[]): number => {
  const k = items.length;
  return (k / (k - 1)) * (1 - sum(items.map(variance)) / variance(totals));
};
/** Ten percentage bands [0,10) … [80,90), [90,100]. */
const bandCounts = (percentages: number[]): number[] =>
  Array.from(
    { length: 10 },
    (_, b) => percentages.filter((p) => p >= b * 10 && (b === 9 ? p <= 100 : p < b * 10 + 10)).length,
  );

const close = (actual: number | null | undefined, expected: number, label: string): void => {
  assert.equal(typeof actual, 'number', `${label}: expected a number, got ${actual}`);
  assert.ok(Math.abs((actual as number) - expected) <= TOLERANCE, `${label}: ${actual} differs from ${expected}`);
};

// ---------------------------------------------------------------- building sums from a mark table

const question = (over: Partial<StatQuestion> & Pick<StatQuestion, 'id' | 'question_type'>): StatQuestion => ({
  question_text: `Text of ${over.id}`,
  options: [],
  marks: 1,
  difficulty: 'medium',
  ...over,
});

/** One cell of the table: the answer that counted (undefined: not answered) and the mark it earned. */
type Cell = [answer: string | undefined, mark: number];

/** The facts the scoring would record for one attempt whose cells are `row` (score = raw total raised to 0). */
const facts = (questions: StatQuestion[], row: Cell[], automatic = false): SubmittedAttemptFacts => {
  const total = sum(row.map(([, mark]) => mark));
  const answers: Record<string, string> = {};
  row.forEach(([answer], i) => {
    if (answer !== undefined) answers[questions[i].id] = answer;
  });
  return {
    score: Math.max(0, total),
    total_marks: sum(questions.map((q) => q.marks)),
    automatic,
    results: row.map(([answer, mark], i) => ({
      question_id: questions[i].id,
      answered: answer !== undefined,
      correct: mark === questions[i].marks,
      marks_awarded: mark,
    })),
    answers,
  };
};

/** The running sums of the table's attempts, added in the given order of rows. */
const sumsOf = (questions: StatQuestion[], rows: Cell[][], order = rows.map((_, i) => i)): VersionSums => {
  let sums = emptySums();
  // Row 2 (index 1) stands for an attempt submitted automatically at the deadline.
  for (const i of order) sums = addSums(sums, submissionContribution(questions, facts(questions, rows[i], i === 1)));
  return sums;
};

const column = (rows: Cell[][], i: number): number[] => rows.map((row) => row[i][1]);
const rawTotals = (rows: Cell[][]): number[] => rows.map((row) => sum(row.map(([, mark]) => mark)));

/** Every number in a report, with its path (to check none is NaN or infinite). */
const numbersIn = (value: unknown, path = ''): Array<[string, number]> => {
  if (typeof value === 'number') return [[path, value]];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => numbersIn(v, `${path}.${k}`));
};

// ---------------------------------------------------------------- the worked example

// Negative marking at a ratio of 0.25: a wrong answer costs a quarter of the question's marks.
const capital = question({
  id: 'capital',
  question_type: 'multiple_choice',
  options: ['Paris', 'Rome', 'Berlin', 'Madrid'],
  marks: 2,
  difficulty: 'easy',
});
const primes = question({
  id: 'primes',
  question_type: 'multiple_select',
  options: ['a', 'b', 'c', 'd'],
  marks: 3,
  difficulty: 'medium',
});
const author = question({ id: 'author', question_type: 'short_answer', marks: 1, difficulty: 'hard' });
const root = question({ id: 'root', question_type: 'numeric', marks: 4, difficulty: 'medium' });
const QUESTIONS = [capital, primes, author, root];
const TOTAL_MARKS = 10;

// One row per attempt, one cell per question: [answer that counted, mark awarded].
//   capital (multiple_choice, 2) · primes (multiple_select, 3) · author (short_answer, 1) · root (numeric, 4)
// Row   raw total T   score   %
//  1        10          10    100
//  2        −2.25        0      0   (negative raw total, score raised to 0; submitted automatically)
//  3         2.25        2.25  22.5
//  4         6.25        6.25  62.5
//  5         7           7     70   (exactly on a band edge)
//  6         1.75        1.75  17.5
const ROWS: Cell[][] = [
  [
    ['Paris', 2],
    ['a|c', 3],
    ['Hugo', 1],
    ['12', 4],
  ],
  [
    ['Rome', -0.5],
    ['a', -0.75],
    [undefined, 0],
    ['13', -1],
  ],
  [
    [' paris ', 2],
    ['A|b|C', -0.75],
    ['hugo', 1],
    [undefined, 0],
  ],
  [
    ['Lyon', -0.5],
    ['c|a', 3],
    ['Zola', -0.25],
    ['12.0', 4],
  ],
  [
    ['PARIS', 2],
    [undefined, 0],
    ['Hugo', 1],
    ['12', 4],
  ],
  [
    [undefined, 0],
    ['a|c', 3],
    ['Dumas', -0.25],
    ['11', -1],
  ],
];
const N = ROWS.length;
const IN_PROGRESS = 2; // two attempts are still in progress (counted when read, not kept in the sums)
const STARTED = 6 + IN_PROGRESS;

describe('analytics/statistics worked example (6 attempts × 4 questions, negative marking)', () => {
  const sums = sumsOf(QUESTIONS, ROWS);
  const stats = versionStatistics(sums, QUESTIONS, TOTAL_MARKS, IN_PROGRESS);
  const totals = rawTotals(ROWS);
  const scores = totals.map((t) => Math.max(0, t));

  it('the example exercises what it claims: a negative raw total whose score is raised to 0', () => {
    assert.deepEqual(totals, [10, -2.25, 2.25, 6.25, 7, 1.75]);
    assert.equal(scores[1], 0);
  });

  it('counts attempts started, completed, still in progress and submitted automatically', () => {
    assert.equal(stats.total_attempts, STARTED);
    assert.equal(stats.completed, N);
    assert.equal(stats.in_progress, STARTED - N);
    assert.equal(stats.auto_submitted, 1);
  });

  it('averages the scores (raised to 0), not the raw totals, and as a percentage of the total marks', () => {
    close(stats.average_score, mean(scores), 'average_score');
    close(stats.average_percentage, (mean(scores) / TOTAL_MARKS) * 100, 'average_percentage');
  });

  it('reports the sample standard deviation (n − 1) of the scores', () => {
    close(stats.standard_deviation, Math.sqrt(variance(scores)), 'standard_deviation');
  });

  it('spreads the scores over ten percentage bands, 100 % in the top band and an edge in the band it opens', () => {
    const expected = bandCounts(scores.map((s) => (s / TOTAL_MARKS) * 100));
    assert.deepEqual(
      stats.score_distribution.map((b) => b.count),
      expected,
    );
    assert.deepEqual(expected, [1, 1, 1, 0, 0, 0, 1, 1, 0, 1]);
    assert.deepEqual(
      stats.score_distribution.map((b) => [b.from_percent, b.to_percent]),
      Array.from({ length: 10 }, (_, b) => [b * 10, b * 10 + 10]),
    );
  });

  it("computes Cronbach's alpha from the item variances and the variance of the raw totals (unclamped)", () => {
    const items = QUESTIONS.map((_, i) => column(ROWS, i));
    close(stats.cronbach_alpha, alpha(items, totals), 'cronbach_alpha');
    // The clamped scores would give another figure: the raw totals are what the formula needs.
    assert.ok(Math.abs(alpha(items, totals) - alpha(items, scores)) > 10 * TOLERANCE);
  });

  it('gives each question its mean mark and facility index (mean / maximum marks)', () => {
    QUESTIONS.forEach((q, i) => {
      const item = stats.questions[i];
      close(item.mean_mark, mean(column(ROWS, i)), `${q.id} mean_mark`);
      close(item.facility_index, mean(column(ROWS, i)) / q.marks, `${q.id} facility_index`);
    });
  });

  it("gives each question Moodle's discrimination index: 100 × Pearson r of its mark with the rest of the test", () => {
    QUESTIONS.forEach((q, i) => {
      const x = column(ROWS, i);
      const rest = totals.map((t, a) => t - x[a]);
      close(stats.questions[i].discrimination_index, 100 * pearson(x, rest), `${q.id} discrimination_index`);
    });
  });

  it('counts per question how often it was answered and answered correctly', () => {
    QUESTIONS.forEach((q, i) => {
      const cells = ROWS.map((row) => row[i]);
      assert.equal(stats.questions[i].times_answered, cells.filter(([answer]) => answer !== undefined).length, q.id);
      assert.equal(stats.questions[i].times_correct, cells.filter(([, mark]) => mark === q.marks).length, q.id);
    });
  });

  it('describes each question by its position (from 1), id, text, type, difficulty and marks', () => {
    assert.deepEqual(
      stats.questions.map((s) => [s.position, s.question_id, s.question_text, s.question_type, s.difficulty, s.marks]),
      QUESTIONS.map((q, i) => [i + 1, q.id, q.question_text, q.question_type, q.difficulty, q.marks]),
    );
  });

  it('counts each option of a multiple_choice question once per answer, whatever its case and spacing, and text that is no option apart', () => {
    // Paris: rows 1, 3 (" paris "), 5 ("PARIS"); Rome: row 2; "Lyon" is no option.
    assert.deepEqual(stats.questions[0].option_counts, [
      { option: 'Paris', count: 3 },
      { option: 'Rome', count: 1 },
      { option: 'Berlin', count: 0 },
      { option: 'Madrid', count: 0 },
    ]);
    assert.equal(stats.questions[0].other_choices, 1);
  });

  it('counts every option chosen in a multiple_select answer', () => {
    // a: rows 1, 2, 3, 4, 6; b: row 3; c: rows 1, 3, 4, 6.
    assert.deepEqual(stats.questions[1].option_counts, [
      { option: 'a', count: 5 },
      { option: 'b', count: 1 },
      { option: 'c', count: 4 },
      { option: 'd', count: 0 },
    ]);
    assert.equal(stats.questions[1].other_choices, 0);
  });

  it('has no option counts for free-text questions (null, not an empty list)', () => {
    for (const i of [2, 3]) {
      assert.equal(stats.questions[i].option_counts, null);
      assert.equal(stats.questions[i].other_choices, null);
    }
  });

  it('analyses difficulty as correct / answered over the questions of each level', () => {
    const expected: Record<string, { questions: number; answered: number; correct: number; correct_rate: number }> = {};
    QUESTIONS.forEach((q, i) => {
      const cells = ROWS.map((row) => row[i]);
      const level = (expected[q.difficulty] ??= { questions: 0, answered: 0, correct: 0, correct_rate: 0 });
      level.questions += 1;
      level.answered += cells.filter(([answer]) => answer !== undefined).length;
      level.correct += cells.filter(([, mark]) => mark === q.marks).length;
    });
    assert.deepEqual(Object.keys(stats.difficulty_analysis).sort(), Object.keys(expected).sort());
    for (const [level, figures] of Object.entries(expected)) {
      const got = stats.difficulty_analysis[level];
      assert.deepEqual(
        [got.questions, got.answered, got.correct],
        [figures.questions, figures.answered, figures.correct],
        level,
      );
      close(got.correct_rate, figures.correct / figures.answered, `${level} correct_rate`);
    }
    // medium = primes + root: answered 5 + 5, correct 3 + 3.
    assert.deepEqual(stats.difficulty_analysis.medium, { questions: 2, answered: 10, correct: 6, correct_rate: 0.6 });
  });

  it('reports every figure rounded to at most 4 decimals', () => {
    for (const [path, value] of numbersIn(stats))
      assert.ok(Math.abs(value * 1e4 - Math.round(value * 1e4)) < 1e-6, `${path} = ${value}`);
  });

  it('gives the same statistics whatever order the attempts were added in, or however they were split over shards', () => {
    const shuffled = sumsOf(QUESTIONS, ROWS, [4, 1, 5, 0, 3, 2]);
    assert.ok(sameSums(shuffled, sums));
    assert.deepEqual(versionStatistics(shuffled, QUESTIONS, TOTAL_MARKS, IN_PROGRESS), stats);
    // Three shards, each the sum of some attempts, then added together.
    const shards = [
      [0, 3],
      [1, 4],
      [2, 5],
    ].map((part) => sumsOf(QUESTIONS, ROWS, part));
    const merged = shards.reduce((all, shard) => addSums(all, shard), emptySums());
    assert.ok(sameSums(merged, sums));
    assert.deepEqual(versionStatistics(merged, QUESTIONS, TOTAL_MARKS, IN_PROGRESS), stats);
  });
});

// ---------------------------------------------------------------- undefined measures

describe('analytics/statistics undefined measures', () => {
  const noNaN = (stats: object) => {
    for (const [path, value] of numbersIn(stats)) assert.ok(Number.isFinite(value), `${path} = ${value}`);
  };

  it('with no attempt submitted, every measure is null (not 0, not NaN) and every count 0', () => {
    const stats = versionStatistics(emptySums(), QUESTIONS, TOTAL_MARKS, 1);
    assert.deepEqual([stats.total_attempts, stats.completed, stats.in_progress], [1, 0, 1]);
    assert.equal(stats.average_score, null);
    assert.equal(stats.average_percentage, null);
    assert.equal(stats.standard_deviation, null);
    assert.equal(stats.cronbach_alpha, null);
    for (const item of stats.questions) {
      assert.deepEqual(
        [item.mean_mark, item.facility_index, item.discrimination_index],
        [null, null, null],
        item.question_id,
      );
      assert.deepEqual([item.times_answered, item.times_correct], [0, 0]);
    }
    assert.deepEqual(
      stats.questions[0].option_counts?.map((o) => o.count),
      [0, 0, 0, 0],
    );
    assert.equal(stats.questions[0].other_choices, 0);
    assert.deepEqual(
      stats.score_distribution.map((b) => b.count),
      Array(10).fill(0),
    );
    for (const figures of Object.values(stats.difficulty_analysis)) assert.equal(figures.correct_rate, null);
    noNaN(stats);
  });

  it('with one attempt, the averages are its own figures and the spread measures are null', () => {
    const stats = versionStatistics(sumsOf(QUESTIONS, [ROWS[3]]), QUESTIONS, TOTAL_MARKS, 0);
    close(stats.average_score, 6.25, 'average_score');
    close(stats.average_percentage, 62.5, 'average_percentage');
    assert.equal(stats.standard_deviation, null);
    assert.equal(stats.cronbach_alpha, null);
    QUESTIONS.forEach((q, i) => {
      close(stats.questions[i].mean_mark, ROWS[3][i][1], `${q.id} mean_mark`);
      close(stats.questions[i].facility_index, ROWS[3][i][1] / q.marks, `${q.id} facility_index`);
      assert.equal(stats.questions[i].discrimination_index, null, q.id);
    });
    noNaN(stats);
  });

  it('a question everyone got the same mark on has no discrimination index, and alpha still counts it among the k questions', () => {
    const same = question({
      id: 'same',
      question_type: 'true_false',
      options: ['True', 'False'],
      marks: 1,
      difficulty: 'easy',
    });
    const questions = [...QUESTIONS, same];
    const rows = ROWS.map((row): Cell[] => [...row, ['True', 1]]);
    const stats = versionStatistics(sumsOf(questions, rows), questions, TOTAL_MARKS + 1, 0);
    assert.equal(stats.questions[4].discrimination_index, null);
    close(stats.questions[4].facility_index, 1, 'facility_index');
    const items = questions.map((_, i) => column(rows, i));
    close(stats.cronbach_alpha, alpha(items, rawTotals(rows)), 'cronbach_alpha');
    // The other questions keep a discrimination index: their rest of the test still varies.
    QUESTIONS.forEach((q, i) => {
      const x = column(rows, i);
      const rest = rawTotals(rows).map((t, a) => t - x[a]);
      close(stats.questions[i].discrimination_index, 100 * pearson(x, rest), `${q.id} discrimination_index`);
    });
    noNaN(stats);
  });

  it('when every attempt has the same raw total, alpha is null (Var(total) = 0) though the questions vary', () => {
    const a = question({ id: 'a', question_type: 'short_answer' });
    const b = question({ id: 'b', question_type: 'short_answer' });
    const rows: Cell[][] = [
      [
        ['yes', 1],
        [undefined, 0],
      ],
      [
        [undefined, 0],
        ['yes', 1],
      ],
      [
        ['yes', 1],
        [undefined, 0],
      ],
    ];
    const stats = versionStatistics(sumsOf([a, b], rows), [a, b], 2, 0);
    assert.equal(stats.cronbach_alpha, null);
    close(stats.standard_deviation, 0, 'standard_deviation');
    // Each question is exactly the opposite of the rest of the test: r = −1.
    for (const i of [0, 1]) {
      const x = column(rows, i);
      close(
        stats.questions[i].discrimination_index,
        100 *
          pearson(
            x,
            x.map((v) => 1 - v),
          ),
        `discrimination ${i}`,
      );
      close(stats.questions[i].discrimination_index, -100, `discrimination ${i}`);
    }
    noNaN(stats);
  });

  it('with a single question, alpha is null (k = 1) and so is the discrimination index (no rest of the test)', () => {
    const only = question({ id: 'only', question_type: 'numeric', marks: 2 });
    const rows: Cell[][] = [[['1', 2]], [['0', -0.5]], [[undefined, 0]], [['1', 2]]];
    const stats = versionStatistics(sumsOf([only], rows), [only], 2, 0);
    assert.equal(stats.cronbach_alpha, null);
    assert.equal(stats.questions[0].discrimination_index, null);
    close(stats.standard_deviation, Math.sqrt(variance([2, 0, 0, 2])), 'standard_deviation');
    noNaN(stats);
  });

  it('with a total of 0 marks, the average percentage is null rather than a division by zero', () => {
    const stats = versionStatistics(sumsOf(QUESTIONS, ROWS), QUESTIONS, 0, 0);
    assert.equal(stats.average_percentage, null);
    noNaN(stats);
  });
});

// ---------------------------------------------------------------- helpers

describe('analytics/statistics bandOf', () => {
  it('puts 0 % in the first band and 100 % in the last', () => {
    assert.equal(bandOf(0, 10), 0);
    assert.equal(bandOf(10, 10), 9);
  });

  it('puts a score exactly on a band edge in the band that edge opens', () => {
    assert.equal(bandOf(1, 10), 1);
    assert.equal(bandOf(5, 10), 5);
    assert.equal(bandOf(9, 10), 9);
  });

  it('puts a score just below an edge in the band below', () => {
    assert.equal(bandOf(0.9999, 10), 0);
    assert.equal(bandOf(6.9999, 10), 6);
    assert.equal(bandOf(9.9999, 10), 9);
  });

  it('absorbs float error at an edge (0.7 of 1, 3 × 0.7 of 3)', () => {
    assert.equal(bandOf(0.7, 1), 7);
    const threeTimes = 0.7 + 0.7 + 0.7; // 2.0999999999999996
    assert.ok(threeTimes < 2.1);
    assert.equal(bandOf(threeTimes, 3), 7);
    assert.equal(bandOf(0.1 + 0.2, 1), 3);
  });

  it('keeps out-of-range scores in the outer bands, and a total of 0 in the first', () => {
    assert.equal(bandOf(-1, 10), 0);
    assert.equal(bandOf(12, 10), 9);
    assert.equal(bandOf(3, 0), 0);
  });
});

describe('analytics/statistics chosenOptions', () => {
  const mc = { question_type: 'multiple_choice', options: ['Paris', 'Rome', 'New  York'] };
  const ms = { question_type: 'multiple_select', options: ['a', 'b', 'c', 'd'] };
  const tf = { question_type: 'true_false', options: ['True', 'False'] };

  it('multiple_choice: the position of the option matched whatever its case and spacing', () => {
    for (const answer of ['Paris', ' paris ', 'PARIS', '\tParis\n'])
      assert.deepEqual(chosenOptions(mc, answer), ['0'], answer);
    assert.deepEqual(chosenOptions(mc, 'new york'), ['2']);
    assert.deepEqual(chosenOptions(mc, 'Rome'), ['1']);
  });

  it('multiple_choice: "x" for text matching no option, even one containing the separator', () => {
    assert.deepEqual(chosenOptions(mc, 'Lyon'), ['x']);
    assert.deepEqual(chosenOptions(mc, 'Paris|Rome'), ['x']);
  });

  it('a blank answer chooses nothing', () => {
    assert.deepEqual(chosenOptions(mc, ''), []);
    assert.deepEqual(chosenOptions(mc, '   '), []);
    assert.deepEqual(chosenOptions(ms, ' | '), []);
  });

  it('multiple_select: every option chosen, in any case and spacing', () => {
    assert.deepEqual(chosenOptions(ms, 'A|C').sort(), ['0', '2']);
    assert.deepEqual(chosenOptions(ms, ' c | a ').sort(), ['0', '2']);
  });

  it('multiple_select: a repeated option counts once, empty parts none', () => {
    assert.deepEqual(chosenOptions(ms, 'a|c|a').sort(), ['0', '2']);
    assert.deepEqual(chosenOptions(ms, 'a||c|').sort(), ['0', '2']);
  });

  it('multiple_select: parts matching no option count once together as "x"', () => {
    assert.deepEqual(chosenOptions(ms, 'a|zz|yy').sort(), ['0', 'x']);
  });

  it('true_false: the position of True or False in any case', () => {
    assert.deepEqual(chosenOptions(tf, 'false'), ['1']);
    assert.deepEqual(chosenOptions(tf, ' TRUE '), ['0']);
    assert.deepEqual(chosenOptions(tf, 'yes'), ['x']);
  });

  it('free-text types (short_answer, numeric) have no options to choose', () => {
    assert.deepEqual(chosenOptions({ question_type: 'short_answer', options: [] }, 'Hugo'), []);
    assert.deepEqual(chosenOptions({ question_type: 'numeric', options: [] }, '12'), []);
  });
});

describe('analytics/statistics submissionContribution', () => {
  it('adds the score, the raw total T and, per question, Σx, Σx² and Σx·T of one attempt', () => {
    const add = submissionContribution(QUESTIONS, facts(QUESTIONS, ROWS[1], true));
    assert.deepEqual([add.n, add.auto], [1, 1]);
    assert.deepEqual(add.score, { s: 0, ss: 0 });
    assert.deepEqual(add.raw, { s: -2.25, ss: 2.25 * 2.25 });
    assert.deepEqual(add.bands, { '0': 1 });
    assert.deepEqual(add.q['0'], { a: 1, c: 0, s: -0.5, ss: 0.25, st: -0.5 * -2.25, o: { '1': 1 } });
    // An unanswered question adds nothing (0 · T may be −0, which is still nothing).
    const blank = add.q['2'];
    assert.deepEqual([blank.a, blank.c, blank.s, blank.ss, blank.st + 0, blank.o], [0, 0, 0, 0, 0, {}]);
  });

  it('counts no option for a question left unanswered', () => {
    const add = submissionContribution(QUESTIONS, facts(QUESTIONS, ROWS[4]));
    assert.deepEqual(add.q['1'].o, {});
    assert.equal(add.q['1'].a, 0);
  });
});

describe('analytics/statistics sameSums', () => {
  // Marks whose float sums depend on the order of addition: (0.1 + 0.2) + 0.3 ≠ 0.1 + (0.2 + 0.3).
  const tenths = question({ id: 'tenths', question_type: 'short_answer', marks: 0.3 });
  const other = question({ id: 'other', question_type: 'short_answer', marks: 1 });
  const rows: Cell[][] = [
    [
      ['a', 0.1],
      ['a', 1],
    ],
    [
      ['a', 0.2],
      [undefined, 0],
    ],
    [
      ['a', 0.3],
      ['a', 1],
    ],
  ];

  it('tolerates float differences due to the order the attempts were added in', () => {
    const forward = sumsOf([tenths, other], rows, [0, 1, 2]);
    const backward = sumsOf([tenths, other], rows, [2, 1, 0]);
    assert.notDeepEqual(forward, backward); // the order did leave float noise
    assert.ok(sameSums(forward, backward));
  });

  it('treats a missing count as 0 (a shard never written is empty)', () => {
    assert.ok(sameSums(emptySums(), addSums(emptySums(), {})));
    const withZero = { ...emptySums(), bands: { '3': 0 } };
    assert.ok(sameSums(emptySums(), withZero));
  });

  it('notices a real difference: one attempt more, a different mark, or an option counted once more', () => {
    const sums = sumsOf([tenths, other], rows);
    assert.equal(sameSums(sums, sumsOf([tenths, other], [...rows, rows[0]])), false);
    const changed: Cell[][] = [
      rows[0],
      [
        ['a', 0.2001],
        [undefined, 0],
      ],
      rows[2],
    ];
    assert.equal(sameSums(sums, sumsOf([tenths, other], changed)), false);
    const extraOption = addSums(sums, { q: { '0': { a: 0, c: 0, s: 0, ss: 0, st: 0, o: { x: 1 } } } });
    assert.equal(sameSums(sums, extraOption), false);
  });
});

// ---------------------------------------------------------------- pools: attempts that hold different questions

/** One cell of a pooled attempt: the question it held, the answer that counted (undefined: not answered) and the mark it earned. */
type PooledCell = [id: string, answer: string | undefined, mark: number];

/** The facts of one attempt of a version with pools: its own questions, its own total. */
const pooledFacts = (byId: Map<string, StatQuestion>, row: PooledCell[], automatic = false): SubmittedAttemptFacts => {
  const total = sum(row.map(([, , mark]) => mark));
  const answers: Record<string, string> = {};
  for (const [id, answer] of row) if (answer !== undefined) answers[id] = answer;
  return {
    score: Math.max(0, total),
    total_marks: sum(row.map(([id]) => byId.get(id)!.marks)),
    automatic,
    results: row.map(([id, answer, mark]) => ({
      question_id: id,
      answered: answer !== undefined,
      correct: mark === byId.get(id)!.marks,
      marks_awarded: mark,
    })),
    answers,
  };
};

/** What one pooled attempt adds, as analytics/store.ts contributionOf computes it: each question at its position in the version. */
const pooledContribution = (
  byId: Map<string, StatQuestion>,
  positions: Map<string, number>,
  row: PooledCell[],
  automatic = false,
): VersionSums =>
  submissionContribution(
    row.map(([id]) => byId.get(id)!),
    pooledFacts(byId, row, automatic),
    { positionOf: (id, i) => positions.get(id) ?? i, pooled: true },
  );

const pooledSumsOf = (
  byId: Map<string, StatQuestion>,
  positions: Map<string, number>,
  rows: PooledCell[][],
): VersionSums =>
  rows.reduce((sums, row, i) => addSums(sums, pooledContribution(byId, positions, row, i === 1)), emptySums());

/** A question's figures computed directly over the attempts that held it, by the textbook definitions above. */
function directFigures(q: StatQuestion, rows: PooledCell[][]) {
  const saw = rows.filter((row) => row.some(([id]) => id === q.id));
  const cells = saw.map((row) => row.find(([id]) => id === q.id)!);
  const x = cells.map(([, , mark]) => mark);
  const totals = saw.map((row) => sum(row.map(([, , mark]) => mark)));
  const rest = totals.map((t, a) => t - x[a]);
  const spread = (values: number[]) => values.length >= 2 && values.some((v) => v !== values[0]);
  return {
    times_seen: saw.length,
    times_answered: cells.filter(([, answer]) => answer !== undefined).length,
    times_correct: cells.filter(([, , mark]) => mark === q.marks).length,
    mean_mark: saw.length > 0 ? mean(x) : null,
    facility_index: saw.length > 0 ? mean(x) / q.marks : null,
    discrimination_index: spread(x) && spread(rest) ? 100 * pearson(x, rest) : null,
  };
}

const closeOrNull = (actual: number | null, expected: number | null, label: string): void => {
  if (expected === null) assert.equal(actual, null, `${label}: expected null, got ${actual}`);
  else close(actual, expected, label);
};

function assertDirectFigures(
  stats: ReturnType<typeof versionStatistics>,
  universe: StatQuestion[],
  rows: PooledCell[][],
): void {
  universe.forEach((q, i) => {
    const got = stats.questions[i];
    const want = directFigures(q, rows);
    assert.equal(got.question_id, q.id);
    assert.deepEqual(
      [got.times_seen, got.times_answered, got.times_correct],
      [want.times_seen, want.times_answered, want.times_correct],
      q.id,
    );
    closeOrNull(got.mean_mark, want.mean_mark, `${q.id} mean_mark`);
    closeOrNull(got.facility_index, want.facility_index, `${q.id} facility_index`);
    closeOrNull(got.discrimination_index, want.discrimination_index, `${q.id} discrimination_index`);
  });
}

// Two fixed questions, then pool 1 (p1 … p4, 2 drawn per attempt) and pool 2 (r1 … r3, 1 drawn); r3 is never drawn.
// Negative marking at 0.25. Each attempt's total is its own: 2 + 1 + its two p's + 3.
const f1 = question({
  id: 'f1',
  question_type: 'true_false',
  options: ['True', 'False'],
  marks: 2,
  difficulty: 'easy',
});
const f2 = question({ id: 'f2', question_type: 'short_answer', marks: 1, difficulty: 'hard' });
const pq = (id: string, marks: number) =>
  question({ id, question_type: 'multiple_choice', options: ['A', 'B', 'C'], marks });
const [p1, p2, p3, p4] = [pq('p1', 1), pq('p2', 2), pq('p3', 1), pq('p4', 1)];
const rq = (id: string) => question({ id, question_type: 'numeric', marks: 3, difficulty: 'hard' });
const [r1, r2, r3] = [rq('r1'), rq('r2'), rq('r3')];
const UNIVERSE = [f1, f2, p1, p2, p3, p4, r1, r2, r3];
const BY_ID = new Map(UNIVERSE.map((q) => [q.id, q]));
const POOLED_VERSION = {
  questions: [f1, f2].map((q) => ({ ...q, correct_answer: '', tolerance: null })),
  pools: [
    { folder_id: 'fa', difficulty: null, draw: 2, question_ids: ['p1', 'p2', 'p3', 'p4'] },
    { folder_id: 'fb', difficulty: null, draw: 1, question_ids: ['r1', 'r2', 'r3'] },
  ],
};
const POSITIONS = universePositions(POOLED_VERSION);
const POOLED_ROWS: PooledCell[][] = [
  [
    ['f1', 'True', 2],
    ['f2', 'x', 1],
    ['p1', 'A', 1],
    ['p3', 'B', -0.25],
    ['r1', '1', 3],
  ],
  [
    ['f1', 'False', -0.5],
    ['f2', undefined, 0],
    ['p2', 'A', 2],
    ['p4', 'C', -0.25],
    ['r2', '0', -0.75],
  ],
  [
    ['f1', 'True', 2],
    ['f2', 'y', -0.25],
    ['p1', 'B', -0.25],
    ['p2', 'A', 2],
    ['r1', '2', -0.75],
  ],
  [
    ['f1', undefined, 0],
    ['f2', 'x', 1],
    ['p4', 'A', 1],
    ['p3', 'A', 1],
    ['r1', '1', 3],
  ],
  [
    ['f1', 'True', 2],
    ['f2', 'x', 1],
    ['p1', 'A', 1],
    ['p4', undefined, 0],
    ['r2', '5', 3],
  ],
  [
    ['f1', 'False', -0.5],
    ['f2', 'z', -0.25],
    ['p2', 'Lyon', -0.5],
    ['p3', undefined, 0],
    ['r2', '0', -0.75],
  ],
];
const ownTotal = (row: PooledCell[]) => sum(row.map(([id]) => BY_ID.get(id)!.marks));

describe('analytics/statistics a version with pools (6 attempts, each with its own questions)', () => {
  const sums = pooledSumsOf(BY_ID, POSITIONS, POOLED_ROWS);
  const positions = UNIVERSE.map((q) => POSITIONS.get(q.id)!);
  const stats = versionStatistics(sums, UNIVERSE, 7, 1, { pooled: true, positions });
  const scores = POOLED_ROWS.map((row) => Math.max(0, sum(row.map(([, , mark]) => mark))));

  it('the example exercises what it claims: attempts of different totals, a negative raw total, a pool question never drawn', () => {
    assert.deepEqual(POOLED_ROWS.map(ownTotal), [8, 9, 9, 8, 8, 9]);
    assert.ok(sum(POOLED_ROWS[5].map(([, , mark]) => mark)) < 0);
    assert.ok(POOLED_ROWS.every((row) => row.every(([id]) => id !== 'r3')));
  });

  it('gives each question its figures over the attempts that saw it: times seen, answered, correct, mean mark, facility and discrimination', () => {
    assertDirectFigures(stats, UNIVERSE, POOLED_ROWS);
    // Spelled out for one: p1 was drawn by attempts 1, 3 and 5 only.
    assert.equal(stats.questions[2].times_seen, 3);
    close(stats.questions[2].mean_mark, (1 - 0.25 + 1) / 3, 'p1 mean_mark');
  });

  it('sees every fixed question in every attempt', () => {
    assert.deepEqual([stats.questions[0].times_seen, stats.questions[1].times_seen], [6, 6]);
  });

  it('gives a pool question never drawn no figures (times_seen 0, every measure null), not a division by zero', () => {
    const never = stats.questions[8];
    assert.deepEqual(
      [
        never.question_id,
        never.times_seen,
        never.times_answered,
        never.mean_mark,
        never.facility_index,
        never.discrimination_index,
      ],
      ['r3', 0, 0, null, null, null],
    );
  });

  it('numbers each question by its position in the version: the fixed ones, then each pool’s in order', () => {
    assert.deepEqual(
      stats.questions.map((q) => [q.question_id, q.position]),
      UNIVERSE.map((q, i) => [q.id, i + 1]),
    );
  });

  it('counts the options chosen among the attempts that saw the question', () => {
    // p2: attempts 2 and 3 chose A, attempt 6 wrote "Lyon".
    assert.deepEqual(
      stats.questions[3].option_counts?.map((o) => o.count),
      [2, 0, 0],
    );
    assert.equal(stats.questions[3].other_choices, 1);
  });

  it('averages each attempt’s percentage of its own total, not of the version’s fixed total', () => {
    const percentages = scores.map((s, a) => (s / ownTotal(POOLED_ROWS[a])) * 100);
    close(stats.average_percentage, mean(percentages), 'average_percentage');
    close(stats.average_score, mean(scores), 'average_score');
    close(stats.standard_deviation, Math.sqrt(variance(scores)), 'standard_deviation');
    assert.deepEqual(
      stats.score_distribution.map((b) => b.count),
      bandCounts(percentages),
    );
  });

  it("has no Cronbach's alpha: it is undefined when attempts answer different items", () => {
    assert.equal(stats.cronbach_alpha, null);
  });

  it('counts attempts started, completed, in progress and submitted automatically as without pools', () => {
    assert.deepEqual(
      [stats.total_attempts, stats.completed, stats.in_progress, stats.pending_grading, stats.auto_submitted],
      [7, 6, 1, 0, 1],
    );
  });

  it('gives the same figures whatever order the attempts were added in, or however they were split over shards', () => {
    // Attempt 2 (index 1) is the automatic one, whatever order it is added in.
    const add = (order: number[]) =>
      order.reduce(
        (all, i) => addSums(all, pooledContribution(BY_ID, POSITIONS, POOLED_ROWS[i], i === 1)),
        emptySums(),
      );
    const shuffled = add([5, 0, 3, 1, 4, 2]);
    assert.ok(sameSums(shuffled, sums));
    assert.deepEqual(versionStatistics(shuffled, UNIVERSE, 7, 1, { pooled: true, positions }), stats);
    const split = [[5, 0], [3], [1, 4, 2]].map(add).reduce((all, shard) => addSums(all, shard), emptySums());
    assert.ok(sameSums(split, sums));
    assert.deepEqual(versionStatistics(split, UNIVERSE, 7, 1, { pooled: true, positions }), stats);
  });

  it('read without pooled, a fixed question gets the same figures (every attempt saw it)', () => {
    const plain = versionStatistics(sums, UNIVERSE, 7, 1, { positions });
    for (const i of [0, 1]) {
      assert.deepEqual(
        [plain.questions[i].times_seen, plain.questions[i].mean_mark, plain.questions[i].discrimination_index],
        [stats.questions[i].times_seen, stats.questions[i].mean_mark, stats.questions[i].discrimination_index],
      );
    }
  });
});

describe('analytics/statistics a version with pools: property (fast-check)', () => {
  /** A random pooled version: fixed questions, pools, and attempts that each draw from every pool and earn marks on what they hold. */
  const world = fc
    .record({
      fixed: fc.integer({ min: 0, max: 3 }),
      pools: fc.array(fc.record({ size: fc.integer({ min: 1, max: 5 }), draw: fc.integer({ min: 1, max: 5 }) }), {
        minLength: 1,
        maxLength: 3,
      }),
      marks: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 20, maxLength: 20 }),
    })
    .chain(({ fixed, pools, marks }) => {
      const fixedQs = Array.from({ length: fixed }, (_, i) =>
        question({ id: `f${i}`, question_type: 'short_answer', marks: marks[i] }),
      );
      const poolIds = pools.map((p, k) => Array.from({ length: p.size }, (_, j) => `p${k}-${j}`));
      const poolQs = poolIds
        .flat()
        .map((id, j) => question({ id, question_type: 'short_answer', marks: marks[(fixed + j) % marks.length] }));
      const universe = [...fixedQs, ...poolQs];
      const cell = (q: StatQuestion): fc.Arbitrary<PooledCell> =>
        fc.constantFrom<PooledCell>(
          [q.id, undefined, 0],
          [q.id, 'right', q.marks],
          [q.id, 'wrong', -0.25 * q.marks],
          [q.id, 'half', q.marks / 2],
        );
      const attempt = fc
        .tuple(
          ...poolIds.map((ids, k) =>
            fc.shuffledSubarray(ids, {
              minLength: Math.min(pools[k].draw, ids.length),
              maxLength: Math.min(pools[k].draw, ids.length),
            }),
          ),
        )
        .map((drawn) => [...fixedQs.map((q) => q.id), ...drawn.flat()])
        .chain((ids) => fc.tuple(...ids.map((id) => cell(universe.find((q) => q.id === id)!))));
      return fc.record({
        universe: fc.constant(universe),
        version: fc.constant({
          questions: fixedQs.map((q) => ({ ...q, correct_answer: '', tolerance: null })),
          pools: poolIds.map((ids, k) => ({
            folder_id: `f${k}`,
            difficulty: null,
            draw: pools[k].draw,
            question_ids: ids,
          })),
        }),
        rows: fc.array(attempt, { minLength: 0, maxLength: 8 }),
      });
    });

  it('gives every question the figures computed directly over the attempts that saw it, and alpha null', () => {
    fc.assert(
      fc.property(world, ({ universe, version, rows }) => {
        const byId = new Map(universe.map((q) => [q.id, q]));
        const positions = universePositions(version);
        const sums = pooledSumsOf(byId, positions, rows as PooledCell[][]);
        const stats = versionStatistics(sums, universe, 1, 0, {
          pooled: true,
          positions: universe.map((q) => positions.get(q.id)!),
        });
        assertDirectFigures(stats, universe, rows as PooledCell[][]);
        assert.equal(stats.cronbach_alpha, null);
        assert.equal(stats.completed, rows.length);
        if (rows.length > 0) {
          const percentages = (rows as PooledCell[][]).map(
            (row) => (Math.max(0, sum(row.map(([, , m]) => m))) / sum(row.map(([id]) => byId.get(id)!.marks))) * 100,
          );
          close(stats.average_percentage, mean(percentages), 'average_percentage');
        } else {
          assert.equal(stats.average_percentage, null);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('analytics/statistics negatedSums and addSums: a change moves the sums by its difference', () => {
  const contribution = addSums(pooledContribution(BY_ID, POSITIONS, POOLED_ROWS[0], true), { ...emptySums(), p: 1 });

  it('negates every number, with the nesting kept (n, t, tt, p, pc, bands and options included)', () => {
    const negated = negatedSums(contribution);
    assert.deepEqual(
      numbersIn(negated),
      numbersIn(contribution).map(([path, value]) => [path, -value]),
    );
    assert.equal(negated.q['2'].n, -1);
    assert.equal(negated.p, -1);
    assert.ok(typeof negated.pc === 'number' && negated.pc < 0);
  });

  it('leaves the sums it negates untouched', () => {
    const before = structuredClone(contribution);
    negatedSums(contribution);
    assert.deepEqual(contribution, before);
  });

  it('returns to zero: a contribution plus its negation is empty in every field', () => {
    const zero = addSums(contribution, negatedSums(contribution));
    for (const [path, value] of numbersIn(zero)) assert.equal(value + 0, 0, path);
    assert.ok(sameSums(zero, emptySums()));
  });

  it('returns the sums to what they were: an attempt added then taken back changes nothing', () => {
    const sums = pooledSumsOf(BY_ID, POSITIONS, POOLED_ROWS);
    const extra = pooledContribution(BY_ID, POSITIONS, POOLED_ROWS[2]);
    assert.ok(sameSums(addSums(addSums(sums, extra), negatedSums(extra)), sums));
  });

  it('moved by (after − before), equals a recomputation with the attempt as it is now (a regrade or a grade)', () => {
    const sums = pooledSumsOf(BY_ID, POSITIONS, POOLED_ROWS);
    const rescored: PooledCell[] = POOLED_ROWS[3].map(([id, answer, mark]) =>
      id === 'p3' ? [id, answer, -0.25] : [id, answer, mark],
    );
    const moved = addSums(
      sums,
      addSums(
        pooledContribution(BY_ID, POSITIONS, rescored),
        negatedSums(pooledContribution(BY_ID, POSITIONS, POOLED_ROWS[3])),
      ),
    );
    const rows = POOLED_ROWS.map((row, i) => (i === 3 ? rescored : row));
    assert.ok(sameSums(moved, pooledSumsOf(BY_ID, POSITIONS, rows)));
  });

  it('moved by a difference stored as increments (zero parts left out), still equals a recomputation: t and tt may come without n', () => {
    // analytics/store.ts writes only the non-zero numbers of a change: a regrade that keeps which questions an attempt
    // saw moves a question's t and tt (its total changed) with n unchanged, so the shard gets t and tt without n.
    const nonZero = (value: unknown): unknown => {
      if (typeof value === 'number') return value === 0 ? undefined : value;
      if (!value || typeof value !== 'object') return undefined;
      const kept = Object.entries(value).flatMap(([k, v]) => {
        const inner = nonZero(v);
        return inner === undefined ? [] : [[k, inner]];
      });
      return kept.length > 0 ? Object.fromEntries(kept) : undefined;
    };
    const before = POOLED_ROWS[3];
    const after: PooledCell[] = before.map(([id, answer, mark]) =>
      id === 'p3' ? [id, answer, -0.25] : [id, answer, mark],
    );
    const delta = nonZero(
      addSums(pooledContribution(BY_ID, POSITIONS, after), negatedSums(pooledContribution(BY_ID, POSITIONS, before))),
    ) as Partial<VersionSums>;
    const f1At = String(POSITIONS.get('f1'));
    assert.equal(delta.q?.[f1At]?.n, undefined, 'the example stores t and tt without n');
    assert.ok(typeof delta.q?.[f1At]?.t === 'number');
    const stored = nonZero(pooledSumsOf(BY_ID, POSITIONS, POOLED_ROWS)) as VersionSums;
    const rows = POOLED_ROWS.map((row, i) => (i === 3 ? after : row));
    // The change on the shard that holds the attempts, or on a shard of its own (read first or last).
    for (const parts of [
      [stored, delta],
      [delta, stored],
    ]) {
      const moved = parts.reduce<VersionSums>((all, part) => addSums(all, part), emptySums());
      assert.ok(sameSums(moved, pooledSumsOf(BY_ID, POSITIONS, rows)));
    }
    // A shard holding only that change, read on its own, keeps it too.
    assert.equal(addSums(emptySums(), delta).q[f1At].t, delta.q![f1At].t);
  });

  it('keeps n, t and tt of a question when only one side has them, and adds neither p nor pc where neither side has them', () => {
    const plainItem = { a: 1, c: 1, s: 2, ss: 4, st: 8, o: {} };
    const pooled = addSums(
      { ...emptySums(), q: { '0': plainItem } },
      { q: { '0': { ...plainItem, n: 1, t: 4, tt: 16 } } },
    );
    assert.deepEqual(pooled.q['0'], { a: 2, c: 2, s: 4, ss: 8, st: 16, o: {}, n: 1, t: 4, tt: 16 });
    const plain = addSums({ ...emptySums(), q: { '0': plainItem } }, { q: { '0': plainItem } });
    assert.equal('n' in plain.q['0'], false);
    assert.equal('p' in plain, false);
    assert.equal('pc' in plain, false);
    assert.deepEqual(addSums(emptySums(), { p: 2, pc: 50 }).p, 2);
  });
});

describe('analytics/statistics attempts pending grading', () => {
  const sums = pooledSumsOf(BY_ID, POSITIONS, POOLED_ROWS);
  const positions = UNIVERSE.map((q) => POSITIONS.get(q.id)!);
  /** What an attempt whose essays are not all graded contributes (analytics/store.ts contributionOf): a count, nothing else. */
  const pending: VersionSums = { ...emptySums(), p: 1 };

  it('counts a pending attempt in pending_grading and total_attempts, never in completed or any figure', () => {
    const withPending = addSums(addSums(sums, pending), pending);
    const stats = versionStatistics(withPending, UNIVERSE, 7, 1, { pooled: true, positions });
    const without = versionStatistics(sums, UNIVERSE, 7, 1, { pooled: true, positions });
    assert.deepEqual([stats.pending_grading, stats.total_attempts, stats.completed, stats.in_progress], [2, 9, 6, 1]);
    assert.deepEqual(
      { ...stats, pending_grading: 0, total_attempts: 0 },
      { ...without, pending_grading: 0, total_attempts: 0 },
    );
  });

  it('counts pending attempts without pools as well', () => {
    const stats = versionStatistics(addSums(sumsOf(QUESTIONS, ROWS), pending), QUESTIONS, TOTAL_MARKS, IN_PROGRESS);
    assert.deepEqual([stats.pending_grading, stats.total_attempts, stats.completed], [1, N + IN_PROGRESS + 1, N]);
  });

  it('says pending_grading 0 for sums kept before essays (no p)', () => {
    assert.equal(versionStatistics(sumsOf(QUESTIONS, ROWS), QUESTIONS, TOTAL_MARKS, 0).pending_grading, 0);
  });

  it('moves a graded attempt from pending into the figures: the sums then equal a recomputation', () => {
    const before = addSums(pooledSumsOf(BY_ID, POSITIONS, POOLED_ROWS.slice(0, 5)), pending);
    const graded = addSums(before, addSums(pooledContribution(BY_ID, POSITIONS, POOLED_ROWS[5]), negatedSums(pending)));
    const recomputed = pooledSumsOf(BY_ID, POSITIONS, [...POOLED_ROWS.slice(0, 5), POOLED_ROWS[5]]);
    assert.ok(sameSums(graded, recomputed));
    assert.equal(versionStatistics(graded, UNIVERSE, 7, 0, { pooled: true, positions }).pending_grading, 0);
  });
});

describe('analytics/statistics partial credit', () => {
  const questions = [
    question({ id: 'ms', question_type: 'multiple_select', options: ['A', 'B', 'C'], marks: 2 }),
    question({ id: 'sa', question_type: 'short_answer', marks: 4 }),
  ];
  // Partial credit: 1 of 2 marks, 3 of 4; full marks; nothing.
  const rows: Cell[][] = [
    [
      ['A', 1],
      ['colr', 3],
    ],
    [
      ['A|B', 2],
      ['colour', 4],
    ],
    [
      ['C', 0],
      ['x', 0],
    ],
  ];

  it('gives the facility index as the mean share of the marks earned, partial credit included', () => {
    const stats = versionStatistics(sumsOf(questions, rows), questions, 6, 0);
    close(stats.questions[0].facility_index, (0.5 + 1 + 0) / 3, 'ms facility');
    close(stats.questions[1].facility_index, (0.75 + 1 + 0) / 3, 'sa facility');
  });

  it('counts in times_correct only the answers that earned the full marks, as before', () => {
    const stats = versionStatistics(sumsOf(questions, rows), questions, 6, 0);
    assert.deepEqual(
      stats.questions.map((q) => [q.times_answered, q.times_correct]),
      [
        [3, 1],
        [3, 1],
      ],
    );
  });
});
