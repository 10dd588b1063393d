import assert from 'node:assert/strict';
import { scoreAttempt, type ScoringQuestion } from '../../functions/src/attempts/scoring';

// Pure: the marking scheme, no emulator needed. Each title is one rule of the scheme.

const plain = { negativeMarking: false, negativeMarkRatio: 0.25 };
const negative = { negativeMarking: true, negativeMarkRatio: 0.25 };

const q = (
  over: Partial<ScoringQuestion> & Pick<ScoringQuestion, 'question_type' | 'correct_answer'>,
): ScoringQuestion => ({
  id: 'q1',
  options: [],
  tolerance: null,
  marks: 2,
  ...over,
});

/** The marks one answer earns for one question. */
const mark = (question: ScoringQuestion, answer: string | undefined, rules = plain): number => {
  const answers: Record<string, string> = answer === undefined ? {} : { [question.id]: answer };
  return scoreAttempt([question], answers, rules).results[0].marks_awarded;
};

describe('attempts/scoring multiple_choice', () => {
  const question = q({
    question_type: 'multiple_choice',
    options: ['Paris', 'Rome', 'New  York'],
    correct_answer: 'Paris',
  });

  it('awards the marks for the correct option, whatever its case and spacing', () => {
    for (const answer of ['Paris', ' paris ', 'PARIS', '\tParis\n']) assert.equal(mark(question, answer), 2, answer);
  });

  it('compares after Unicode NFKC normalization (full-width letters match)', () => {
    assert.equal(mark(question, 'Ｐａｒｉｓ'), 2);
  });

  it('collapses spacing inside an option', () => {
    assert.equal(
      mark(
        q({ question_type: 'multiple_choice', options: ['New  York', 'Rome'], correct_answer: 'New  York' }),
        'new york',
      ),
      2,
    );
  });

  it('awards nothing for another option, or text that is no option', () => {
    assert.equal(mark(question, 'Rome'), 0);
    assert.equal(mark(question, 'Pari'), 0);
  });
});

describe('attempts/scoring multiple_select (all-or-nothing)', () => {
  const question = q({ question_type: 'multiple_select', options: ['a', 'b', 'c', 'd'], correct_answer: 'a|c' });

  it('awards the marks when exactly the correct set is chosen, in any order, case and spacing', () => {
    for (const answer of ['a|c', 'c|a', ' A | C ', 'C|a']) assert.equal(mark(question, answer), 2, answer);
  });

  it('ignores empty parts and counts a repeated option once', () => {
    assert.equal(mark(question, 'a||c|'), 2);
    assert.equal(mark(question, 'a|c|a'), 2);
  });

  it('all-or-nothing: a missing option makes the answer wrong, with no partial credit', () => {
    assert.equal(mark(question, 'a'), 0);
  });

  it('all-or-nothing: an extra option makes the answer wrong, with no partial credit', () => {
    assert.equal(mark(question, 'a|b|c'), 0);
    assert.equal(mark(question, 'a|b|c|d'), 0);
  });

  it('all-or-nothing: a wrong selection costs negative marks like any wrong answer', () => {
    assert.equal(mark(question, 'a', negative), -0.5);
    assert.equal(mark(question, 'a|b|c|d', negative), -0.5);
  });

  it('counts an answer of only separators as answered and wrong (it is not blank, but chooses nothing)', () => {
    const result = scoreAttempt([question], { q1: ' | ' }, negative).results[0];
    assert.deepEqual([result.answered, result.correct, result.marks_awarded], [true, false, -0.5]);
  });
});

describe('attempts/scoring true_false', () => {
  const question = q({ question_type: 'true_false', options: ['True', 'False'], correct_answer: 'False' });

  it('awards the marks for "true"/"false" in any case and spacing', () => {
    for (const answer of ['False', 'false', ' FALSE ']) assert.equal(mark(question, answer), 2, answer);
  });

  it('awards nothing for the other value or for anything else ("no", "0", "f")', () => {
    for (const answer of ['True', 'no', '0', 'f']) assert.equal(mark(question, answer), 0, answer);
  });
});

