import assert from 'node:assert/strict';
import type { StoredAttempt } from '../../functions/src/attempts/documents';
import {
  answerProblems,
  gradingItems,
  GRACE_MS,
  paperOf,
  scoredFields,
  universePositions,
  type VersionForAttempt,
} from '../../functions/src/attempts/rules';
import { wordCount } from '../../functions/src/questionTypes/essay/module';
import { MAX_ANSWER_LENGTH, MAX_ESSAY_ANSWER_LENGTH } from '../../functions/src/attempts/schemas';
import type { FrozenQuestion } from '../../functions/src/exams/documents';
import { frozenQuestion as frozen } from '../exams/frozenQuestion';

// Pure: an attempt's paper (its version with the questions it drew) and the
// rules that score it, queue its essays and check its answers, no emulator needed.

const essay = (id: string, over: Partial<FrozenQuestion> = {}): FrozenQuestion =>
  frozen(id, { question_type: 'essay', options: [], correct_answer: '', marks: 5, max_words: null, ...over });

const version = (questions: FrozenQuestion[], over: Partial<VersionForAttempt> = {}): VersionForAttempt => ({
  version: 1,
  test_id: 't1',
  test: {
    test_name: 'Pools and essays',
    timer: 30,
    shuffle: 0,
    allow_review: 1,
    negative_marking: 0,
    description: null,
    max_attempts: null,
    negative_mark_ratio: 0.25,
    question_ids: questions.map((q) => q.id),
  },
  questions,
  total_marks: questions.reduce((sum, q) => sum + q.marks, 0),
  ...over,
});

const EXPIRES_AT = '2030-01-01T10:00:00.000Z';
const inTime = '2030-01-01T09:59:00.000Z';
const tooLate = new Date(Date.parse(EXPIRES_AT) + GRACE_MS + 1).toISOString();

const attempt = (over: Partial<StoredAttempt> = {}): StoredAttempt => ({
  id: 'c1.a1',
  client_id: 'c1',
  test_id: 't1',
  version: 1,
  student_id: 's1',
  guest: false,
  guest_name: null,
  share_code: null,
  started_by: 's1',
  status: 'submitted',
  started_at: '2030-01-01T09:00:00.000Z',
  expires_at: EXPIRES_AT,
  submitted_at: '2030-01-01T09:30:00.000Z',
  auto_submitted: false,
  answers: {},
  question_order: [],
  token_hash: 'x',
  score: null,
  total_marks: 0,
  results: null,
  ...over,
});

describe('attempts/rules paperOf', () => {
  const fixed = [frozen('f1', { marks: 2 }), frozen('f2', { marks: 3 })];

  it('puts the drawn questions after the fixed ones and says how many are fixed', () => {
    const paper = paperOf(version(fixed), [frozen('p1'), frozen('p2')]);
    assert.deepEqual(
      paper.questions.map((q) => q.id),
      ['f1', 'f2', 'p1', 'p2'],
    );
    assert.equal(paper.fixed_count, 2);
  });

  it('gives the attempt its own total: the fixed questions’ marks and the drawn ones’, rounded to 4 decimals', () => {
    assert.equal(paperOf(version(fixed), [frozen('p1', { marks: 4 })]).total_marks, 9);
    const tenths = paperOf(version([frozen('f1', { marks: 0.1 })]), [frozen('p1', { marks: 0.2 })]);
    assert.equal(tenths.total_marks, 0.3);
  });

  it('keeps the version’s total with nothing drawn, and leaves the version itself untouched', () => {
    const v = version(fixed);
    const before = structuredClone(v);
    const paper = paperOf(v, []);
    assert.equal(paper.total_marks, 5);
    paperOf(v, [frozen('p1')]);
    assert.deepEqual(v, before);
  });
});

