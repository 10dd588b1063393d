import assert from 'node:assert/strict';
import {
  addSums,
  bandOf,
  chosenOptions,
  emptySums,
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
  Array.from({ length: 10 }, (_, b) => percentages.filter((p) => p >= b * 10 && (b === 9 ? p <= 100 : p < b * 10 + 10)).length);

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
const capital = question({ id: 'capital', question_type: 'multiple_choice', options: ['Paris', 'Rome', 'Berlin', 'Madrid'], marks: 2, difficulty: 'easy' });
const primes = question({ id: 'primes', question_type: 'multiple_select', options: ['a', 'b', 'c', 'd'], marks: 3, difficulty: 'medium' });
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
  [['Paris', 2], ['a|c', 3], ['Hugo', 1], ['12', 4]],
  [['Rome', -0.5], ['a', -0.75], [undefined, 0], ['13', -1]],
  [[' paris ', 2], ['A|b|C', -0.75], ['hugo', 1], [undefined, 0]],
  [['Lyon', -0.5], ['c|a', 3], ['Zola', -0.25], ['12.0', 4]],
  [['PARIS', 2], [undefined, 0], ['Hugo', 1], ['12', 4]],
  [[undefined, 0], ['a|c', 3], ['Dumas', -0.25], ['11', -1]],
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
      assert.deepEqual([got.questions, got.answered, got.correct], [figures.questions, figures.answered, figures.correct], level);
      close(got.correct_rate, figures.correct / figures.answered, `${level} correct_rate`);
    }
    // medium = primes + root: answered 5 + 5, correct 3 + 3.
    assert.deepEqual(stats.difficulty_analysis.medium, { questions: 2, answered: 10, correct: 6, correct_rate: 0.6 });
  });

  it('reports every figure rounded to at most 4 decimals', () => {
    for (const [path, value] of numbersIn(stats)) assert.ok(Math.abs(value * 1e4 - Math.round(value * 1e4)) < 1e-6, `${path} = ${value}`);
  });

  it('gives the same statistics whatever order the attempts were added in, or however they were split over shards', () => {
    const shuffled = sumsOf(QUESTIONS, ROWS, [4, 1, 5, 0, 3, 2]);
    assert.ok(sameSums(shuffled, sums));
    assert.deepEqual(versionStatistics(shuffled, QUESTIONS, TOTAL_MARKS, IN_PROGRESS), stats);
    // Three shards, each the sum of some attempts, then added together.
    const shards = [[0, 3], [1, 4], [2, 5]].map((part) => sumsOf(QUESTIONS, ROWS, part));
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
      assert.deepEqual([item.mean_mark, item.facility_index, item.discrimination_index], [null, null, null], item.question_id);
      assert.deepEqual([item.times_answered, item.times_correct], [0, 0]);
    }
    assert.deepEqual(stats.questions[0].option_counts?.map((o) => o.count), [0, 0, 0, 0]);
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
    const same = question({ id: 'same', question_type: 'true_false', options: ['True', 'False'], marks: 1, difficulty: 'easy' });
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

  it("when every attempt has the same raw total, alpha is null (Var(total) = 0) though the questions vary", () => {
    const a = question({ id: 'a', question_type: 'short_answer' });
    const b = question({ id: 'b', question_type: 'short_answer' });
    const rows: Cell[][] = [
      [['yes', 1], [undefined, 0]],
      [[undefined, 0], ['yes', 1]],
      [['yes', 1], [undefined, 0]],
    ];
    const stats = versionStatistics(sumsOf([a, b], rows), [a, b], 2, 0);
    assert.equal(stats.cronbach_alpha, null);
    close(stats.standard_deviation, 0, 'standard_deviation');
    // Each question is exactly the opposite of the rest of the test: r = −1.
    for (const i of [0, 1]) {
      const x = column(rows, i);
      close(stats.questions[i].discrimination_index, 100 * pearson(x, x.map((v) => 1 - v)), `discrimination ${i}`);
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
    for (const answer of ['Paris', ' paris ', 'PARIS', '\tParis\n']) assert.deepEqual(chosenOptions(mc, answer), ['0'], answer);
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
    [['a', 0.1], ['a', 1]],
    [['a', 0.2], [undefined, 0]],
    [['a', 0.3], ['a', 1]],
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
    const changed: Cell[][] = [rows[0], [['a', 0.2001], [undefined, 0]], rows[2]];
    assert.equal(sameSums(sums, sumsOf([tenths, other], changed)), false);
    const extraOption = addSums(sums, { q: { '0': { a: 0, c: 0, s: 0, ss: 0, st: 0, o: { x: 1 } } } });
    assert.equal(sameSums(sums, extraOption), false);
  });
});