describe('attempts/scoring short_answer', () => {
  const question = q({ question_type: 'short_answer', correct_answer: 'Photo synthesis' });

  it('awards the marks for the key trimmed, case-insensitive, with inner spacing collapsed', () => {
    for (const answer of ['Photo synthesis', '  photo   SYNTHESIS ', 'photo\tsynthesis'])
      assert.equal(mark(question, answer), 2, answer);
  });

  it('awards nothing when the words differ (spaces are collapsed, not removed)', () => {
    assert.equal(mark(question, 'photosynthesis'), 0);
    assert.equal(mark(question, 'photo synthesis.'), 0);
  });
});

describe('attempts/scoring numeric', () => {
  const exact = q({ question_type: 'numeric', correct_answer: '42' });
  const within = q({ question_type: 'numeric', correct_answer: '3.14', tolerance: 0.01 });

  it('awards the marks for the same number however it is written (+, decimals, exponent)', () => {
    for (const answer of ['42', ' 42 ', '+42', '42.0', '4.2e1', '420E-1']) assert.equal(mark(exact, answer), 2, answer);
  });

  it('with no tolerance, any difference is wrong', () => {
    assert.equal(mark(exact, '42.0001'), 0);
  });

  it('awards the marks within the tolerance, boundaries included', () => {
    for (const answer of ['3.14', '3.13', '3.15', '3.145']) assert.equal(mark(within, answer), 2, answer);
    assert.equal(mark(within, '3.16'), 0);
    assert.equal(mark(within, '3.12'), 0);
  });

  it('does not let binary float error push a boundary answer out (1.0 vs 1.1 ± 0.1)', () => {
    assert.equal(mark(q({ question_type: 'numeric', correct_answer: '1.1', tolerance: 0.1 }), '1.0'), 2);
  });

  it('with no tolerance, marks wrong a large answer off by a few units (4294967300 vs 4294967296, 1e15 + 1e6 vs 1e15)', () => {
    assert.equal(mark(q({ question_type: 'numeric', correct_answer: '4294967296' }), '4294967300'), 0);
    assert.equal(mark(q({ question_type: 'numeric', correct_answer: '1e15' }), '1000000001000000'), 0);
    assert.equal(mark(q({ question_type: 'numeric', correct_answer: '1e15' }), '1000000000000001'), 0);
  });

  it('with no tolerance, marks wrong a small answer off by 10% (1.1e-12 vs 1e-12) and any nonzero answer to a key of 0', () => {
    assert.equal(mark(q({ question_type: 'numeric', correct_answer: '1e-12' }), '1.1e-12'), 0);
    assert.equal(mark(q({ question_type: 'numeric', correct_answer: '1e-300' }), '1.000001e-300'), 0);
    assert.equal(mark(q({ question_type: 'numeric', correct_answer: '0' }), '1e-300'), 0);
  });

  it('with no tolerance, forgives only the representation error of the parsed decimals (a few ulps)', () => {
    // 0.1 + 0.2 is the double next to 0.3: one ulp apart.
    assert.equal(mark(q({ question_type: 'numeric', correct_answer: '0.30000000000000004' }), '0.3'), 2);
    // Both decimals parse to the same double (2^53).
    assert.equal(mark(q({ question_type: 'numeric', correct_answer: '9007199254740992' }), '9007199254740993'), 2);
    assert.equal(mark(q({ question_type: 'numeric', correct_answer: '1e-12' }), '1.0000000000000001e-12'), 2);
    // Ten ulps off is more than representation error.
    assert.equal(mark(q({ question_type: 'numeric', correct_answer: '9007199254740992' }), '9007199254741012'), 0);
  });

  it('with a tolerance, still lets float error keep a boundary answer in at large magnitudes (1000 vs 1000.1 ± 0.1)', () => {
    assert.equal(mark(q({ question_type: 'numeric', correct_answer: '1000.1', tolerance: 0.1 }), '1000'), 2);
    assert.equal(mark(q({ question_type: 'numeric', correct_answer: '1000.1', tolerance: 0.1 }), '999.9999'), 0);
  });

  it('scores an answer with a decimal comma exactly as its point form (1,41 against 1.41 ± 0.01)', () => {
    const key = q({ question_type: 'numeric', correct_answer: '1.41', tolerance: 0.01 });
    for (const answer of ['1,41', ' 1,40 ', '1,42', '+1,4149']) assert.equal(mark(key, answer), 2, answer);
    assert.equal(mark(key, '1,43'), 0);
    // At the boundary the comma form is the very double the point form is: both in, or both out.
    const edge = q({ question_type: 'numeric', correct_answer: '1.1', tolerance: 0.1 });
    assert.equal(mark(edge, '1,0'), mark(edge, '1.0'));
    assert.equal(mark(q({ question_type: 'numeric', correct_answer: '0.30000000000000004' }), '0,3'), 2);
  });

  it('treats a comma that could group thousands as no number: "1,234" is wrong against 1.234 and against 1234', () => {
    for (const key of ['1.234', '1234'])
      assert.equal(mark(q({ question_type: 'numeric', correct_answer: key }), '1,234', negative), -0.5, key);
  });

  it('matches a decimal comma against numeric alternatives too', () => {
    const question = q({
      question_type: 'numeric',
      correct_answer: '3.14',
      alternatives: [{ answer: '3', credit: 50, tolerance: 0.05 }],
    });
    assert.equal(mark(question, '3,02'), 1);
  });

  it('treats a non-numeric answer as wrong, not an error (thousands separators included)', () => {
    const thousand = q({ question_type: 'numeric', correct_answer: '1000' });
    for (const answer of ['1,000', '1 000', 'forty-two', 'NaN', 'Infinity', '0x2A', '42abc']) {
      assert.equal(mark(thousand, answer, negative), -0.5, answer);
    }
  });
});