describe('attempts/rules universePositions', () => {
  const pooled = (fixed: FrozenQuestion[], pools: string[][]) =>
    version(fixed, {
      pools: pools.map((ids) => ({ folder_id: 'f', difficulty: null, draw: 1, question_ids: ids })),
      pool_freeze_id: 'z',
    });

  it('numbers the fixed questions first, then each pool’s questions in order', () => {
    const positions = universePositions(pooled([frozen('f1'), frozen('f2')], [['a', 'b'], ['c']]));
    assert.deepEqual(
      [...positions],
      [
        ['f1', 0],
        ['f2', 1],
        ['a', 2],
        ['b', 3],
        ['c', 4],
      ],
    );
  });

  it('numbers a version without pools by its questions’ order', () => {
    assert.deepEqual(
      [...universePositions(version([frozen('x'), frozen('y')]))],
      [
        ['x', 0],
        ['y', 1],
      ],
    );
  });

  it('gives the same positions on an attempt’s paper as on its version: a drawn question keeps its pool position, not its place on the paper', () => {
    const v = pooled(
      [frozen('f1')],
      [
        ['a', 'b', 'c'],
        ['d', 'e'],
      ],
    );
    const paper = paperOf(v, [frozen('c'), frozen('e')]);
    assert.deepEqual([...universePositions(paper)], [...universePositions(v)]);
    assert.equal(universePositions(paper).get('c'), 3);
  });

  it('gives a question at most one position, at its first place, so positions are 0 … size − 1 without gaps', () => {
    const positions = universePositions(
      pooled(
        [frozen('f1')],
        [
          ['f1', 'a'],
          ['a', 'b'],
        ],
      ),
    );
    assert.deepEqual(
      [...positions],
      [
        ['f1', 0],
        ['a', 1],
        ['b', 2],
      ],
    );
  });
});

describe('attempts/rules scoredFields', () => {
  const questions = [frozen('q1', { marks: 2 }), frozen('q2', { marks: 2 }), essay('e1', { marks: 4 })];

  it('scores the answers saved in time only: a later one counts as unanswered', () => {
    const fields = scoredFields(
      attempt({ answers: { q1: { answer: 'True', saved_at: inTime }, q2: { answer: 'True', saved_at: tooLate } } }),
      version(questions),
    );
    assert.deepEqual(
      fields.results.map((r) => [r.question_id, r.answered, r.marks_awarded]),
      [
        ['q1', true, 2],
        ['q2', false, 0],
        ['e1', false, 0],
      ],
    );
    assert.deepEqual([fields.score, fields.total_marks, fields.percentage], [2, 8, 25]);
  });

  it('counts the attempt’s essay grades, by their marks alone, and says whether grading is complete', () => {
    const answers = { q1: { answer: 'True', saved_at: inTime }, e1: { answer: 'An essay', saved_at: inTime } };
    const pending = scoredFields(attempt({ answers }), version(questions));
    assert.deepEqual([pending.score, pending.grading, pending.pending_marks], [2, 'pending', 4]);
    const graded = scoredFields(
      attempt({ answers, grades: { e1: { marks: 3, feedback: 'Good', graded_by: 'admin', graded_at: inTime } } }),
      version(questions),
    );
    assert.deepEqual([graded.score, graded.grading, graded.pending_marks, graded.percentage], [5, 'complete', 0, 62.5]);
  });

  it('applies the version’s negative marking to wrong answers, never to essays', () => {
    const v = version(questions);
    const negative = { ...v, test: { ...v.test, negative_marking: 1 as const, negative_mark_ratio: 0.5 } };
    const fields = scoredFields(
      attempt({
        answers: { q1: { answer: 'False', saved_at: inTime }, e1: { answer: 'x', saved_at: inTime } },
        grades: { e1: { marks: 0, feedback: null, graded_by: 'a', graded_at: inTime } },
      }),
      negative,
    );
    assert.deepEqual(
      fields.results.map((r) => r.marks_awarded),
      [-1, 0, 0],
    );
    assert.equal(fields.score, 0);
  });

  it('scores the drawn questions of a paper with the fixed ones, out of the attempt’s own total', () => {
    const paper = paperOf(version([frozen('f1')]), [frozen('p1', { marks: 3 })]);
    const fields = scoredFields(attempt({ answers: { p1: { answer: 'true', saved_at: inTime } } }), paper);
    assert.deepEqual([fields.score, fields.total_marks, fields.percentage, fields.grading], [3, 4, 75, null]);
  });
});