describe('attempts/scoring totals', () => {
  const questions: ScoringQuestion[] = [
    q({ id: 'a', question_type: 'true_false', correct_answer: 'True', marks: 1 }),
    q({ id: 'b', question_type: 'short_answer', correct_answer: 'x', marks: 2 }),
    q({ id: 'c', question_type: 'numeric', correct_answer: '7', marks: 4 }),
  ];

  it('adds the marks of correct answers; total_marks is the sum of all marks', () => {
    const result = scoreAttempt(questions, { a: 'true', b: 'X', c: '7' }, plain);
    assert.deepEqual([result.score, result.total_marks], [7, 7]);
  });

  it('without negative marking a wrong answer scores 0', () => {
    const result = scoreAttempt(questions, { a: 'false', b: 'X', c: '8' }, plain);
    assert.equal(result.score, 2);
    assert.deepEqual(
      result.results.map((r) => r.marks_awarded),
      [0, 2, 0],
    );
  });

  it('with negative marking a wrong answer costs negative_mark_ratio × its marks', () => {
    const result = scoreAttempt(
      questions,
      { a: 'true', b: 'y', c: '7' },
      { negativeMarking: true, negativeMarkRatio: 0.5 },
    );
    assert.deepEqual(
      result.results.map((r) => r.marks_awarded),
      [1, -1, 4],
    );
    assert.equal(result.score, 4);
  });

  it('unanswered questions (absent, empty or blank) score 0, even with negative marking', () => {
    const result = scoreAttempt(questions, { a: '', b: '   ' }, negative);
    assert.deepEqual(
      result.results.map((r) => [r.answered, r.marks_awarded]),
      [
        [false, 0],
        [false, 0],
        [false, 0],
      ],
    );
    assert.equal(result.score, 0);
  });

  it('raises a negative total to 0 while the per-question results keep their sign', () => {
    const result = scoreAttempt(questions, { a: 'false', b: 'y', c: '0' }, negative);
    assert.deepEqual(
      result.results.map((r) => r.marks_awarded),
      [-0.25, -0.5, -1],
    );
    assert.equal(result.score, 0);
  });

  it('rounds to 4 decimals, so fractional marks add up without float noise', () => {
    const tenths = Array.from({ length: 3 }, (_, i) =>
      q({ id: `t${i}`, question_type: 'true_false', correct_answer: 'True', marks: 0.1 }),
    );
    const result = scoreAttempt(tenths, { t0: 'true', t1: 'true', t2: 'true' }, plain);
    assert.deepEqual([result.score, result.total_marks], [0.3, 0.3]);
    const third = scoreAttempt(
      [q({ question_type: 'true_false', correct_answer: 'True', marks: 1 })],
      { q1: 'false' },
      { negativeMarking: true, negativeMarkRatio: 1 / 3 },
    );
    assert.equal(third.results[0].marks_awarded, -0.3333);
  });

  it('ignores answers to questions that are not in the attempt (and inherited keys)', () => {
    const result = scoreAttempt(questions, { zzz: 'x', toString: 'x' } as Record<string, string>, negative);
    assert.equal(result.score, 0);
    assert.ok(result.results.every((r) => !r.answered));
    const proto = scoreAttempt(
      [q({ id: 'toString', question_type: 'short_answer', correct_answer: 'x' })],
      {},
      negative,
    );
    assert.equal(proto.results[0].answered, false);
  });

  it('an attempt with no questions scores 0 of 0, with nothing to grade', () => {
    assert.deepEqual(scoreAttempt([], {}, negative), {
      score: 0,
      total_marks: 0,
      results: [],
      pending_marks: 0,
      grading: null,
    });
  });
});

describe('attempts/scoring essay (graded by a person)', () => {
  const essay = (over: Partial<ScoringQuestion> = {}): ScoringQuestion =>
    q({ id: 'e1', question_type: 'essay', correct_answer: '', marks: 5, ...over });
  const choice = q({ id: 'c1', question_type: 'true_false', correct_answer: 'True', marks: 2 });

  it('leaves an answered essay without a grade pending: 0 marks so far, its marks in pending_marks, grading "pending"', () => {
    const result = scoreAttempt([choice, essay()], { c1: 'true', e1: 'My essay' }, plain);
    assert.deepEqual(result.results[1], {
      question_id: 'e1',
      answered: true,
      correct: false,
      marks_awarded: 0,
      pending: true,
    });
    assert.deepEqual([result.score, result.total_marks, result.pending_marks, result.grading], [2, 7, 5, 'pending']);
  });

  it('gives an unanswered essay (absent, empty or blank) 0 with nothing to grade: not pending, grading "complete"', () => {
    for (const answers of [{}, { e1: '' }, { e1: ' \n\t ' }] as Array<Record<string, string>>) {
      const result = scoreAttempt([essay()], answers, negative);
      assert.deepEqual(
        result.results[0],
        { question_id: 'e1', answered: false, correct: false, marks_awarded: 0 },
        JSON.stringify(answers),
      );
      assert.deepEqual([result.score, result.pending_marks, result.grading], [0, 0, 'complete']);
    }
  });

  it('ignores a grade given to an essay left unanswered: it earns 0 and is not pending', () => {
    const result = scoreAttempt([essay()], { e1: '   ' }, plain, { e1: { marks: 5 } });
    assert.deepEqual(
      [result.results[0].marks_awarded, result.results[0].answered, result.score, result.grading],
      [0, false, 0, 'complete'],
    );
  });

  it('awards a graded essay the grade’s marks, adds them to the score and completes the attempt once every essay is graded', () => {
    const result = scoreAttempt(
      [choice, essay(), essay({ id: 'e2', marks: 3 })],
      { c1: 'true', e1: 'one', e2: 'two' },
      plain,
      { e1: { marks: 3.5 }, e2: { marks: 3 } },
    );
    assert.deepEqual(
      result.results.map((r) => r.marks_awarded),
      [2, 3.5, 3],
    );
    assert.ok(result.results.every((r) => r.pending === undefined));
    assert.deepEqual(
      [result.score, result.total_marks, result.pending_marks, result.grading],
      [8.5, 10, 0, 'complete'],
    );
  });

  it('stays "pending" with the ungraded essays’ marks while some essays of the attempt are graded and others not', () => {
    const result = scoreAttempt([essay(), essay({ id: 'e2', marks: 3 })], { e1: 'one', e2: 'two' }, plain, {
      e1: { marks: 4 },
    });
    assert.deepEqual([result.score, result.pending_marks, result.grading], [4, 3, 'pending']);
    assert.deepEqual(
      result.results.map((r) => r.pending === true),
      [false, true],
    );
  });

  it('counts a graded essay as correct only at full marks', () => {
    assert.equal(scoreAttempt([essay()], { e1: 'x' }, plain, { e1: { marks: 5 } }).results[0].correct, true);
    assert.equal(scoreAttempt([essay()], { e1: 'x' }, plain, { e1: { marks: 4.9999 } }).results[0].correct, false);
  });

  it('keeps a grade between 0 and the essay’s marks: never negative, never above its marks', () => {
    assert.equal(scoreAttempt([essay()], { e1: 'x' }, plain, { e1: { marks: -2 } }).results[0].marks_awarded, 0);
    assert.equal(scoreAttempt([essay()], { e1: 'x' }, plain, { e1: { marks: 9 } }).results[0].marks_awarded, 5);
  });

  it('never costs negative marks: an essay graded 0 or still pending earns 0 with negative marking on', () => {
    const rules = { negativeMarking: true, negativeMarkRatio: 1 };
    assert.equal(scoreAttempt([essay()], { e1: 'x' }, rules).results[0].marks_awarded, 0);
    assert.equal(scoreAttempt([essay()], { e1: 'x' }, rules, { e1: { marks: 0 } }).results[0].marks_awarded, 0);
  });

  it('never marks an essay by its key: any answer is pending until graded, even one equal to correct_answer', () => {
    const result = scoreAttempt([essay({ correct_answer: 'Paris' })], { e1: 'Paris' }, plain);
    assert.deepEqual([result.results[0].marks_awarded, result.results[0].pending, result.score], [0, true, 0]);
  });

  it('rounds a fractional grade, the score and pending_marks to 4 decimals', () => {
    const result = scoreAttempt(
      [essay({ marks: 0.1 }), essay({ id: 'e2', marks: 0.2 }), essay({ id: 'e3', marks: 0.1 })],
      { e1: 'a', e2: 'b', e3: 'c' },
      plain,
      {
        e1: { marks: 1 / 30 },
      },
    );
    assert.equal(result.results[0].marks_awarded, 0.0333);
    assert.equal(result.pending_marks, 0.3);
  });

  it('reads grades by own keys only: an essay named like an inherited property is pending, not graded by the prototype', () => {
    const result = scoreAttempt(
      [essay({ id: 'toString' })],
      { toString: 'an answer' } as Record<string, string>,
      plain,
      {},
    );
    assert.deepEqual([result.results[0].pending, result.grading], [true, 'pending']);
  });

  it('says grading null for an attempt without essays, and "complete" for one whose essays were all left unanswered', () => {
    assert.equal(scoreAttempt([choice], { c1: 'true' }, plain).grading, null);
    assert.equal(scoreAttempt([choice, essay()], { c1: 'true' }, plain).grading, 'complete');
  });
});