describe('attempts/rules gradingItems', () => {
  const paper = version([frozen('q1'), essay('e1', { max_words: 300 }), essay('e2'), essay('e3')]);
  const answers = {
    q1: { answer: 'True', saved_at: inTime },
    e1: { answer: 'First essay', saved_at: inTime },
    e2: { answer: 'Second essay', saved_at: inTime },
  };
  const grades = { e2: { marks: 1, feedback: null, graded_by: 'a', graded_at: inTime } };

  it('makes one item per answered essay still pending, with what a grader reads', () => {
    const stored = attempt({ answers, grades });
    const items = gradingItems({ ...stored, ...scoredFields(stored, paper) }, paper);
    assert.deepEqual(items, [
      {
        attempt_id: 'c1.a1',
        question_id: 'e1',
        client_id: 'c1',
        test_id: 't1',
        version: 1,
        student_id: 's1',
        guest_name: null,
        question_text: 'Text of e1',
        marks: 5,
        max_words: 300,
        student_answer: 'First essay',
        submitted_at: '2030-01-01T09:30:00.000Z',
      },
    ]);
  });

  it('makes none for a graded essay, an unanswered one or a question that is not an essay', () => {
    const stored = attempt({ answers: { q1: answers.q1, e2: answers.e2 }, grades });
    assert.deepEqual(gradingItems({ ...stored, ...scoredFields(stored, paper) }, paper), []);
  });

  it('dates an attempt closed without submitted_at by its expiry, names a guest, and says max_words null when absent', () => {
    const stored = attempt({
      answers: { e3: { answer: 'Guest essay', saved_at: inTime } },
      submitted_at: null,
      guest: true,
      guest_name: 'Ada',
    });
    const old = version([{ ...essay('e3'), max_words: undefined }]);
    const [item] = gradingItems({ ...stored, ...scoredFields(stored, old) }, old);
    assert.deepEqual([item.submitted_at, item.guest_name, item.max_words], [EXPIRES_AT, 'Ada', null]);
  });

  it('makes none for an attempt not scored yet (no results)', () => {
    assert.deepEqual(gradingItems(attempt({ answers, results: null }), paper), []);
  });
});

describe('attempts/rules answerProblems', () => {
  const paper = version([frozen('q1'), essay('e1', { max_words: 3 }), essay('e2', { max_words: null })]);

  it('takes an essay answer of up to 10,000 characters, and refuses any other answer past 2,000 characters', () => {
    const long = 'x'.repeat(MAX_ESSAY_ANSWER_LENGTH);
    assert.deepEqual(answerProblems(paper, [{ question_id: 'e2', student_answer: long }]), []);
    assert.deepEqual(answerProblems(paper, [{ question_id: 'q1', student_answer: 'x'.repeat(MAX_ANSWER_LENGTH) }]), []);
    const [problem] = answerProblems(paper, [{ question_id: 'q1', student_answer: 'x'.repeat(MAX_ANSWER_LENGTH + 1) }]);
    assert.equal(problem.index, 0);
    assert.match(problem.message, /At most 2000 characters for a true_false question/);
  });

  it('refuses an essay answer past its max_words, saying how many words it has', () => {
    assert.deepEqual(answerProblems(paper, [{ question_id: 'e1', student_answer: 'one two  three' }]), []);
    assert.deepEqual(answerProblems(paper, [{ question_id: 'e1', student_answer: 'one two three four' }]), [
      { index: 0, message: 'This essay takes at most 3 words; the answer has 4' },
    ]);
  });

  it('sets no word limit on an essay without max_words', () => {
    assert.deepEqual(answerProblems(paper, [{ question_id: 'e2', student_answer: 'word '.repeat(2000) }]), []);
  });

  it('names each problem by its index in the batch, and passes over questions that are not on the paper', () => {
    const problems = answerProblems(paper, [
      { question_id: 'q1', student_answer: 'True' },
      { question_id: 'e1', student_answer: 'a b c d e' },
      { question_id: 'unknown', student_answer: 'x'.repeat(20_000) },
      { question_id: 'q1', student_answer: 'y'.repeat(2001) },
    ]);
    assert.deepEqual(
      problems.map((p) => p.index),
      [1, 3],
    );
  });

  it('takes an empty answer (a cleared one) to an essay with a word limit', () => {
    assert.deepEqual(answerProblems(paper, [{ question_id: 'e1', student_answer: '' }]), []);
  });
});

describe('attempts/rules wordCount', () => {
  it('counts runs of characters between white space', () => {
    assert.equal(wordCount('one two three'), 3);
    assert.equal(wordCount("don't stop-me now."), 3);
  });

  it('counts no words in an empty or blank answer', () => {
    assert.equal(wordCount(''), 0);
    assert.equal(wordCount(' \n\t  '), 0);
  });

  it('takes any run of white space as one separator: leading, trailing, tabs, new lines, no-break and ideographic spaces', () => {
    assert.equal(wordCount('  one\t\ttwo\n\nthree  '), 3);
    assert.equal(wordCount('one\u00a0two\u3000three\u2003four'), 4);
  });

  it('counts a text without white space as one word, whatever its length or script', () => {
    assert.equal(wordCount('x'.repeat(10_000)), 1);
    assert.equal(wordCount('日本語の文章'), 1);
  });
});