describe('attempts/scoring multiple_select with option_credits (partial credit)', () => {
  const question = q({
    question_type: 'multiple_select',
    options: ['A', 'B', 'C', 'D'],
    correct_answer: 'A|B',
    option_credits: [50, 50, -50, -100],
    marks: 2,
  });
  const result = (answer: string, rules = plain) => scoreAttempt([question], { q1: answer }, rules).results[0];

  it('awards the sum of the chosen options’ credits as a share of the marks', () => {
    assert.equal(result('A').marks_awarded, 1);
    assert.equal(result('A').correct, false, 'partial credit is not correct');
    assert.deepEqual([result('A|B').marks_awarded, result('a | b').correct], [2, true]);
  });

  it('lowers the sum by negative credits, and clamps it to 0 (never below, even with negative marking on)', () => {
    assert.equal(result('A|B|C').marks_awarded, 1);
    assert.equal(result('A|D').marks_awarded, 0);
    assert.equal(result('C|D', negative).marks_awarded, 0);
    assert.equal(result('D', negative).correct, false);
  });

  it('clamps a sum above 100 % to the marks', () => {
    const generous = { ...question, option_credits: [80, 80, 0, 0] };
    const r = scoreAttempt([generous], { q1: 'A|B' }, plain).results[0];
    assert.deepEqual([r.marks_awarded, r.correct], [2, true]);
  });

  it('counts a repeated choice once and a choice matching no option as 0', () => {
    assert.equal(result('A|A|a').marks_awarded, 1);
    assert.equal(result('A|Z').marks_awarded, 1);
  });

  it('rounds to 4 decimals, and three thirds of the marks (33.33333 % each) are full marks', () => {
    const thirds = q({
      question_type: 'multiple_select',
      options: ['A', 'B', 'C', 'D'],
      correct_answer: 'A|B|C',
      option_credits: [33.33333, 33.33333, 33.33333, -100],
      marks: 1,
    });
    const one = scoreAttempt([thirds], { q1: 'A' }, plain).results[0];
    assert.equal(one.marks_awarded, 0.3333);
    const all = scoreAttempt([thirds], { q1: 'A|B|C' }, plain).results[0];
    assert.deepEqual([all.marks_awarded, all.correct], [1, true]);
  });

  it('scores the same question without option_credits all or nothing, as before (negative marks included)', () => {
    const old = { ...question, option_credits: undefined };
    assert.equal(scoreAttempt([old], { q1: 'A' }, negative).results[0].marks_awarded, -0.5);
    assert.equal(scoreAttempt([old], { q1: 'A|B' }, negative).results[0].marks_awarded, 2);
    const nulled = { ...question, option_credits: null };
    assert.equal(scoreAttempt([nulled], { q1: 'A' }, plain).results[0].marks_awarded, 0);
  });
});

describe('attempts/scoring alternatives', () => {
  const short = q({
    question_type: 'short_answer',
    correct_answer: 'colour',
    alternatives: [
      { answer: 'color', credit: 100 },
      { answer: 'colr', credit: 25 },
      { answer: 'kolor', credit: 50 },
      { answer: 'kolor', credit: 10 },
      { answer: 'hue', credit: 0 },
    ],
    marks: 4,
  });
  const result = (question: ScoringQuestion, answer: string, rules = plain) =>
    scoreAttempt([question], { q1: answer }, rules).results[0];

  it('gives the key the full marks, and an alternative of credit 100 the full marks too (correct)', () => {
    assert.deepEqual([result(short, 'Colour').marks_awarded, result(short, 'Colour').correct], [4, true]);
    assert.deepEqual([result(short, ' COLOR ').marks_awarded, result(short, 'color').correct], [4, true]);
  });

  it('gives an alternative its credit as a share of the marks, the best when several match, never negative', () => {
    assert.deepEqual([result(short, 'colr').marks_awarded, result(short, 'colr').correct], [1, false]);
    assert.equal(result(short, 'KOLOR', negative).marks_awarded, 2);
  });

  it('treats an answer matching nothing, or only a 0-credit alternative, as wrong: negative marks apply', () => {
    assert.equal(result(short, 'hue', negative).marks_awarded, -1);
    assert.equal(result(short, 'shade', negative).marks_awarded, -1);
    assert.equal(result(short, 'shade', plain).marks_awarded, 0);
  });

  it('matches numeric alternatives within their own tolerance (0 when absent)', () => {
    const numeric = q({
      question_type: 'numeric',
      correct_answer: '3.14',
      tolerance: 0.01,
      alternatives: [
        { answer: '3.14', credit: 50, tolerance: 0.1 },
        { answer: '3', credit: 20 },
      ],
      marks: 2,
    });
    assert.deepEqual([result(numeric, '3.141').marks_awarded, result(numeric, '3.141').correct], [2, true]);
    assert.equal(result(numeric, '3.2').marks_awarded, 1);
    assert.equal(result(numeric, '3').marks_awarded, 0.4);
    assert.equal(result(numeric, '3.0000001').marks_awarded, 0);
    assert.equal(result(numeric, 'pi', negative).marks_awarded, -0.5);
  });

  it('ignores alternatives on other types (a choice question stays all or nothing)', () => {
    const choice = q({
      question_type: 'multiple_choice',
      options: ['A', 'B'],
      correct_answer: 'A',
      alternatives: [{ answer: 'B', credit: 50 }],
    });
    assert.equal(result(choice, 'B').marks_awarded, 0);
  });
});

describe('attempts/scoring short_answer case_sensitive', () => {
  const question = q({
    question_type: 'short_answer',
    correct_answer: 'NaCl',
    case_sensitive: true,
    alternatives: [{ answer: 'Na Cl', credit: 50 }],
  });
  const mark1 = (answer: string) => scoreAttempt([question], { q1: answer }, plain).results[0].marks_awarded;

  it('compares case for case, still trimmed, with spacing collapsed and NFKC', () => {
    assert.equal(mark1('NaCl'), 2);
    assert.equal(mark1('  NaCl\n'), 2);
    assert.equal(mark1('ＮａＣｌ'), 2);
    assert.equal(mark1('nacl'), 0);
    assert.equal(mark1('NACL'), 0);
  });

  it('compares the alternatives case for case too', () => {
    assert.equal(mark1('Na   Cl'), 1);
    assert.equal(mark1('na cl'), 0);
  });

  it('folds case as before when case_sensitive is absent or false', () => {
    for (const flag of [undefined, false, null]) {
      const folded = { ...question, case_sensitive: flag };
      assert.equal(scoreAttempt([folded], { q1: 'nacl' }, plain).results[0].marks_awarded, 2, String(flag));
    }
  });
});
